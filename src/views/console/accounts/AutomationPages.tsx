/**
 * Account automations (push, change secret, gather, backup): the detail pages with "Execute", and their executions'
 * details with per-asset records and the log (a backup execution offers its encrypted archive for download). The
 * lists: AutomationListPage.tsx.
 */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import { manifestItem } from '../../entries.ts'
import { download, executeCommand, KINDS, openLog, type Kind } from './automationCommands.tsx'

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields)} />
}

function automationDetails(kind: Kind) {
  function DetailPage() {
    const item = manifestItem(kind.key)
    const config: DetailConfig = {
      resource: item.resource,
      tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> }],
      commands: { extra: [executeCommand(kind)] },
    }
    return <GenericDetailPage config={config} />
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
  return { DetailPage, ExecutionDetailPage }
}

const push = automationDetails(KINDS.push)
const change = automationDetails(KINDS.change)
const gather = automationDetails(KINDS.gather)
const backup = automationDetails(KINDS.backup)
export const PushDetailPage = push.DetailPage
export const PushExecutionDetailPage = push.ExecutionDetailPage
export const ChangeSecretDetailPage = change.DetailPage
export const ChangeSecretExecutionDetailPage = change.ExecutionDetailPage
export const GatherDetailPage = gather.DetailPage
export const GatherExecutionDetailPage = gather.ExecutionDetailPage
export const BackupDetailPage = backup.DetailPage
export const BackupExecutionDetailPage = backup.ExecutionDetailPage
