/**
 * "Connect" on a granted asset: choose one of the accounts and protocols the user's permissions grant (with their
 * merged actions), an expiry and whether the token may be used again; the server creates the connection token
 * (and refuses anything not granted). Its value is shown once, with how to use it: the web terminal on it (a new
 * browser tab, `/luna/connect?token=…`) or the `ssh` command of the built-in SSH gateway (the server's answer
 * carries it: the Site URL's host, or the request's, and the gateway's port).
 */
import {
  Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, Option, Spinner,
  Text, makeStyles, tokens,
} from '@fluentui/react-components'
import { CopyRegular, WindowConsoleRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { createConnectionTokenReviewed, grantedAsset, type GrantedAsset } from '../../api/perms.ts'
import { webTerminalUrl } from '../../api/terminal.ts'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { formatMoment } from '../../ui/table/formatters.ts'

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  actions: { color: tokens.colorNeutralForeground3 },
  value: { fontFamily: tokens.fontFamilyMonospace },
})

const EXPIRIES = [300, 3600, 86400, 7 * 86400] as const

export function ConnectDialog({ assetId, onClose }: { assetId: string; onClose: () => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [asset, setAsset] = useState<GrantedAsset | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [account, setAccount] = useState('')
  const [protocol, setProtocol] = useState('')
  const [inputUsername, setInputUsername] = useState('')
  const [expiry, setExpiry] = useState<number>(EXPIRIES[0])
  const [reusable, setReusable] = useState(false)
  const [busy, setBusy] = useState(false)
  const [token, setToken] = useState<{ id: string; value: string; expires: string; ssh: string | undefined; review?: boolean } | undefined>()

  useEffect(() => {
    let live = true
    grantedAsset(assetId).then((a) => {
      if (!live) return
      setAsset(a)
      const connectable = a.permed_accounts.filter((x) => x.actions.some((y) => y.value === 'connect'))
      setAccount(connectable[0]?.alias ?? '')
      setProtocol(a.permed_protocols[0]?.name ?? '')
    }, (e: unknown) => live && setError(describeError(e)))
    return () => { live = false }
  }, [assetId])

  const expiryLabel = (s: number) => (s === 300 ? t`5 minutes` : s === 3600 ? t`1 hour` : s === 86400 ? t`1 day` : t`7 days`)
  const chosen = asset?.permed_accounts.find((a) => a.alias === account)
  const create = async () => {
    setBusy(true)
    try {
      const r = await createConnectionTokenReviewed({
        asset: assetId, account, protocol, is_reusable: reusable,
        date_expired: new Date(Date.now() + expiry * 1000).toISOString(),
        ...(account === '@INPUT' ? { input_username: inputUsername } : {}),
      })
      setToken({ id: String(r.id), value: r.value, expires: String(r.date_expired ?? ''), ssh: r.ssh?.command, review: r.review })
    } catch (e) {
      notify('error', t`Could not create the connection token`, describeError(e))
    } finally {
      setBusy(false)
    }
  }
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      notify('success', t`Copied`)
    } catch {
      notify('error', t`Could not copy`)
    }
  }

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>{asset ? t`Connect to ${asset.name}` : t`Connect`}</DialogTitle>
          <DialogContent>
            {error && <Text role="alert">{error}</Text>}
            {!asset && !error && <Spinner size="small" label={t`Loading…`} />}
            {asset && !token && (
              <div className={styles.form}>
                <Field label={t`Account`} required>
                  <Dropdown
                    value={chosen ? `${chosen.name}${chosen.username && chosen.username !== chosen.name ? ` (${chosen.username})` : ''}` : ''}
                    selectedOptions={account ? [account] : []}
                    onOptionSelect={(_, d) => setAccount(String(d.optionValue ?? ''))}
                  >
                    {asset.permed_accounts.map((a) => (
                      <Option key={a.alias} value={a.alias} text={a.name}>{`${a.name}${a.username && a.username !== a.name ? ` (${a.username})` : ''}`}</Option>
                    ))}
                  </Dropdown>
                </Field>
                {chosen && <Text className={styles.actions} size={200}>{t`Actions`}: {chosen.actions.map((a) => a.label).join(', ')}</Text>}
                {account === '@INPUT' && (
                  <Field label={t`Username`} required>
                    <Input value={inputUsername} onChange={(_, d) => setInputUsername(d.value)} />
                  </Field>
                )}
                <Field label={t`Protocol`} required>
                  <Dropdown value={protocol} selectedOptions={protocol ? [protocol] : []} onOptionSelect={(_, d) => setProtocol(String(d.optionValue ?? ''))}>
                    {asset.permed_protocols.map((p) => <Option key={p.name} value={p.name}>{p.name}</Option>)}
                  </Dropdown>
                </Field>
                <Field label={t`Expires in`}>
                  <Dropdown value={expiryLabel(expiry)} selectedOptions={[String(expiry)]} onOptionSelect={(_, d) => setExpiry(Number(d.optionValue))}>
                    {EXPIRIES.map((s) => <Option key={s} value={String(s)}>{expiryLabel(s)}</Option>)}
                  </Dropdown>
                </Field>
                <Checkbox label={t`Reusable (may be used more than once until it expires)`} checked={reusable} onChange={(_, d) => setReusable(!!d.checked)} />
              </div>
            )}
            {token && (
              <div className={styles.form}>
                {token.review && <Text role="status" weight="semibold" data-token-review="">{t`This login needs a reviewer's approval: a ticket was opened. The web terminal waits for the approval; the token works elsewhere once it is approved.`}</Text>}
                <Text>{t`The connection token is shown only now. A terminal component (the web terminal, or an SSH client through the SSH gateway) accepts it in place of the account's password:`}</Text>
                <Field label={t`Connection token`}>
                  <Input readOnly value={token.value} className={styles.value} data-token-value
                    contentAfter={<Button appearance="transparent" size="small" icon={<CopyRegular />} aria-label={t`Copy`} onClick={() => void copy(token.value)} />} />
                </Field>
                {protocol === 'ssh' && (
                  <Button appearance="primary" icon={<WindowConsoleRegular />} onClick={() => window.open(webTerminalUrl(token.id), '_blank', 'noopener')}>
                    {t`Open in the web terminal`}
                  </Button>
                )}
                {protocol === 'ssh' && (token.ssh ? (
                  <Field label={t`SSH command`} hint={t`Give the connection token as the password.`}>
                    <Input readOnly className={styles.value} value={token.ssh} data-ssh-command
                      contentAfter={<Button appearance="transparent" size="small" icon={<CopyRegular />} aria-label={t`Copy the SSH command`}
                        onClick={() => void copy(token.ssh!)} />} />
                  </Field>
                ) : <Text size={200}>{t`The SSH gateway of this server is turned off.`}</Text>)}
                <Text size={200}>{t`Expires: ${formatMoment(token.expires)}`}</Text>
              </div>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{token ? t`Close` : t`Cancel`}</Button>
            {asset && !token && (
              <Button appearance="primary" disabled={busy || !account || !protocol || (account === '@INPUT' && !inputUsername)} onClick={() => void create()}>
                {t`Create connection token`}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
