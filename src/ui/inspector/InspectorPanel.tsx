/**
 * The built-in inspector (docs/machines/inspector.md): every live actor of the console with its statechart drawn
 * from its definition, the current state highlighted as it changes, its context and its event log with
 * timestamps. Docked at the bottom of the window; works offline (nothing leaves the page).
 */
import { useEffect, useState, useSyncExternalStore, type ReactElement } from 'react'
import { t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { Button, Checkbox, makeStyles, tokens } from '@fluentui/react-components'
import { activeStateIds, describeValue, statusOf, toDisplayJson, type InspectedActor, type InspectorStore } from './store.ts'
import { Statechart } from './Statechart.tsx'

const useStyles = makeStyles({
  panel: {
    position: 'fixed', left: 0, right: 0, bottom: 0, height: '45vh',
    display: 'grid', gridTemplateColumns: '240px 1fr', gridTemplateRows: 'auto 1fr',
    backgroundColor: tokens.colorNeutralBackground1, color: tokens.colorNeutralForeground1,
    borderTop: `2px solid ${tokens.colorBrandStroke1}`, boxShadow: tokens.shadow28, fontSize: tokens.fontSizeBase200,
  },
  bar: {
    gridColumn: '1 / 3', display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`, borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  title: { margin: 0, fontSize: tokens.fontSizeBase300, fontWeight: tokens.fontWeightSemibold, flexGrow: 1 },
  list: { margin: 0, padding: tokens.spacingVerticalXS, listStyle: 'none', overflowY: 'auto', borderRight: `1px solid ${tokens.colorNeutralStroke2}` },
  item: { width: '100%', justifyContent: 'flex-start', textAlign: 'start', fontWeight: tokens.fontWeightRegular },
  done: { color: tokens.colorNeutralForeground3 },
  detail: { overflow: 'auto', padding: tokens.spacingHorizontalM, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  columns: { display: 'grid', gridTemplateColumns: 'minmax(260px, 1fr) minmax(320px, 1.4fr)', gap: tokens.spacingHorizontalL },
  pre: { margin: 0, padding: tokens.spacingHorizontalS, backgroundColor: tokens.colorNeutralBackground3, maxHeight: '240px', overflow: 'auto', fontSize: '11px' },
  table: { borderCollapse: 'collapse', width: '100%', '& td, & th': { padding: '1px 6px', textAlign: 'start', verticalAlign: 'top', borderBottom: `1px solid ${tokens.colorNeutralStroke3}` } },
  h3: { margin: 0, fontSize: tokens.fontSizeBase200, fontWeight: tokens.fontWeightSemibold },
  open: { position: 'fixed', right: '8px', bottom: '8px' },
})

const time = (at: number) => {
  const d = new Date(at)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

const statusText = (status: string) =>
  status === 'active' ? t`running` : status === 'done' ? t`finished` : status === 'error' ? t`failed` : t`stopped`

export function InspectorPanel({ store }: { store: InspectorStore }): ReactElement {
  const styles = useStyles()
  useSyncExternalStore(store.subscribe, store.getVersion)
  const [open, setOpen] = useState(true)
  const [follow, setFollow] = useState(true)
  const [picked, setPicked] = useState<string | null>(null)
  useEffect(() => {
    store.setOnCreated(follow ? (actor) => setPicked(actor.sessionId) : null)
  }, [store, follow])

  const actors = [...store.actors.values()].filter((actor) => actor.started).sort((a, b) => {
    const live = (x: InspectedActor) => (statusOf(x) === 'active' ? 0 : 1)
    return live(a) - live(b) || a.seq - b.seq
  })
  const selected = (picked && store.actors.get(picked)) || actors[0]

  if (!open) {
    return (
      <Button className={styles.open} appearance="primary" onClick={() => setOpen(true)}>
        <Trans>State inspector</Trans>
      </Button>
    )
  }
  return (
    <aside className={styles.panel} aria-label={t`State inspector`} data-inspector="">
      <div className={styles.bar}>
        <h2 className={styles.title}>
          <Trans>State inspector</Trans>
        </h2>
        <Checkbox checked={follow} onChange={(_, data) => setFollow(data.checked === true)} label={t`Follow new flows`} />
        <Button size="small" onClick={() => setOpen(false)}>
          <Trans>Hide</Trans>
        </Button>
      </div>
      <ul className={styles.list} aria-label={t`Actors`}>
        {actors.map((actor) => {
          const status = statusOf(actor)
          return (
            <li key={actor.sessionId}>
              <Button
                className={styles.item}
                size="small"
                appearance={actor === selected ? 'primary' : 'subtle'}
                aria-pressed={actor === selected}
                data-actor={actor.name}
                onClick={() => setPicked(actor.sessionId)}
              >
                <span className={status === 'active' ? undefined : styles.done}>
                  {actor.name === actor.machineId ? actor.name : `${actor.name} (${actor.machineId})`} · {statusText(status)}
                </span>
              </Button>
            </li>
          )
        })}
      </ul>
      <div className={styles.detail}>{selected ? <ActorDetail store={store} actor={selected} /> : <Trans>No actors yet.</Trans>}</div>
    </aside>
  )
}

function ActorDetail({ store, actor }: { store: InspectorStore; actor: InspectedActor }): ReactElement {
  const styles = useStyles()
  const snapshot = (actor.ref.getSnapshot() ?? { status: 'active' }) as { value?: unknown; context?: unknown; status: string }
  const current = describeValue(snapshot.value)
  const events = store.log.filter((entry) => entry.sessionId === actor.sessionId).slice(-200).reverse()
  return (
    <section aria-label={t`Actor ${actor.name}`} data-selected-actor={actor.name}>
      <p style={{ margin: 0 }}>
        <Trans>
          Machine <b>{actor.machineId}</b>, {statusText(snapshot.status)}; current state: <b data-current-state="">{current}</b>
        </Trans>
      </p>
      {/* scrolls when the chart is wider than the panel: reachable by keyboard */}
      <div style={{ overflow: 'auto', margin: `${tokens.spacingVerticalS} 0` }} tabIndex={0}>
        <Statechart graph={actor.graph} active={activeStateIds(snapshot, actor.graph)} current={current} />
      </div>
      <div className={styles.columns}>
        <div>
          <h3 className={styles.h3}>
            <Trans>Context</Trans>
          </h3>
          <pre className={styles.pre} tabIndex={0}>{toDisplayJson(snapshot.context)}</pre>
        </div>
        <div>
          <h3 className={styles.h3}>
            <Trans>Events</Trans>
          </h3>
          <table className={styles.table} data-event-log="">
            <thead>
              <tr>
                <th scope="col"><Trans>Time</Trans></th>
                <th scope="col"><Trans>Event</Trans></th>
                <th scope="col"><Trans>From</Trans></th>
              </tr>
            </thead>
            <tbody>
              {events.map((entry) => (
                <tr key={entry.seq}>
                  <td>{time(entry.at)}</td>
                  <td title={entry.payload}>{entry.type}</td>
                  <td>{entry.source ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  )
}
