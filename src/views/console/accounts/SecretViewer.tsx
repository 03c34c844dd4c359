/**
 * Viewing a secret: the user confirmation (machines/confirm through useUserConfirm: MFA, password or re-login as
 * the server asks, within SECURITY_MFA_VERIFY_TTL), then the secret shown once in a dialog with a copy button.
 * Closing the dialog drops it; the server logs every read.
 */
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, Table, TableBody, TableCell, TableHeader,
  TableHeaderCell, TableRow, Textarea,
} from '@fluentui/react-components'
import { CopyRegular, HistoryRegular } from '@fluentui/react-icons'
import { t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { useCallback, useState, type ReactElement } from 'react'
import { readSecret, readSecretHistory, secretHistoryUrl, secretUrl, type RevealedSecret, type SecretKind, type SecretVersion } from '../../../api/accounts.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { useUserConfirm } from '../../../ui/confirm/useUserConfirm.tsx'
import { formatDateTime } from '../../../ui/table/formatters.ts'

export interface SecretViewer {
  view: (id: string, name: string) => Promise<void>
  element: ReactElement
}

export function useSecretViewer(kind: SecretKind): SecretViewer {
  const { confirm, dialog } = useUserConfirm()
  const [shown, setShown] = useState<(RevealedSecret & { name: string }) | null>(null)
  const view = useCallback(async (id: string, name: string) => {
    const outcome = await confirm(secretUrl(kind, id))
    if (outcome.status !== 'confirmed') {
      if (outcome.status === 'failed') notify('error', t`The confirmation failed`)
      return
    }
    try {
      setShown({ ...(await readSecret(kind, id)), name })
    } catch (e) {
      notify('error', t`Could not read the secret`, describeError(e))
    }
  }, [confirm, kind])
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      notify('success', t`Copied`)
    } catch {
      notify('error', t`Could not copy: select the text and copy it yourself`)
    }
  }
  const multiline = !!shown && (shown.secretType === 'ssh_key' || shown.secret.includes('\n'))
  const element = (
    <>
      {dialog}
      {shown && (
        <Dialog open modalType="modal" onOpenChange={(_, d) => { if (!d.open) setShown(null) }}>
          <DialogSurface aria-describedby={undefined}>
            <DialogBody>
              <DialogTitle><Trans>Secret of {shown.name}</Trans></DialogTitle>
              <DialogContent>
                <Field label={t`Username`}><Input readOnly value={shown.username} /></Field>
                <Field label={t`Secret`}>
                  {multiline
                    ? <Textarea readOnly value={shown.secret} rows={8} aria-label={t`Secret`} />
                    : <Input readOnly value={shown.secret} aria-label={t`Secret`} contentAfter={<Button appearance="transparent" size="small" icon={<CopyRegular />} aria-label={t`Copy the secret`} onClick={() => void copy(shown.secret)} />} />}
                </Field>
                {shown.passphrase && <Field label={t`Passphrase`}><Input readOnly value={shown.passphrase} /></Field>}
              </DialogContent>
              <DialogActions>
                {multiline && <Button icon={<CopyRegular />} onClick={() => void copy(shown.secret)}><Trans>Copy</Trans></Button>}
                <Button appearance="primary" onClick={() => setShown(null)}><Trans>Close</Trans></Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      )}
    </>
  )
  return { view, element }
}

/**
 * An account's secret history (its detail tab): nothing is read until the user asks and confirms (the same
 * confirmation as "View secret", on the history URL); the versions are then shown with their secrets until the
 * tab is left. The server logs the read.
 */
export function SecretHistory({ accountId }: { accountId: string }) {
  const { confirm, dialog } = useUserConfirm()
  const [versions, setVersions] = useState<SecretVersion[] | null>(null)
  const [busy, setBusy] = useState(false)
  const show = async () => {
    const outcome = await confirm(secretHistoryUrl(accountId))
    if (outcome.status !== 'confirmed') {
      if (outcome.status === 'failed') notify('error', t`The confirmation failed`)
      return
    }
    setBusy(true)
    try {
      setVersions(await readSecretHistory(accountId))
    } catch (e) {
      notify('error', t`Could not read the secret history`, describeError(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      {dialog}
      {versions === null ? (
        <div>
          <p><Trans>Every secret this account has had is kept, sealed. Showing them asks for your confirmation first and is logged.</Trans></p>
          <Button appearance="primary" icon={<HistoryRegular />} disabled={busy} onClick={() => void show()}><Trans>Show the secret history</Trans></Button>
        </div>
      ) : (
        <Table aria-label={t`Secret history`} size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell><Trans>Version</Trans></TableHeaderCell>
              <TableHeaderCell><Trans>Secret type</Trans></TableHeaderCell>
              <TableHeaderCell><Trans>Secret</Trans></TableHeaderCell>
              <TableHeaderCell><Trans>Created by</Trans></TableHeaderCell>
              <TableHeaderCell><Trans>Date created</Trans></TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {versions.length === 0 && <TableRow><TableCell colSpan={5}><Trans>No secret has been stored yet.</Trans></TableCell></TableRow>}
            {versions.map((v) => (
              <TableRow key={v.id}>
                <TableCell>{v.version}</TableCell>
                <TableCell>{v.secretType}</TableCell>
                <TableCell>
                  {v.secret.includes('\n')
                    ? <Textarea readOnly value={v.secret} rows={3} aria-label={t`Secret of version ${v.version}`} />
                    : <Input readOnly value={v.secret} aria-label={t`Secret of version ${v.version}`} />}
                </TableCell>
                <TableCell>{v.createdBy}</TableCell>
                <TableCell>{v.dateCreated ? formatDateTime(new Date(v.dateCreated)) : ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  )
}
