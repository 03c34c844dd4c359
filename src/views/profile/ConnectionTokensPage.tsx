/**
 * Profile → Connection tokens: the user's own tokens (the server lists no one else's), with "Expire" and "Delete".
 * Values are never listed (only the create answer carries one).
 */
import { TimerOffRegular } from '@fluentui/react-icons'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { CONNECTION_TOKENS_URL, expireConnectionToken } from '../../api/perms.ts'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { defineResource } from '../../ui/common/resource.ts'
import { ListTable } from '../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../ui/list/types.ts'

const tokenResource = defineResource({
  url: CONNECTION_TOKENS_URL,
  routes: { list: { name: 'ConnectionToken', path: '/profile/connection-token' } },
  typeLabel: msg`Connection token`,
  defaultOrder: '-date_created',
  // created from My assets ("Connect"), not from a form
  perms: { add: 'authentication.__none__' },
})

const config: ListConfig = {
  resource: tokenResource,
  tableName: 'ConnectionToken',
  label: msg`Connection tokens`,
  tools: { import: false, export: false },
  rowName: (row) => `${String((row.asset as { name?: string } | null)?.name ?? '')} ${String(row.account ?? '')}`.trim(),
  columns: {
    min: ['asset', 'actions'],
    defaults: ['asset', 'account', 'protocol', 'is_reusable', 'date_expired', 'is_expired', 'date_created', 'actions'],
    exclude: ['value', 'input_username', 'connect_method', 'from_ticket', 'org_id', 'user', 'expire_time'],
  },
  commands: {
    extra: [{
      id: 'expire', scope: 'row', label: msg`Expire`, icon: TimerOffRegular, order: 15, perms: ['@change'],
      visible: (_env, target) => target.row?.is_expired !== true,
      run: async (target, helpers) => {
        try {
          await expireConnectionToken(String(target.row!.id))
          helpers.reload()
        } catch (e) {
          notify('error', describeError(e))
        }
      },
    }],
  },
}

export function ConnectionTokensPage() {
  const { t } = useLingui()
  return (
    <Page title={t`Connection tokens`} back={false}>
      <ListTable config={config} />
    </Page>
  )
}
