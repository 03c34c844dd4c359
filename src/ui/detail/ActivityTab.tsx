/**
 * The Activity tab (console-behaviour §2.9): "Now", then the resource's activities (newest first) with relative
 * dates; operate logs open a dialog with their field diff, other entries a detail page in a new window.
 */
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, Spinner, makeStyles, tokens,
} from '@fluentui/react-components'
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { activitiesQuery } from '../../api/queries.ts'
import { ChangesTable } from './ChangesTable.tsx'
import type { Activity, RowId } from '../../api/resources.ts'
import { describeError } from '../common/errors.ts'
import { relativeTime } from '../common/relativeTime.ts'
import { Timeline, type TimelineEntry } from '../common/Timeline.tsx'
import { useCached } from '../common/useCached.ts'
import { useAccess } from '../common/access.tsx'
import { formatDateTime } from '../table/formatters.ts'

const useStyles = makeStyles({
  muted: { color: tokens.colorNeutralForeground3 },
  wrap: { maxWidth: '900px' },
})

const KIND_LABELS = { O: 'operate', S: 'session', L: 'login', T: 'task' } as const

function useWhen() {
  const { t } = useLingui()
  return (date: Date | undefined, raw: string): string => {
    if (!date) return raw
    const r = relativeTime(date)
    switch (r.kind) {
      case 'justNow':
        return t`just now`
      case 'minutes':
        return plural(r.n, { one: '# minute ago', other: '# minutes ago' })
      case 'hours':
        return plural(r.n, { one: '# hour ago', other: '# hours ago' })
      case 'days':
        return plural(r.n, { one: '# day ago', other: '# days ago' })
      case 'date':
        return formatDateTime(date)
    }
  }
}

function DiffDialog({ url, onClose }: { url: string; onClose: () => void }) {
  const { t } = useLingui()
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t`Changes`}</DialogTitle>
          <DialogContent>
            <ChangesTable url={url} />
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>{t`Close`}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}

function openCentered(url: string): void {
  const w = 900
  const h = 600
  const left = Math.max(0, (window.screen.width - w) / 2)
  const top = Math.max(0, (window.screen.height - h) / 2)
  window.open(url, '_blank', `width=${w},height=${h},left=${left},top=${top},noopener`)
}

export function ActivityTab({ resourceId }: { resourceId: RowId }) {
  const { t } = useLingui()
  const styles = useStyles()
  const when = useWhen()
  const { orgId } = useAccess()
  const list = useCached(activitiesQuery(resourceId, orgId))
  const [diffUrl, setDiffUrl] = useState<string>()
  const [now] = useState(() => new Date())

  const kindLabel = (a: Activity): string => {
    const k = KIND_LABELS[a.kind as keyof typeof KIND_LABELS]
    return k === 'operate' ? t`Operation` : k === 'session' ? t`Session` : k === 'login' ? t`Login` : k === 'task' ? t`Task` : t`Activity`
  }
  const entries: TimelineEntry[] = [
    { key: 'now', title: t`Now`, time: formatDateTime(now), dateTime: now.toISOString(), primary: true },
    ...(list.data ?? []).map((a) => ({
      key: a.id,
      title: kindLabel(a),
      time: <span title={a.timestamp}>{when(a.at, a.timestamp)}</span>,
      dateTime: a.at?.toISOString(),
      content: a.content,
      action: a.detailUrl ? (
        <Button size="small" appearance="transparent" onClick={() => (a.kind === 'O' ? setDiffUrl(a.detailUrl) : openCentered(a.detailUrl))}>
          {t`Detail`}
        </Button>
      ) : undefined,
    })),
  ]
  return (
    <section className={styles.wrap} aria-label={t`Activity`}>
      <p className={styles.muted}>{t`Activity of the last 30 days`}</p>
      {list.status === 'error' && <MessageBar intent="error"><MessageBarBody>{describeError(list.error)}</MessageBarBody></MessageBar>}
      {list.status === 'loading' && <Spinner size="small" label={t`Loading…`} />}
      <Timeline entries={entries} label={t`Activity`} />
      {list.status === 'ok' && list.data?.length === 0 && <p className={styles.muted}>{t`No activity yet`}</p>}
      {diffUrl && <DiffDialog url={diffUrl} onClose={() => setDiffUrl(undefined)} />}
    </section>
  )
}
