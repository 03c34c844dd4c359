/**
 * The accounts' and templates' own commands: "View secret" (after the user confirmation) on rows and details, and
 * for accounts "Verify" (log in with the stored secret; opens the task log).
 */
import { CheckmarkStarburstRegular, EyeRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { accountTask, type SecretKind } from '../../../api/accounts.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import type { ListCommand } from '../../../ui/list/types.ts'
import { taskLogPath } from '../../../router/routes/common.ts'

export const KINDS = {
  account: { key: 'accounts', secretPerm: 'accounts.view_accountsecret', title: msg`Accounts` },
  template: { key: 'account-templates', secretPerm: 'accounts.view_accounttemplatesecret', title: msg`Account templates` },
} as const

export const rowName = (row: Record<string, unknown>) => `${String(row.name ?? '')}${row.username && row.username !== row.name ? ` (${String(row.username)})` : ''}`
/** A template's name is unique in its organization: it alone names it (the detail heading "…: <name>", as lina). */
const templateName = (row: Record<string, unknown>) => String(row.name ?? '')
export const nameOf = (kind: SecretKind) => (kind === 'account' ? rowName : templateName)

function viewSecretCommand(kind: SecretKind, view: (id: string, name: string) => Promise<void>): ListCommand {
  return {
    id: 'viewSecret', scope: 'row', label: msg`View secret`, icon: EyeRegular, order: 4, perms: [KINDS[kind].secretPerm],
    run: async ({ row }) => { if (row) await view(String(row.id), nameOf(kind)(row)) },
  }
}

const verifyCommand: ListCommand = {
  id: 'verify', scope: 'row', label: msg`Verify`, icon: CheckmarkStarburstRegular, order: 6, perms: ['accounts.verify_account'],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      const task = await accountTask('verify', [String(row.id)])
      notify('success', t`Verification started`)
      h.openInNewTab(taskLogPath(task))
    } catch (e) {
      notify('error', t`Could not start the verification`, describeError(e))
    }
  },
}

export function commandsOf(kind: SecretKind, view: (id: string, name: string) => Promise<void>): ListCommand[] {
  return kind === 'account' ? [viewSecretCommand(kind, view), verifyCommand] : [viewSecretCommand(kind, view)]
}
