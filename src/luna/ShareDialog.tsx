/**
 * Share the session of the current tab (the permission's `share` action): read-only or writable, for some users or
 * anyone with the link and the code, for a while (luna's choices of minutes). The answer is the link
 * (`/luna/share/<id>/`) and its verify code, to copy; below, who is in the session now, each removable.
 */
import {
  Button, Combobox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, makeStyles, MessageBar,
  MessageBarBody, Option, Radio, RadioGroup, Select, tokens,
} from '@fluentui/react-components'
import { CopyRegular, DismissRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import {
  createSessionShare, removeParticipant, sessionParticipants, userSuggestions, type SessionParticipant, type SessionShare, type UserSuggestion,
} from '../api/terminal.ts'
import { describeError } from '../ui/common/errors.ts'

const MINUTES = [1, 5, 10, 20, 60]

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'end' },
  grow: { flexGrow: 1 },
  list: { margin: 0, padding: 0, listStyle: 'none', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  item: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
})

export function ShareDialog({ sessionId, participants, onParticipants, onClose }: {
  sessionId: string
  /** who is in the session (the owner's socket tells when it changes) */
  participants: readonly SessionParticipant[] | undefined
  onParticipants: (list: SessionParticipant[]) => void
  onClose: () => void
}) {
  const { t } = useLingui()
  const styles = useStyles()
  const [mode, setMode] = useState<'readonly' | 'writable'>('writable')
  const [minutes, setMinutes] = useState(10)
  const [search, setSearch] = useState('')
  const [options, setOptions] = useState<UserSuggestion[]>([])
  const [users, setUsers] = useState<UserSuggestion[]>([])
  const [share, setShare] = useState<SessionShare>()
  const [problem, setProblem] = useState<string>()
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let gone = false
    sessionParticipants(sessionId).then((list) => !gone && onParticipants(list), () => undefined)
    return () => { gone = true }
  }, [sessionId, onParticipants])

  useEffect(() => {
    let gone = false
    const timer = setTimeout(() => {
      userSuggestions(search).then((list) => !gone && setOptions(list), () => !gone && setOptions([]))
    }, 200)
    return () => { gone = true; clearTimeout(timer) }
  }, [search])

  const create = async () => {
    setBusy(true)
    setProblem(undefined)
    try {
      setShare(await createSessionShare(sessionId, { users: users.map((u) => u.id), expired_time: minutes, action_permission: mode }))
    } catch (e) {
      setProblem(describeError(e))
    } finally {
      setBusy(false)
    }
  }

  const link = share ? `${window.location.origin}${share.url}` : ''
  const copy = (text: string) => void navigator.clipboard.writeText(text).catch(() => setProblem(t`Could not copy`))
  const remove = async (p: SessionParticipant) => {
    try {
      await removeParticipant(sessionId, p.id)
      onParticipants((participants ?? []).filter((x) => x.id !== p.id))
    } catch (e) {
      setProblem(describeError(e))
    }
  }
  const label = (u: UserSuggestion) => `${u.name}(${u.username})`

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-describedby={undefined}>
        <form onSubmit={(e) => { e.preventDefault(); if (!share) void create() }}>
          <DialogBody>
            <DialogTitle>{t`Share the session`}</DialogTitle>
            <DialogContent className={styles.content}>
              {problem && <MessageBar intent="error"><MessageBarBody role="alert">{problem}</MessageBarBody></MessageBar>}
              {!share ? (
                <>
                  <Field label={t`Permission`}>
                    <RadioGroup value={mode} onChange={(_, d) => setMode(d.value === 'readonly' ? 'readonly' : 'writable')} layout="horizontal">
                      <Radio value="writable" label={t`Writable`} />
                      <Radio value="readonly" label={t`Read-only`} />
                    </RadioGroup>
                  </Field>
                  <Field label={t`Users`} hint={t`Nobody chosen: anyone signed in with the link and the code.`}>
                    <Combobox multiselect freeform placeholder={t`Search users`} value={search} selectedOptions={users.map((u) => u.id)}
                      onChange={(e) => setSearch(e.target.value)}
                      onOptionSelect={(_, d) => {
                        const chosen = new Set(d.selectedOptions)
                        const known = new Map([...users, ...options].map((u) => [u.id, u]))
                        setUsers([...chosen].map((id) => known.get(id)).filter((u): u is UserSuggestion => !!u))
                        setSearch('')
                      }}>
                      {options.map((u) => <Option key={u.id} value={u.id} text={label(u)}>{label(u)}</Option>)}
                    </Combobox>
                  </Field>
                  {users.length > 0 && <div aria-live="polite">{t`Shared with: ${users.map(label).join(', ')}`}</div>}
                  <Field label={t`Expires after`}>
                    <Select value={String(minutes)} onChange={(_, d) => setMinutes(Number(d.value))}>
                      {MINUTES.map((m) => <option key={m} value={m}>{t`${m} min`}</option>)}
                    </Select>
                  </Field>
                </>
              ) : (
                <>
                  <div className={styles.row}>
                    <Field label={t`Link`} className={styles.grow}><Input readOnly value={link} data-share-link="" /></Field>
                    <Button icon={<CopyRegular />} aria-label={t`Copy the link`} onClick={() => copy(link)} />
                  </div>
                  <div className={styles.row}>
                    <Field label={t`Verify code`} className={styles.grow}><Input readOnly value={share.verify_code} data-share-code="" /></Field>
                    <Button icon={<CopyRegular />} aria-label={t`Copy the verify code`} onClick={() => copy(share.verify_code)} />
                  </div>
                </>
              )}
              <section aria-label={t`In the session`}>
                <strong>{t`In the session`}</strong>
                {participants && participants.length > 0 ? (
                  <ul className={styles.list}>
                    {participants.map((p) => (
                      <li key={p.id} className={styles.item}>
                        <span className={styles.grow}>{p.user} · {p.action_permission === 'writable' ? t`Writable` : t`Read-only`} · {p.remote_addr}</span>
                        <Button size="small" icon={<DismissRegular />} onClick={() => void remove(p)}>{t`Remove ${p.user}`}</Button>
                      </li>
                    ))}
                  </ul>
                ) : <div>{t`Nobody has joined.`}</div>}
              </section>
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>{t`Close`}</Button>
              {!share && <Button appearance="primary" type="submit" disabled={busy}>{t`Create the link`}</Button>}
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}
