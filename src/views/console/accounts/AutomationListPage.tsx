/**
 * The account automation lists (push, change secret, gather, backup) and their executions' lists; the gather list
 * page has a second tab with the gathered accounts ("Sync" makes one a managed account). Their own module: a first
 * visit to a list loads no detail code (AutomationPages.tsx).
 */
import { ArrowSyncRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { syncGatheredAccounts } from '../../../api/accounts.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { defineResource } from '../../../ui/common/resource.ts'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import { TabbedListPage, type ListTab } from '../../../ui/list/TabbedListPage.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { manifestItem } from '../../entries.ts'
import { download, executeCommand, KINDS, openLog, type Kind } from './automationCommands.tsx'

function listConfig(kind: Kind): ListConfig {
  return {
    resource: manifestItem(kind.key).resource,
    label: kind.title,
    columns: { min: ['name', 'actions'], defaults: ['name', ...kind.columns, 'actions'] },
    commands: { extra: [executeCommand(kind)] },
    tools: { import: false },
  }
}

function automationLists(kind: Kind) {
  function ListPage() {
    const { i18n } = useLingui()
    return <Page title={i18n._(kind.title)} back={false}><ListTable config={listConfig(kind)} /></Page>
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
  return { ListPage, ExecutionListPage }
}

const push = automationLists(KINDS.push)
const change = automationLists(KINDS.change)
const gather = automationLists(KINDS.gather)
const backup = automationLists(KINDS.backup)
export const PushListPage = push.ListPage
export const PushExecutionListPage = push.ExecutionListPage
export const ChangeSecretListPage = change.ListPage
export const ChangeSecretExecutionListPage = change.ExecutionListPage
export const GatherExecutionListPage = gather.ExecutionListPage
export const BackupListPage = backup.ListPage
export const BackupExecutionListPage = backup.ExecutionListPage

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
