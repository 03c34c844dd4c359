/** What the account automation pages share: the kinds, "Execute" (starts an execution and opens its live task log),
 * a backup execution's archive download and an execution's log. */
import { ArrowDownloadRegular, DocumentTextRegular, PlayRegular } from '@fluentui/react-icons'
import type { MessageDescriptor } from '@lingui/core'
import { msg, t } from '@lingui/core/macro'
import { downloadBackup, executeAutomation } from '../../../api/accounts.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { saveBlob } from '../../../ui/export/saveBlob.ts'
import type { ListCommand } from '../../../ui/list/types.ts'
import { manifestItem, type ResourceKey } from '../../entries.ts'
import { taskLogPath } from '../../../router/routes/common.ts'

export interface Kind {
  key: ResourceKey
  executions: ResourceKey
  title: MessageDescriptor
  executionsTitle: MessageDescriptor
  /** the list's default columns (besides name and actions) */
  columns: readonly string[]
  /** executions keep an encrypted archive to download (backups) */
  archive?: boolean
}
const TARGETS = ['assets', 'nodes', 'accounts']
const SCHEDULE = ['periodic_display', 'executed_amount', 'is_active']
export const KINDS: Record<'push' | 'change' | 'gather' | 'backup', Kind> = {
  push: { key: 'account-push', executions: 'account-push-executions', title: msg`Account push`, executionsTitle: msg`Account push executions`, columns: [...TARGETS, 'secret_strategy', ...SCHEDULE] },
  change: { key: 'account-change-secret', executions: 'account-change-secret-executions', title: msg`Change secret`, executionsTitle: msg`Change secret executions`, columns: [...TARGETS, 'secret_strategy', ...SCHEDULE] },
  gather: { key: 'account-gather', executions: 'account-gather-executions', title: msg`Account gathering`, executionsTitle: msg`Account gathering executions`, columns: ['assets', 'nodes', 'is_sync_account', ...SCHEDULE] },
  backup: { key: 'account-backup', executions: 'account-backup-executions', title: msg`Account backup`, executionsTitle: msg`Account backup executions`, columns: ['types', 'recipients', ...SCHEDULE], archive: true },
}

export function executeCommand(kind: Kind): ListCommand {
  return {
    id: 'execute', scope: 'row', label: msg`Execute`, icon: PlayRegular, order: 4, perms: ['accounts.add_automationexecution'],
    run: async ({ row }, h) => {
      if (!row) return
      try {
        const task = await executeAutomation(manifestItem(kind.executions).url, String(row.id))
        notify('success', t`Execution started`)
        h.openInNewTab(taskLogPath(task))
        h.reload()
      } catch (e) {
        notify('error', t`Could not start the execution`, describeError(e))
      }
    },
  }
}

export const download: ListCommand = {
  id: 'download', scope: 'row', label: msg`Download the archive`, icon: ArrowDownloadRegular, order: 5, perms: ['accounts.view_accountsecret'],
  visible: (_env, { row }) => !!row?.has_artifact,
  run: async ({ row }) => {
    if (!row) return
    try {
      const file = await downloadBackup(String(row.id))
      saveBlob(file.blob, file.filename)
    } catch (e) {
      notify('error', t`Could not download the archive`, describeError(e))
    }
  },
}

export const openLog: ListCommand = {
  id: 'log', scope: 'row', label: msg`Log`, icon: DocumentTextRegular, order: 4,
  visible: (_env, { row }) => !!row?.task_id,
  run: ({ row }, h) => { if (row?.task_id) h.openInNewTab(taskLogPath(String(row.task_id))) },
}
