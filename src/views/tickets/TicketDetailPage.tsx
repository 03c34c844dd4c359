/**
 * A ticket's detail, one page for the four types (the type decides the extra fields): its fields, the process map
 * as a timeline, the comments, and approve (an asset request's nodes, assets, accounts, actions and dates editable
 * first) / reject / close for whom the server's rules allow — mirrored here, enforced there.
 */
import { Button, Card, Checkbox, Field, Input, MessageBar, MessageBarBody, Spinner, Textarea, makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { useCallback, useEffect, useState, type ReactNode } from 'react'
import { fetchAnyTicket, fetchComments, fetchTicket, postComment, ticketAction, type Ticket, type TicketComment, type TicketType } from '../../api/tickets.ts'
import { useAccess } from '../../ui/common/access.tsx'
import { describeError } from '../../ui/common/errors.ts'
import { useGo } from '../../ui/common/navigation.tsx'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { RelatedPicker } from '../../ui/common/RelatedPicker.tsx'
import { StateBadge } from '../../ui/common/StateBadge.tsx'
import { Timeline } from '../../ui/common/Timeline.tsx'
import { detailPathOf } from './detailPaths.ts'
import { ACTION_CHOICES, fromLocalInput, toLocalInput } from './requestModel.ts'
import { formatMoment } from '../../ui/table/formatters.ts'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(320px, 100%), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  dl: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalS, margin: 0 },
  dt: { color: tokens.colorNeutralForeground3 },
  dd: { margin: 0, overflowWrap: 'anywhere' },
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  comment: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, paddingBottom: tokens.spacingVerticalS },
  meta: { color: tokens.colorNeutralForeground3 },
})

type Names = { name?: string; full_value?: string; address?: string; username?: string }
const names = (v: unknown) => (Array.isArray(v) ? (v as Names[]).map((x) => x.full_value ?? (x.address ? `${x.name}(${x.address})` : x.name)).join(', ') : '')
const who = (v: unknown) => (v && typeof v === 'object' ? `${(v as Names).name ?? ''}(${(v as Names).username ?? ''})` : String(v ?? ''))

/** Dates as everywhere in the console (one formatter: the preferred zone, no offset). */
function useDate() {
  return (v: unknown) => (typeof v === 'string' && v ? formatMoment(v) : '-')
}

interface Edits { nodes: string[]; assets: string[]; accounts: string; actions: string[]; start: string; expired: string }

function TicketDetail({ type }: { type: TicketType | undefined }) {
  const { i18n } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const go = useGo()
  const date = useDate()
  const { id = '' } = useParams({ strict: false }) as { id?: string }
  const [ticket, setTicket] = useState<Ticket | null>(null)
  const [comments, setComments] = useState<TicketComment[]>([])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [body, setBody] = useState('')
  const [edits, setEdits] = useState<Edits | null>(null)

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      const t = type ? await fetchTicket(type, id, signal) : await fetchAnyTicket(id, signal)
      if (!type) {
        go(detailPathOf(t.type.value, t.id), undefined, { replace: true })
        return
      }
      setTicket(t)
      setComments(await fetchComments(id, signal))
      if (t.type.value === 'apply_asset') {
        setEdits({
          nodes: ((t.apply_nodes ?? []) as { id: string }[]).map((x) => x.id), assets: ((t.apply_assets ?? []) as { id: string }[]).map((x) => x.id),
          accounts: ((t.apply_accounts ?? []) as string[]).join(', '), actions: ((t.apply_actions ?? []) as { value: string }[]).map((a) => a.value),
          start: toLocalInput(String(t.apply_date_start ?? '')), expired: toLocalInput(String(t.apply_date_expired ?? '')),
        })
      }
    } catch (e) {
      if (!signal?.aborted) setError(describeError(e))
    }
  }, [type, id, go])
  useEffect(() => {
    const ac = new AbortController()
    void load(ac.signal)
    return () => ac.abort()
  }, [load])

  if (error) return <Page title={i18n._(msg`Ticket details`)}><MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar></Page>
  if (!ticket || !type) return <Page title={i18n._(msg`Ticket details`)}><Spinner label={i18n._(msg`Loading…`)} /></Page>

  const me = access.userId ?? ''
  const open = ticket.status.value === 'open'
  const current = ticket.process_map.find((s) => s.approval_level === ticket.approval_step.value)
  const isApplicant = ticket.applicant?.id === me
  const isAssignee = ticket.process_map.some((s) => s.assignees.includes(me))
  const canDecide = open && !isApplicant && !!current?.assignees.includes(me)
  const canClose = open && (isApplicant || isAssignee)
  const editable = canDecide && type === 'apply_asset' && edits

  const run = async (action: 'approve' | 'reject' | 'close') => {
    setBusy(true)
    try {
      let payload: Record<string, unknown> | undefined
      if (action === 'approve' && editable) {
        payload = {
          apply_nodes: edits.nodes, apply_assets: edits.assets, apply_actions: edits.actions,
          apply_accounts: edits.accounts.split(',').map((a) => a.trim()).filter(Boolean),
          apply_date_start: fromLocalInput(edits.start), apply_date_expired: fromLocalInput(edits.expired),
        }
      }
      await ticketAction(type, ticket.id, action, payload)
      notify('success', i18n._(action === 'approve' ? msg`Approved` : action === 'reject' ? msg`Rejected` : msg`Closed`))
      await load()
    } catch (e) {
      notify('error', describeError(e))
    } finally {
      setBusy(false)
    }
  }
  const send = async () => {
    if (!body.trim()) return
    setBusy(true)
    try {
      await postComment(ticket.id, body)
      setBody('')
      setComments(await fetchComments(ticket.id))
    } catch (e) {
      notify('error', describeError(e))
    } finally {
      setBusy(false)
    }
  }

  const fields: [string, ReactNode][] = [
    [i18n._(msg`Serial number`), ticket.serial_num],
    [i18n._(msg`Type`), ticket.type.label],
    [i18n._(msg`State`), <StateBadge key="s" state={ticket.state} />],
    [i18n._(msg`Applicant`), who(ticket.applicant)],
    [i18n._(msg`Organization`), ticket.org_name],
    [i18n._(msg`Date created`), date(ticket.date_created)],
  ]
  if (type === 'apply_asset') {
    fields.push(
      [i18n._(msg`Nodes`), names(ticket.apply_nodes) || '-'], [i18n._(msg`Assets`), names(ticket.apply_assets) || '-'],
      [i18n._(msg`Accounts`), ((ticket.apply_accounts ?? []) as string[]).join(', ')],
      [i18n._(msg`Actions`), ((ticket.apply_actions ?? []) as { label: string }[]).map((a) => a.label).join(', ')],
      [i18n._(msg`Date start`), date(ticket.apply_date_start)], [i18n._(msg`Date expired`), date(ticket.apply_date_expired)],
      [i18n._(msg`Permission name`), String(ticket.apply_permission_name ?? '')],
    )
  } else if (type === 'login_confirm') {
    fields.push([i18n._(msg`Login IP`), String(ticket.apply_login_ip ?? '')], [i18n._(msg`Login date`), date(ticket.apply_login_datetime)])
  } else if (type === 'login_asset_confirm') {
    fields.push([i18n._(msg`User`), who(ticket.apply_login_user)], [i18n._(msg`Asset`), names([ticket.apply_login_asset].filter(Boolean))], [i18n._(msg`Account`), String(ticket.apply_login_account ?? '')])
  } else {
    fields.push([i18n._(msg`User`), who(ticket.apply_run_user)], [i18n._(msg`Asset`), String(ticket.apply_run_asset ?? '')],
      [i18n._(msg`Account`), String(ticket.apply_run_account ?? '')], [i18n._(msg`Command`), <code key="c">{String(ticket.apply_run_command ?? '')}</code>])
  }
  if (ticket.comment) fields.push([i18n._(msg`Comment`), ticket.comment])

  const actions = (
    <div className={styles.row}>
      {canDecide && <Button appearance="primary" disabled={busy} onClick={() => void run('approve')}>{i18n._(msg`Approve`)}</Button>}
      {canDecide && <Button disabled={busy} onClick={() => void run('reject')}>{i18n._(msg`Reject`)}</Button>}
      {canClose && <Button disabled={busy} onClick={() => void run('close')}>{i18n._(msg`Close ticket`)}</Button>}
    </div>
  )
  const stepState = (s: string) => ({ approved: msg`Approved`, rejected: msg`Rejected`, closed: msg`Closed` } as Record<string, ReturnType<typeof msg>>)[s] ?? msg`Pending`

  return (
    <Page title={ticket.title} actions={actions}>
      <div className={styles.grid}>
        <div className={styles.stack}>
          <Card>
            <h2>{i18n._(msg`Basic information`)}</h2>
            <dl className={styles.dl}>
              {fields.map(([k, v]) => [<dt key={`${k}-t`} className={styles.dt}>{k}</dt>, <dd key={`${k}-d`} className={styles.dd}>{v}</dd>])}
            </dl>
          </Card>
          {editable && (
            <Card>
              <h2>{i18n._(msg`Review the request`)}</h2>
              <div className={styles.stack}>
                <Field label={i18n._(msg`Nodes`)}>
                  <RelatedPicker multiple source={{ url: '/api/v1/assets/nodes/suggestions/', label: (r) => String(r.full_value ?? r.name) }} value={edits.nodes}
                    knownLabels={Object.fromEntries(((ticket.apply_nodes ?? []) as { id: string; full_value?: string; name: string }[]).map((n) => [n.id, n.full_value ?? n.name]))}
                    onChange={(v) => setEdits({ ...edits, nodes: (v as string[]) ?? [] })} />
                </Field>
                <Field label={i18n._(msg`Assets`)}>
                  <RelatedPicker multiple source={{ url: '/api/v1/assets/assets/suggestions/' }} value={edits.assets}
                    knownLabels={Object.fromEntries(((ticket.apply_assets ?? []) as { id: string; name: string }[]).map((n) => [n.id, n.name]))}
                    onChange={(v) => setEdits({ ...edits, assets: (v as string[]) ?? [] })} />
                </Field>
                <Field label={i18n._(msg`Accounts`)} hint={i18n._(msg`Comma-separated: usernames, @ALL, @INPUT, @USER`)}>
                  <Input value={edits.accounts} onChange={(_, d) => setEdits({ ...edits, accounts: d.value })} />
                </Field>
                <fieldset className={styles.row}>
                  <legend>{i18n._(msg`Actions`)}</legend>
                  {ACTION_CHOICES.map((a) => (
                    <Checkbox key={a.value} label={i18n._(a.label)} checked={edits.actions.includes(a.value)}
                      onChange={(_, d) => setEdits({ ...edits, actions: d.checked ? [...edits.actions, a.value] : edits.actions.filter((x) => x !== a.value) })} />
                  ))}
                </fieldset>
                <div className={styles.row}>
                  <Field label={i18n._(msg`Date start`)}><Input type="datetime-local" value={edits.start} onChange={(_, d) => setEdits({ ...edits, start: d.value })} /></Field>
                  <Field label={i18n._(msg`Date expired`)}><Input type="datetime-local" value={edits.expired} onChange={(_, d) => setEdits({ ...edits, expired: d.value })} /></Field>
                </div>
              </div>
            </Card>
          )}
        </div>
        <div className={styles.stack}>
          <Card>
            <h2>{i18n._(msg`Process`)}</h2>
            <Timeline label={i18n._(msg`Process`)} entries={ticket.process_map.map((s) => ({
              key: String(s.approval_level),
              title: i18n._(msg`Level ${s.approval_level}: ${i18n._(stepState(s.state))}`),
              time: s.approval_date ? date(s.approval_date) : '',
              dateTime: s.approval_date ?? undefined,
              primary: s.approval_level === ticket.approval_step.value && open,
              content: s.processor_display
                ? i18n._(msg`By ${s.processor_display}`)
                : i18n._(msg`Assignees: ${s.assignees_display.join(', ')}`),
            }))} />
          </Card>
          <Card>
            <h2>{i18n._(msg`Comments`)}</h2>
            <div className={styles.stack}>
              {comments.map((c) => (
                <div key={c.id} className={styles.comment}>
                  <div className={styles.meta}>{c.user_display} · <time dateTime={c.date_created}>{date(c.date_created)}</time></div>
                  <div>{c.body}</div>
                </div>
              ))}
              {open && (isApplicant || isAssignee) && (
                <>
                  <Field label={i18n._(msg`Add a comment`)}><Textarea value={body} onChange={(_, d) => setBody(d.value)} maxLength={4096} /></Field>
                  <div><Button disabled={busy || !body.trim()} onClick={() => void send()}>{i18n._(msg`Send`)}</Button></div>
                </>
              )}
            </div>
          </Card>
        </div>
      </div>
    </Page>
  )
}

export const AssetTicketDetailPage = () => <TicketDetail type="apply_asset" />
export const LoginTicketDetailPage = () => <TicketDetail type="login_confirm" />
export const LoginAssetTicketDetailPage = () => <TicketDetail type="login_asset_confirm" />
export const CommandTicketDetailPage = () => <TicketDetail type="command_confirm" />
/** `/tickets/tickets/:id`: finds the type and moves to its page. */
export const AnyTicketDetailPage = () => <TicketDetail type={undefined} />
