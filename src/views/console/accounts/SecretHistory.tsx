/** The account detail's Secret history tab (a module of its own: the account lists never load it). */
import { Button, Input, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Textarea } from '@fluentui/react-components'
import { HistoryRegular } from '@fluentui/react-icons'
import { t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { useState } from 'react'
import { readSecretHistory, secretHistoryUrl, type SecretVersion } from '../../../api/accounts.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { useUserConfirm } from '../../../ui/confirm/useUserConfirm.tsx'
import { formatDateTime } from '../../../ui/table/formatters.ts'

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
