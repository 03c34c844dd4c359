/**
 * Account automations (push, change secret, gather, backup): the generic list, form and detail plus "Execute"
 * (starts an execution and opens its live task log), and their executions with per-asset records and the log. The
 * gather list page has a second tab with the gathered accounts ("Sync" makes one a managed account); a backup
 * execution offers its encrypted archive for download.
 */
import { ArrowDownloadRegular, ArrowSyncRegular, DocumentTextRegular, PlayRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import type { MessageDescriptor } from '@lingui/core'
import { downloadBackup, executeAutomation, syncGatheredAccounts } from '../../../api/accounts.ts'
import { defineResource } from '../../../ui/common/resource.ts'
import { saveBlob } from '../../../ui/export/saveBlob.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import { TabbedListPage, type ListTab } from '../../../ui/list/TabbedListPage.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { manifestItem } from '../../manifest.ts'

const taskLogPath = (id: string) => `/ops/celery/task/${encodeURIComponent(id)}/log`

interface Kind {
  key: string
  executions: string
  title: MessageDescriptor
  executionsTitle: MessageDescriptor
  /** the list's default columns (besides name and actions) */
  columns: readonly string[]
  /** executions keep an encrypted archive to download (backups) */
  archive?: boolean
}
const TARGETS = ['assets', 'nodes', 'accounts']
const SCHEDULE = ['periodic_display', 'executed_amount', 'is_active']
const KINDS: Record<'push' | 'change' | 'gather' | 'backup', Kind> = {
  push: { key: 'account-push', executions: 'account-push-executions', title: msg`Account push`, executionsTitle: msg`Account push executions`, columns: [...TARGETS, 'secret_strategy', ...SCHEDULE] },
  change: { key: 'account-change-secret', executions: 'account-change-secret-executions', title: msg`Change secret`, executionsTitle: msg`Change secret executions`, columns: [...TARGETS, 'secret_strategy', ...SCHEDULE] },
  gather: { key: 'account-gather', executions: 'account-gather-executions', title: msg`Account gathering`, executionsTitle: msg`Account gathering executions`, columns: ['assets', 'nodes', 'is_sync_account', ...SCHEDULE] },
  backup: { key: 'account-backup', executions: 'account-backup-executions', title: msg`Account backup`, executionsTitle: msg`Account backup executions`, columns: ['types', 'recipients', ...SCHEDULE], archive: true },
}

function executeCommand(kind: Kind): ListCommand {
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

const download: ListCommand = {
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

const openLog: ListCommand = {
  id: 'log', scope: 'row', label: msg`Log`, icon: DocumentTextRegular, order: 4,
  visible: (_env, { row }) => !!row?.task_id,
  run: ({ row }, h) => { if (row?.task_id) h.openInNewTab(taskLogPath(String(row.task_id))) },
}

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields)} />
}

function listConfig(kind: Kind): ListConfig {
  return {
    resource: manifestItem(kind.key).resource,
    label: kind.title,
    columns: { min: ['name', 'actions'], defaults: ['name', ...kind.columns, 'actions'] },
    commands: { extra: [executeCommand(kind)] },
    tools: { import: false },
  }
}

function automationPages(kind: Kind) {
  function ListPage() {
    const { i18n } = useLingui()
    return <Page title={i18n._(kind.title)} back={false}><ListTable config={listConfig(kind)} /></Page>
  }
  function DetailPage() {
    const item = manifestItem(kind.key)
    const config: DetailConfig = {
      resource: item.resource,
      tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> }],
      commands: { extra: [executeCommand(kind)] },
    }
    return <GenericDetailPage config={config} />
  }
  function ExecutionListPage() {
    const { i18n } = useLingui()
    const item = manifestItem(kind.executions)
    const config: ListConfig = {
      resource: item.resource,
      label: kind.executionsTitle,
      defaultOrder: null,
      columns: { min: ['automation', 'actions'], defaults: ['automation', 'trigger', 'status', 'date_start', 'timedelta', 'summary', 'actions'], overrides: {
        summary: { sortable: false, render: (row) => { const s = (row.summary ?? {}) as { ok?: number; total?: number; failed?: number }; return s.total === undefined ? '-' : t`${s.ok ?? 0} of ${s.total} done, ${s.failed ?? 0} failed` } },
      } },
      commands: { extra: kind.archive ? [openLog, download] : [openLog], overrides: { create: null, bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null } },
      tools: { import: false },
    }
    return <Page title={i18n._(kind.executionsTitle)}><ListTable config={config} /></Page>
  }
  function ExecutionDetailPage() {
    const item = manifestItem(kind.executions)
    const records = manifestItem('account-automation-records')
    const config: DetailConfig = {
      resource: item.resource,
      tabs: [
        { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
        {
          id: 'Records', label: msg`Records`,
          render: ({ object }) => (
            <ListTable config={{
              resource: records.resource, url: `${records.url}?execution=${encodeURIComponent(String(object.id))}`, stateIn: 'local', label: msg`Records`,
              hiddenFilters: ['execution'], defaultOrder: null,
              columns: { min: ['asset_name', 'username'], defaults: ['asset_name', 'username', 'status', 'is_success', 'error', 'date_finished', 'timedelta'], exclude: ['asset', 'account', 'execution', 'id'] },
              commands: { overrides: { create: null, bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null } },
              tools: { import: false, export: false },
            }} />
          ),
        },
      ],
      commands: { extra: kind.archive ? [openLog, download] : [openLog], overrides: { update: null, delete: null, clone: null } },
    }
    return <GenericDetailPage config={config} />
  }
  return { ListPage, DetailPage, ExecutionListPage, ExecutionDetailPage }
}

const push = automationPages(KINDS.push)
const change = automationPages(KINDS.change)
export const PushListPage = push.ListPage
export const PushDetailPage = push.DetailPage
export const PushExecutionListPage = push.ExecutionListPage
export const PushExecutionDetailPage = push.ExecutionDetailPage
export const ChangeSecretListPage = change.ListPage
export const ChangeSecretDetailPage = change.DetailPage
export const ChangeSecretExecutionListPage = change.ExecutionListPage
export const ChangeSecretExecutionDetailPage = change.ExecutionDetailPage

const gather = automationPages(KINDS.gather)
const backup = automationPages(KINDS.backup)
export const GatherDetailPage = gather.DetailPage
export const GatherExecutionListPage = gather.ExecutionListPage
export const GatherExecutionDetailPage = gather.ExecutionDetailPage
export const BackupListPage = backup.ListPage
export const BackupDetailPage = backup.DetailPage
export const BackupExecutionListPage = backup.ExecutionListPage
export const BackupExecutionDetailPage = backup.ExecutionDetailPage

/** The accounts gathering has found on hosts (JumpServer's gathered accounts); "Sync" adds one as a managed account. */
const gatheredAccounts = defineResource({
  url: '/api/v1/accounts/gathered-accounts/',
  routes: { list: { name: 'AccountGatherList', path: '/console/accounts/account-gather' } },
  perms: { view: 'accounts.view_gatheredaccount', add: 'accounts.add_gatheredaccount', change: 'accounts.change_gatheredaccount', delete: 'accounts.delete_gatheredaccount' },
  typeLabel: msg`Gathered account`,
  defaultOrder: null,
})

const syncCommand: ListCommand = {
  id: 'sync', scope: 'row', label: msg`Sync`, icon: ArrowSyncRegular, order: 4, perms: ['accounts.add_account'],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      await syncGatheredAccounts([String(row.id)])
      notify('success', t`Added to the managed accounts`)
      h.reload()
    } catch (e) {
      notify('error', t`Could not add the account`, describeError(e))
    }
  },
}

const gatheredConfig: ListConfig = {
  resource: gatheredAccounts,
  label: msg`Gathered accounts`,
  tableName: 'GatheredAccountList',
  rowName: (row) => String(row.username ?? ''),
  columns: { min: ['username', 'actions'], defaults: ['asset', 'username', 'uid', 'shell', 'sudo', 'present', 'address_last_login', 'date_last_login', 'date_updated', 'actions'] },
  commands: { extra: [syncCommand], overrides: { create: null, update: null, clone: null, bulkUpdate: null } },
  tools: { import: false },
}

/** AccountGatherList: the gathering tasks and the gathered accounts, one tab each (the tab is remembered like every tab). */
const GATHER_TABS: readonly ListTab[] = [
  { key: 'tasks', label: msg`Gathering tasks`, perm: manifestItem(KINDS.gather.key).resource.perms.view, config: () => listConfig(KINDS.gather) },
  { key: 'gathered', label: msg`Gathered accounts`, perm: gatheredAccounts.perms.view, config: () => gatheredConfig },
]

export function GatherListPage() {
  const { i18n } = useLingui()
  return <TabbedListPage title={i18n._(KINDS.gather.title)} tabs={GATHER_TABS} fallback="tasks" />
}
