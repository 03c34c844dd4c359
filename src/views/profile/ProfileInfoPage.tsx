/**
 * Profile → My profile (`/profile/info`): who the user is (from the profile document), and the actions on their own
 * account: edit name, email and phone; change the password (the security settings' rules; every other session
 * ends); bind the authenticator app (the improvement page's QR flow) or unbind it with a code; set, replace or
 * remove the SSH public key the SSH gateway accepts.
 */
import {
  Body1, Button, Card, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, makeStyles,
  MessageBar, MessageBarBody, Spinner, Subtitle1, Textarea, tokens,
} from '@fluentui/react-components'
import { EditRegular, KeyRegular, LockClosedRegular, PhoneKeyRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useState, type ReactNode } from 'react'
import { useAppActor, useAppSelector } from '../../app/AppProvider.tsx'
import type { AppSnapshot } from '../../app/appMachine.ts'
import { ApiError } from '../../api/client.ts'
import { changePassword, disableOtp, fetchProfileDocument, patchProfile, setPublicKey } from '../../api/profile.ts'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { isSystemAdmin, passwordChecks } from './improvement/model.ts'
import { OtpBinding } from './improvement/OtpBinding.tsx'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 440px), 1fr))', gap: tokens.spacingHorizontalL },
  card: { padding: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  facts: { display: 'grid', gridTemplateColumns: 'minmax(120px, max-content) 1fr', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalS, margin: 0 },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  row: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  status: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  statusTitle: { fontWeight: tokens.fontWeightSemibold },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
})

const selectSettings = (s: AppSnapshot) => s.context.settings
const selectProfile = (s: AppSnapshot) => s.context.profile!

type Doc = Record<string, unknown>
const text = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '-'
  if (Array.isArray(v)) return v.map((x) => text(x)).join(', ') || '-'
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>
    return String(o.display_name ?? o.label ?? o.name ?? o.value ?? '-')
  }
  return String(v)
}

/** A modal form: children, an error, Cancel and a submit button. */
function FormDialog({ title, submit, busy, error, onSubmit, onClose, children }: {
  title: string; submit: string; busy: boolean; error: string; onSubmit: () => void; onClose: () => void; children: ReactNode
}) {
  const { t } = useLingui()
  return (
    <Dialog open modalType="modal" onOpenChange={(_, d) => { if (!d.open) onClose() }}>
      <DialogSurface>
        <form onSubmit={(e) => { e.preventDefault(); onSubmit() }}>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={useStyles().form}>
              {error && <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar>}
              {children}
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>{t`Cancel`}</Button>
              <Button appearance="primary" type="submit" disabled={busy}>{submit}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}

/** Field errors of a 400 (first message per field) and the rest as one text. */
function splitErrors(e: unknown): { fields: Record<string, string>; other: string } {
  if (e instanceof ApiError && e.status === 400 && e.data && typeof e.data === 'object' && !Array.isArray(e.data)) {
    const fields: Record<string, string> = {}
    let other = ''
    for (const [k, v] of Object.entries(e.data as Record<string, unknown>)) {
      const m = Array.isArray(v) ? v.map(String).join(' ') : String(v)
      if (k === 'non_field_errors' || k === 'detail' || k === 'error' || k === 'code') other ||= k === 'code' ? '' : m
      else fields[k] = m
    }
    return { fields, other }
  }
  return { fields: {}, other: describeError(e) }
}

type Open = 'edit' | 'password' | 'bind' | 'unbind' | 'key' | null

export function ProfileInfoPage() {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const app = useAppActor()
  const settings = useAppSelector(selectSettings)
  const profile = useAppSelector(selectProfile)
  const [doc, setDoc] = useState<Doc | null>(null)
  const [loadError, setLoadError] = useState('')
  const [open, setOpen] = useState<Open>(null)
  const [values, setValues] = useState<Record<string, string>>({})
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [formError, setFormError] = useState('')
  const [busy, setBusy] = useState(false)

  const reload = useCallback(async () => {
    try {
      setDoc(await fetchProfileDocument())
    } catch (e) {
      setLoadError(describeError(e))
    }
  }, [])
  useEffect(() => { void reload() }, [reload])

  const show = (which: Open, initial: Record<string, string> = {}) => {
    setValues(initial)
    setErrors({})
    setFormError('')
    setOpen(which)
  }
  const close = () => setOpen(null)
  const set = (k: string) => (_: unknown, d: { value: string }) => setValues((v) => ({ ...v, [k]: d.value }))
  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true)
    setErrors({})
    setFormError('')
    try {
      await work()
      close()
      notify('success', done)
      await reload()
      app.send({ type: 'RELOAD_PROFILE' })
    } catch (e) {
      const { fields, other } = splitErrors(e)
      setErrors(fields)
      setFormError(other)
    } finally {
      setBusy(false)
    }
  }

  if (loadError) return <Page title={t`My profile`} back={false}><MessageBar intent="error"><MessageBarBody>{loadError}</MessageBarBody></MessageBar></Page>
  if (!doc) return <Page title={t`My profile`} back={false}><Spinner label={t`Loading…`} /></Page>

  const bound = doc.is_otp_secret_key_bound === true
  const forced = doc.mfa_force_enabled === true
  const local = text(doc.source && typeof doc.source === 'object' ? (doc.source as { value?: unknown }).value : doc.source) === 'local'
  const keySet = typeof doc.public_key_hash_md5 === 'string' && doc.public_key_hash_md5 !== ''
  const facts: [string, unknown][] = [
    [t`Name`, doc.name], [t`Username`, doc.username], [t`Email`, doc.email], [t`Phone`, doc.phone],
    [t`System roles`, doc.system_roles], [t`Organization roles`, doc.org_roles], [t`User groups`, doc.groups],
    [t`Source`, doc.source], [t`Date joined`, doc.date_joined], [t`Last login`, doc.last_login], [t`Date expired`, doc.date_expired],
  ]
  const checks = passwordChecks(values.new_password ?? '', settings.PASSWORD_RULE, isSystemAdmin(profile))

  return (
    <Page title={t`My profile`} back={false}>
      <div className={styles.grid}>
        <Card className={styles.card}>
          <div className={styles.row}>
            <Subtitle1 as="h2">{t`Account`}</Subtitle1>
            <Button icon={<EditRegular />} onClick={() => show('edit', { name: String(doc.name ?? ''), email: String(doc.email ?? ''), phone: String(doc.phone ?? '') })}>{t`Edit`}</Button>
          </div>
          <dl className={styles.facts}>
            {facts.map(([k, v]) => [<dt key={`t${k}`} className={styles.term}>{k}</dt>, <dd key={`d${k}`} className={styles.value}>{text(v)}</dd>])}
          </dl>
        </Card>
        <Card className={styles.card}>
          <Subtitle1 as="h2">{t`Security`}</Subtitle1>
          <div className={styles.row}>
            <div className={styles.status}><Body1 className={styles.statusTitle}>{t`Password`}</Body1>
              <Body1>{t`Last changed`}: {text(doc.date_password_last_updated)}</Body1></div>
            {local && <Button icon={<LockClosedRegular />} onClick={() => show('password')}>{t`Change password`}</Button>}
          </div>
          <div className={styles.row}>
            <div className={styles.status}><Body1 className={styles.statusTitle}>{t`MFA (authenticator app)`}</Body1>
              <Body1>{bound ? t`Bound` : t`Not bound`}{forced ? ` · ${t`Required`}` : ''}</Body1></div>
            {bound
              ? !forced && <Button icon={<PhoneKeyRegular />} onClick={() => show('unbind')}>{t`Unbind`}</Button>
              : <Button icon={<PhoneKeyRegular />} onClick={() => show('bind')}>{t`Bind`}</Button>}
          </div>
          <div className={styles.row}>
            <div className={styles.status}><Body1 className={styles.statusTitle}>{t`SSH public key`}</Body1>
              <Body1 style={{ overflowWrap: 'anywhere' }}>{keySet ? `${text(doc.public_key_comment)} · MD5 ${String(doc.public_key_hash_md5)}` : t`Not set`}</Body1></div>
            <div className={styles.buttons}>
              <Button icon={<KeyRegular />} onClick={() => show('key', { public_key: '' })}>{keySet ? t`Replace` : t`Set`}</Button>
              {keySet && <Button onClick={() => void run(() => setPublicKey(''), t`SSH public key removed`)}>{t`Remove`}</Button>}
            </div>
          </div>
        </Card>
      </div>

      {open === 'edit' && (
        <FormDialog title={t`Edit my profile`} submit={t`Save`} busy={busy} error={formError} onClose={close}
          onSubmit={() => void run(() => patchProfile({ name: values.name, email: values.email, phone: values.phone }), t`Saved`)}>
          <Field label={t`Name`} required validationMessage={errors.name}><Input value={values.name ?? ''} onChange={set('name')} /></Field>
          <Field label={t`Email`} required validationMessage={errors.email}><Input type="email" value={values.email ?? ''} onChange={set('email')} /></Field>
          <Field label={t`Phone`} validationMessage={errors.phone}><Input type="tel" value={values.phone ?? ''} onChange={set('phone')} /></Field>
        </FormDialog>
      )}
      {open === 'password' && (
        <FormDialog title={t`Change password`} submit={t`Change password`} busy={busy} error={formError} onClose={close}
          onSubmit={() => {
            if ((values.new_password ?? '') !== (values.new_password_again ?? '')) {
              setErrors({ new_password_again: t`The newly set password is inconsistent` })
              return
            }
            void run(() => changePassword({ old_password: values.old_password ?? '', new_password: values.new_password ?? '', new_password_again: values.new_password_again ?? '' }),
              t`Password changed: your other sessions have ended`)
          }}>
          <Field label={t`Current password`} required validationMessage={errors.old_password}>
            <Input type="password" autoComplete="current-password" value={values.old_password ?? ''} onChange={set('old_password')} /></Field>
          <Field label={t`New password`} required validationMessage={errors.new_password}
            hint={checks.map((c) => `${c.ok ? '✓' : '·'} ${i18n._(c.label)}`).join('  ')}>
            <Input type="password" autoComplete="new-password" value={values.new_password ?? ''} onChange={set('new_password')} /></Field>
          <Field label={t`New password again`} required validationMessage={errors.new_password_again}>
            <Input type="password" autoComplete="new-password" value={values.new_password_again ?? ''} onChange={set('new_password_again')} /></Field>
        </FormDialog>
      )}
      {open === 'bind' && (
        <Dialog open modalType="modal" onOpenChange={(_, d) => { if (!d.open) close() }}>
          <DialogSurface>
            <DialogBody>
              <DialogTitle>{t`Bind an authenticator app`}</DialogTitle>
              <DialogContent>
                <OtpBinding bound={false} onBound={() => { close(); notify('success', t`MFA bound`); void reload(); app.send({ type: 'RELOAD_PROFILE' }) }} />
              </DialogContent>
              <DialogActions><Button onClick={close}>{t`Cancel`}</Button></DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      )}
      {open === 'unbind' && (
        <FormDialog title={t`Unbind the authenticator app`} submit={t`Unbind`} busy={busy} error={formError} onClose={close}
          onSubmit={() => void run(() => disableOtp(values.code ?? ''), t`MFA unbound`)}>
          <Field label={t`Code from your authenticator app`} required validationMessage={errors.code}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={values.code ?? ''} onChange={set('code')} /></Field>
        </FormDialog>
      )}
      {open === 'key' && (
        <FormDialog title={keySet ? t`Replace the SSH public key` : t`Set the SSH public key`} submit={t`Save`} busy={busy} error={formError} onClose={close}
          onSubmit={() => void run(() => setPublicKey(values.public_key ?? ''), t`SSH public key saved`)}>
          <Field label={t`SSH public key`} required validationMessage={errors.public_key} hint={t`One OpenSSH public key line, e.g. “ssh-ed25519 AAAA… me@laptop”.`}>
            <Textarea rows={5} value={values.public_key ?? ''} onChange={set('public_key')} /></Field>
        </FormDialog>
      )}
    </Page>
  )
}
