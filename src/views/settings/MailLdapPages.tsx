/**
 * Settings → Email (tabs: the mail server with "Test mail", and the account-created mail's content) and
 * Settings → Authentication → LDAP (the directory with "Test connection", "Test login" and the directory's users
 * imported into an organization). Every form is the generic object form; the tools call src/api/settingsTools.ts.
 */
import {
  Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, Spinner, Tab, TabList,
  Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens,
} from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { settingsCategoryUrl } from '../../api/settings.ts'
import { fetchLdapUsers, importLdapUsers, sendTestMail, testLdapConfig, testLdapLogin, type LdapUser } from '../../api/settingsTools.ts'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { ObjectForm, ObjectFormPage, type ObjectFormPageConfig } from '../../ui/form/ObjectFormPage.tsx'
import { encryptForServer, type ResourceForm } from '../../ui/form/useResourceForm.ts'

const useStyles = makeStyles({
  tabs: { marginBottom: tokens.spacingVerticalM },
  surface: { width: '60vw', maxWidth: '60vw', '@media (max-width: 991px)': { width: '90vw', maxWidth: '90vw' } },
  content: { maxHeight: '65vh', overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
})

/** Runs a tool while its button spins; its answer (or the server's error) is a notice. */
function ToolButton({ label, run }: { label: string; run: () => Promise<string> }) {
  const [busy, setBusy] = useState(false)
  const go = async () => {
    setBusy(true)
    try {
      notify('success', await run())
    } catch (e) {
      notify('error', describeError(e))
    } finally {
      setBusy(false)
    }
  }
  return <Button disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined} onClick={() => void go()}>{label}</Button>
}

function TestMailButton({ form }: { form: ResourceForm }) {
  const { t } = useLingui()
  const str = (k: string) => (typeof form.values[k] === 'string' ? (form.values[k] as string) : '')
  // the server sends through the saved mail server: save first, then test
  return <ToolButton label={t`Test mail`} run={() => sendTestMail({ EMAIL_FROM: str('EMAIL_FROM'), EMAIL_RECIPIENT: str('EMAIL_RECIPIENT') })} />
}

export const emailSettingsConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('email'),
  title: msg`Email`,
  help: msg`Save the mail server, then send a test mail to check it.`,
  changePerm: 'settings.change_email',
  layout: [
    [msg`Mail server`, ['EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER', 'EMAIL_HOST_PASSWORD', 'EMAIL_USE_SSL', 'EMAIL_USE_TLS']],
    [msg`Sending`, ['EMAIL_FROM', 'EMAIL_SUBJECT_PREFIX', 'EMAIL_RECIPIENT']],
  ],
  actions: (form) => <TestMailButton form={form} />,
}

export const emailContentConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('email_content'),
  title: msg`Email content`,
  changePerm: 'settings.change_email',
  layout: [[msg`Account created mail`, ['EMAIL_CUSTOM_USER_CREATED_SUBJECT', 'EMAIL_CUSTOM_USER_CREATED_HONORIFIC', 'EMAIL_CUSTOM_USER_CREATED_BODY', 'EMAIL_CUSTOM_USER_CREATED_SIGNATURE']]],
}

export function EmailSettingsPage() {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const [tab, setTab] = useState<'email' | 'content'>('email')
  const config = tab === 'email' ? emailSettingsConfig : emailContentConfig
  return (
    <Page title={t`Email`} back={false} boxed>
      <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as 'email' | 'content')}>
        <Tab value="email">{i18n._(emailSettingsConfig.title)}</Tab>
        <Tab value="content">{i18n._(emailContentConfig.title)}</Tab>
      </TabList>
      <ObjectForm config={config} />
    </Page>
  )
}

const LDAP_CONFIG_KEYS = ['AUTH_LDAP_SERVER_URI', 'AUTH_LDAP_BIND_DN', 'AUTH_LDAP_BIND_PASSWORD', 'AUTH_LDAP_SEARCH_OU', 'AUTH_LDAP_SEARCH_FILTER',
  'AUTH_LDAP_USER_ATTR_MAP', 'AUTH_LDAP_CONNECT_TIMEOUT', 'AUTH_LDAP_SEARCH_PAGED_SIZE']

/** The form's values as the tester takes them: the map parsed, the typed password encrypted. */
function ldapValues(form: ResourceForm): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of LDAP_CONFIG_KEYS) out[k] = form.values[k]
  const map = out.AUTH_LDAP_USER_ATTR_MAP
  if (typeof map === 'string') {
    try {
      out.AUTH_LDAP_USER_ATTR_MAP = JSON.parse(map)
    } catch {
      // left as typed: the server names the field
    }
  }
  const pw = out.AUTH_LDAP_BIND_PASSWORD
  out.AUTH_LDAP_BIND_PASSWORD = typeof pw === 'string' && pw ? encryptForServer(pw) : ''
  return out
}

function TestLoginDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<{ ok: boolean; text: string }>()
  const test = async () => {
    setBusy(true)
    try {
      setResult({ ok: true, text: await testLdapLogin(username.trim(), encryptForServer(password)) })
    } catch (e) {
      setResult({ ok: false, text: describeError(e) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface>
        <form noValidate onSubmit={(e) => { e.preventDefault(); void test() }}>
          <DialogBody>
            <DialogTitle>{t`Test LDAP login`}</DialogTitle>
            <DialogContent>
              <Text block>{t`Checks a user's password with the saved LDAP settings.`}</Text>
              <Field label={t`Username`} required>
                <Input value={username} autoComplete="off" onChange={(_, d) => setUsername(d.value)} />
              </Field>
              <Field label={t`Password`} required validationState={result ? (result.ok ? 'success' : 'error') : 'none'} validationMessage={result?.text}>
                <Input type="password" value={password} autoComplete="new-password" onChange={(_, d) => setPassword(d.value)} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>{t`Close`}</Button>
              <Button type="submit" appearance="primary" disabled={busy || !username.trim() || !password} icon={busy ? <Spinner size="tiny" /> : undefined}>{t`Test`}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}

function LdapUsersDialog({ orgId, onClose }: { orgId: string; onClose: () => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [users, setUsers] = useState<LdapUser[]>()
  const [error, setError] = useState('')
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const [busy, setBusy] = useState(false)
  const [reload, setReload] = useState(0)
  useEffect(() => {
    const ac = new AbortController()
    setError('')
    fetchLdapUsers(ac.signal).then(setUsers, (e: unknown) => { if (!ac.signal.aborted) setError(describeError(e)) })
    return () => ac.abort()
  }, [reload])
  const importUsers = async (names: string[]) => {
    setBusy(true)
    try {
      notify('success', await importLdapUsers(names, orgId))
      setChosen(new Set())
      setReload((n) => n + 1)
    } catch (e) {
      notify('error', describeError(e))
    } finally {
      setBusy(false)
    }
  }
  const toggle = (name: string, on: boolean) => setChosen((prev) => {
    const next = new Set(prev)
    if (on) next.add(name)
    else next.delete(name)
    return next
  })
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !busy && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{t`LDAP users`}</DialogTitle>
          <DialogContent className={styles.content}>
            <Text>{t`Users are read from the directory with the saved settings and imported into the organization of the settings.`}</Text>
            {error && <Text role="alert">{error}</Text>}
            {!users && !error && <Spinner label={t`Loading…`} />}
            {users && (
              <Table aria-label={t`LDAP users`} size="small">
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell>{t`Select`}</TableHeaderCell>
                    <TableHeaderCell>{t`Username`}</TableHeaderCell>
                    <TableHeaderCell>{t`Name`}</TableHeaderCell>
                    <TableHeaderCell>{t`Email`}</TableHeaderCell>
                    <TableHeaderCell>{t`Imported`}</TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {users.map((u) => (
                    <TableRow key={u.username}>
                      <TableCell>
                        <Checkbox aria-label={t`Select ${u.username}`} checked={chosen.has(u.username)} onChange={(_, d) => toggle(u.username, d.checked === true)} />
                      </TableCell>
                      <TableCell>{u.username}</TableCell>
                      <TableCell>{u.name}</TableCell>
                      <TableCell>{u.email}</TableCell>
                      <TableCell>{u.existing ? t`Yes` : t`No`}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={busy}>{t`Close`}</Button>
            <Button disabled={busy || !users?.length} onClick={() => void importUsers(['*'])}>{t`Import all`}</Button>
            <Button appearance="primary" disabled={busy || !chosen.size} icon={busy ? <Spinner size="tiny" /> : undefined} onClick={() => void importUsers([...chosen])}>
              {t`Import selected`}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}

function LdapTools({ form }: { form: ResourceForm }) {
  const { t } = useLingui()
  const [open, setOpen] = useState<'login' | 'users'>()
  const orgId = typeof form.values.AUTH_LDAP_SYNC_ORG_ID === 'string' ? form.values.AUTH_LDAP_SYNC_ORG_ID : ''
  return (
    <>
      <ToolButton label={t`Test connection`} run={() => testLdapConfig(ldapValues(form))} />
      <Button onClick={() => setOpen('login')}>{t`Test login`}</Button>
      <Button onClick={() => setOpen('users')}>{t`LDAP users`}</Button>
      {open === 'login' && <TestLoginDialog onClose={() => setOpen(undefined)} />}
      {open === 'users' && <LdapUsersDialog orgId={orgId} onClose={() => setOpen(undefined)} />}
    </>
  )
}

export const ldapSettingsConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('ldap'),
  title: msg`LDAP`,
  help: msg`"Test connection" checks the values in the form; "Test login" and "LDAP users" use the saved settings.`,
  changePerm: 'settings.change_auth',
  layout: [
    [msg`LDAP server`, ['AUTH_LDAP_SERVER_URI', 'AUTH_LDAP_BIND_DN', 'AUTH_LDAP_BIND_PASSWORD', 'AUTH_LDAP_CONNECT_TIMEOUT']],
    [msg`Users`, ['AUTH_LDAP_SEARCH_OU', 'AUTH_LDAP_SEARCH_FILTER', 'AUTH_LDAP_USER_ATTR_MAP', 'AUTH_LDAP_SEARCH_PAGED_SIZE', 'AUTH_LDAP_SYNC_ORG_ID']],
    [msg`Periodic import`, ['AUTH_LDAP_SYNC_IS_PERIODIC', 'AUTH_LDAP_SYNC_CRONTAB', 'AUTH_LDAP_SYNC_INTERVAL']],
    [msg`Authentication`, ['AUTH_LDAP']],
  ],
  overrides: {
    AUTH_LDAP_SYNC_ORG_ID: { widget: 'related', related: { url: '/api/v1/orgs/orgs/' } },
    AUTH_LDAP_SYNC_CRONTAB: { hidden: (v) => v.AUTH_LDAP_SYNC_IS_PERIODIC !== true },
    AUTH_LDAP_SYNC_INTERVAL: { hidden: (v) => v.AUTH_LDAP_SYNC_IS_PERIODIC !== true },
  },
  actions: (form) => <LdapTools form={form} />,
}

export const LdapSettingsPage = () => <ObjectFormPage config={ldapSettingsConfig} />
