/**
 * Settings → Message subscription (receivers picked across every organization: the root organization's lists): every system message by category with its channels (the site message is
 * always on; the others are checkboxes saved at once) and its receivers (users and user groups, edited in a
 * dialog). The server decides delivery from what is saved here (server/notifications).
 */
import {
  Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, MessageBar, MessageBarBody, Spinner,
  Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { Fragment, useCallback, useEffect, useState } from 'react'
import {
  fetchMsgBackends, fetchSubscriptions, updateSubscription, type MsgBackend, type Subscription, type SubscriptionCategory,
} from '../../api/notifications.ts'
import { ROOT_ORG_ID } from '../../api/client.ts'
import { useAccess } from '../../ui/common/access.tsx'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { hasPerm } from '../../ui/common/perms.ts'
import { RelatedPicker } from '../../ui/common/RelatedPicker.tsx'

const CHANGE = 'notifications.change_systemmsgsubscription|settings.change_systemmsgsubscription'

const useStyles = makeStyles({
  category: { fontWeight: tokens.fontWeightSemibold, backgroundColor: tokens.colorNeutralBackground3 },
  receivers: { overflowWrap: 'anywhere' },
  dialog: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
})

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; backends: MsgBackend[]; categories: SubscriptionCategory[] }

export function MessageSubscriptionPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const canChange = hasPerm(access.perms, CHANGE)
  const [state, setState] = useState<State>({ status: 'loading' })
  const [editing, setEditing] = useState<Subscription | null>(null)

  const load = useCallback((signal?: AbortSignal) => {
    Promise.all([fetchMsgBackends(signal), fetchSubscriptions(signal)]).then(
      ([backends, categories]) => setState({ status: 'ok', backends, categories }),
      (e: unknown) => { if (!signal?.aborted) setState({ status: 'error', message: describeError(e) }) },
    )
  }, [])
  useEffect(() => {
    const ac = new AbortController()
    load(ac.signal)
    return () => ac.abort()
  }, [load])

  const replace = (saved: Subscription) => setState((s) => s.status !== 'ok' ? s : {
    ...s, categories: s.categories.map((c) => ({ ...c, children: c.children.map((m) => (m.message_type === saved.message_type ? saved : m)) })),
  })

  const toggle = async (sub: Subscription, backend: string, on: boolean) => {
    const next = on ? [...new Set([...sub.receive_backends, backend])] : sub.receive_backends.filter((b) => b !== backend)
    try {
      replace(await updateSubscription(sub.message_type, { receive_backends: next }))
      notify('success', t`Saved`)
    } catch (e) {
      notify('error', describeError(e))
    }
  }

  return (
    <Page title={t`Message subscription`} back={false} boxed
      help={t`Choose who receives each system message, and through which channels. The site message is always sent.`}>
      {state.status === 'loading' && <Spinner label={t`Loading…`} />}
      {state.status === 'error' && <MessageBar intent="error"><MessageBarBody>{state.message}</MessageBarBody></MessageBar>}
      {state.status === 'ok' && (
        <Table aria-label={t`Message subscription`} size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t`Message type`}</TableHeaderCell>
              {state.backends.map((b) => <TableHeaderCell key={b.name}>{b.name_display}</TableHeaderCell>)}
              <TableHeaderCell>{t`Receivers`}</TableHeaderCell>
              <TableHeaderCell>{t`Actions`}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {state.categories.map((c) => (
              <Fragment key={c.category}>
                <TableRow>
                  <TableCell className={styles.category} colSpan={state.backends.length + 3}>{c.category_label}</TableCell>
                </TableRow>
                {c.children.map((m) => (
                  <TableRow key={m.message_type} data-testid={`msg-${m.message_type}`}>
                    <TableCell>{m.message_type_label}</TableCell>
                    {state.backends.map((b) => (
                      <TableCell key={b.name}>
                        <Checkbox aria-label={`${m.message_type_label}: ${b.name_display}`}
                          checked={b.name === 'site_msg' || m.receive_backends.includes(b.name)}
                          disabled={b.name === 'site_msg' || !canChange}
                          onChange={(_, d) => void toggle(m, b.name, d.checked === true)} />
                      </TableCell>
                    ))}
                    <TableCell className={styles.receivers}>{m.receivers.map((r) => r.name).join(', ') || '-'}</TableCell>
                    <TableCell>
                      <Button size="small" disabled={!canChange} aria-label={`${t`Edit receivers`}: ${m.message_type_label}`} onClick={() => setEditing(m)}>
                        {t`Edit receivers`}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </Fragment>
            ))}
          </TableBody>
        </Table>
      )}
      {editing && <ReceiversDialog sub={editing} onClose={() => setEditing(null)} onSaved={(s) => { replace(s); setEditing(null) }} />}
    </Page>
  )
}

function ReceiversDialog({ sub, onClose, onSaved }: { sub: Subscription; onClose: () => void; onSaved: (s: Subscription) => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [users, setUsers] = useState<string[]>(sub.users)
  const [groups, setGroups] = useState<string[]>(sub.groups)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const known = Object.fromEntries(sub.receivers.map((r) => [r.id, r.name]))
  const save = async () => {
    setBusy(true)
    setError('')
    try {
      onSaved(await updateSubscription(sub.message_type, { users, groups }))
      notify('success', t`Saved`)
    } catch (e) {
      setError(describeError(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog open modalType="modal" onOpenChange={(_, d) => { if (!d.open) onClose() }}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t`Edit receivers`}: {sub.message_type_label}</DialogTitle>
          <DialogContent className={styles.dialog}>
            <Field label={t`Users`}>
              <RelatedPicker multiple source={{ url: `/api/v1/users/users/?oid=${ROOT_ORG_ID}`, label: (r) => `${String(r.name)}(${String(r.username)})` }}
                value={users} knownLabels={known} onChange={(v) => setUsers(Array.isArray(v) ? v.map(String) : [])} />
            </Field>
            <Field label={t`User groups`}>
              <RelatedPicker multiple source={{ url: `/api/v1/users/groups/?oid=${ROOT_ORG_ID}` }} value={groups}
                onChange={(v) => setGroups(Array.isArray(v) ? v.map(String) : [])} />
            </Field>
            {error && <MessageBar intent="error" role="alert"><MessageBarBody>{error}</MessageBarBody></MessageBar>}
            <Text size={200}>{t`Members of the chosen groups receive the message too.`}</Text>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t`Cancel`}</Button>
            <Button appearance="primary" disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined} onClick={() => void save()}>{t`Save`}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
