/**
 * Profile → API keys (`/profile/key`): the user's own access keys (the server lists no one else's), created with a
 * button (after an MFA confirmation when the user has MFA), the secret shown once with a copy button; each key
 * can be turned off and on, or deleted. A script signs its requests with a key (docs/api-auth.md, "API keys").
 */
import { Body1, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody } from '@fluentui/react-components'
import { AddRegular, PauseRegular, PlayRegular } from '@fluentui/react-icons'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { ACCESS_KEYS_URL, createAccessKey, setAccessKeyActive } from '../../api/profile.ts'
import { useUserConfirm } from '../../ui/confirm/useUserConfirm.tsx'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { defineResource } from '../../ui/common/resource.ts'
import { ListTable } from '../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../ui/list/types.ts'
import { CopyField } from './CopyField.tsx'

const keyResource = defineResource({
  url: ACCESS_KEYS_URL,
  routes: { list: { name: 'ApiKey', path: '/profile/key' } },
  typeLabel: msg`API key`,
  defaultOrder: '-date_created',
  // created by the page's own button (no form: the server makes the secret)
  perms: { add: 'authentication.__none__' },
})

const toggle = (active: boolean): NonNullable<NonNullable<ListConfig['commands']>['extra']>[number] => ({
  id: active ? 'enable' : 'disable', scope: 'row', label: active ? msg`Enable` : msg`Disable`, icon: active ? PlayRegular : PauseRegular,
  order: 15, perms: ['@change'],
  visible: (_env, target) => (target.row?.is_active === true) !== active,
  run: async (target, helpers) => {
    try {
      await setAccessKeyActive(String(target.row!.id), active)
      helpers.reload()
    } catch (e) {
      notify('error', describeError(e))
    }
  },
})

const config: ListConfig = {
  resource: keyResource,
  tableName: 'ApiKey',
  label: msg`API keys`,
  tools: { import: false, export: false },
  rowName: (row) => String(row.id ?? ''),
  columns: {
    min: ['id', 'actions'],
    defaults: ['id', 'is_active', 'date_last_used', 'date_created', 'actions'],
    exclude: ['secret', 'date_updated'],
  },
  commands: { extra: [toggle(false), toggle(true)] },
}

export function ApiKeysPage() {
  const { t } = useLingui()
  const { confirm, dialog } = useUserConfirm()
  const [made, setMade] = useState<{ id: string; secret: string } | null>(null)
  const [generation, setGeneration] = useState(0)
  const [busy, setBusy] = useState(false)
  const create = async () => {
    setBusy(true)
    try {
      const outcome = await confirm(`${ACCESS_KEYS_URL}create-check/`)
      if (outcome.status !== 'confirmed') return
      setMade(await createAccessKey())
      setGeneration((g) => g + 1)
    } catch (e) {
      notify('error', describeError(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Page title={t`API keys`} back={false}
      actions={<Button appearance="primary" icon={<AddRegular />} disabled={busy} onClick={() => void create()}><Trans>Create API key</Trans></Button>}>
      <ListTable key={generation} config={config} />
      {dialog}
      {made && (
        <Dialog open modalType="modal" onOpenChange={(_, d) => { if (!d.open) setMade(null) }}>
          <DialogSurface>
            <DialogBody>
              <DialogTitle><Trans>API key created</Trans></DialogTitle>
              <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
                <MessageBar intent="warning"><MessageBarBody><Trans>Copy the secret now: it is not shown again.</Trans></MessageBarBody></MessageBar>
                <CopyField label={t`Access key ID`} value={made.id} />
                <CopyField label={t`Access key secret`} value={made.secret} />
                <Body1><Trans>Sign each request with the HTTP Signature scheme (hmac-sha256 over “(request-target) date”), keyId = the ID.</Trans></Body1>
              </DialogContent>
              <DialogActions><Button appearance="primary" onClick={() => setMade(null)}><Trans>Close</Trans></Button></DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      )}
    </Page>
  )
}
