/** Which account to connect with, when the user's permissions grant several on the asset. */
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, Radio, RadioGroup,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { PermedAccount } from '../api/perms.ts'

export const accountLabel = (a: PermedAccount) => `${a.name}${a.username && a.username !== a.name ? ` (${a.username})` : ''}`

export function AccountDialog({ assetName, accounts, onChoose, onCancel }: {
  assetName: string
  accounts: readonly PermedAccount[]
  onChoose: (account: PermedAccount, inputUsername: string) => void
  onCancel: () => void
}) {
  const { t } = useLingui()
  const [alias, setAlias] = useState(accounts[0]?.alias ?? '')
  const [username, setUsername] = useState('')
  const chosen = accounts.find((a) => a.alias === alias)
  const needsUsername = alias === '@INPUT'
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onCancel()}>
      <DialogSurface aria-describedby={undefined}>
        <form onSubmit={(e) => { e.preventDefault(); if (chosen) onChoose(chosen, username) }}>
          <DialogBody>
            <DialogTitle>{t`Connect to ${assetName}`}</DialogTitle>
            <DialogContent>
              <Field label={t`Account`}>
                <RadioGroup value={alias} onChange={(_, d) => setAlias(d.value)}>
                  {accounts.map((a) => <Radio key={a.alias} value={a.alias} label={accountLabel(a)} />)}
                </RadioGroup>
              </Field>
              {needsUsername && (
                <Field label={t`Username`} required>
                  <Input value={username} onChange={(_, d) => setUsername(d.value)} />
                </Field>
              )}
            </DialogContent>
            <DialogActions>
              <Button onClick={onCancel}>{t`Cancel`}</Button>
              <Button appearance="primary" type="submit" disabled={!chosen || (needsUsername && !username.trim())}>{t`Connect`}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}
