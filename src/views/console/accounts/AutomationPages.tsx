/**
 * Account automations (push, change secret): the generic list, form and detail plus "Execute" (starts an
 * execution and opens its live task log), and their executions with per-asset records and the log.
 */
import { DocumentTextRegular, PlayRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import type { MessageDescriptor } from '@lingui/core'
import { executeAutomation } from '../../../api/accounts.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { manifestItem } from '../../manifest.ts'

const taskLogPath = (id: string) => `/ops/celery/task/${encodeURIComponent(id)}/log`

interface Kind { key: string; executions: string; title: MessageDescriptor; executionsTitle: MessageDescriptor }
const KINDS: Record<'push' | 'change', Kind> = {
  push: { key: 'account-push', executions: 'account-push-executions', title: msg`Account push`, executionsTitle: msg`Account push executions` },
  change: { key: 'account-change-secret', executions: 'account-change-secret-executions', title: msg`Change secret`, executionsTitle: msg`Change secret executions` },
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

const openLog: ListCommand = {
  id: 'log', scope: 'row', label: msg`Log`, icon: DocumentTextRegular, order: 4,
  visible: (_env, { row }) => !!row?.task_id,
  run: ({ row }, h) => { if (row?.task_id) h.openInNewTab(taskLogPath(String(row.task_id))) },
}

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields)} />
}

function automationPages(kind: Kind) {
  function ListPage() {
    const { i18n } = useLingui()
    const item = manifestItem(kind.key)
    const config: ListConfig = {
      resource: item.resource,
      label: kind.title,
      columns: { min: ['name', 'actions'], defaults: ['name', 'assets', 'nodes', 'accounts', 'secret_strategy', 'periodic_display', 'executed_amount', 'is_active', 'actions'] },
      commands: { extra: [executeCommand(kind)] },
      tools: { import: false },
    }
    return <Page title={i18n._(kind.title)} back={false}><ListTable config={config} /></Page>
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
      commands: { extra: [openLog], overrides: { create: null, bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null } },
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
      commands: { extra: [openLog], overrides: { update: null, delete: null, clone: null } },
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
