/**
 * Account automations (push, change secret, gather, backup): the detail pages with "Execute", and their executions'
 * details with per-asset records and the log (a backup execution offers its encrypted archive for download). The
 * lists: AutomationListPage.tsx.
 */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { EyeRegular } from '@fluentui/react-icons'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListCommand } from '../../../ui/list/types.ts'
import { manifestItem } from '../../entries.ts'
import { download, executeCommand, KINDS, openLog, type Kind } from './automationCommands.tsx'
import { useSecretViewer } from './SecretViewer.tsx'

/** The record's new secret, kept because the host may have it unverified (docs/accounts.md): after the user confirmation. */
const KEPT_STATES = ['unknown', 'pending']
const keptState = (row: Record<string, unknown> | undefined) => {
  const state = row?.secret_state as { value?: string } | string | undefined
  return KEPT_STATES.includes(typeof state === 'object' ? String(state?.value ?? '') : String(state ?? ''))
}
function viewKeptSecret(view: (id: string, name: string) => Promise<void>): ListCommand {
  return {
    id: 'viewNewSecret', scope: 'row', label: msg`View new secret`, icon: EyeRegular, order: 4, perms: ['accounts.view_accountsecret'],
    visible: (_env, { row }) => keptState(row),
    run: async ({ row }) => { if (row) await view(String(row.id), `${String(row.username ?? '')}@${String(row.asset_name ?? '')}`) },
  }
}

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
    const viewer = useSecretViewer('pending')
    const config: DetailConfig = {
      resource: item.resource,
      tabs: [
        { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
        {
          id: 'Records', label: msg`Records`,
          render: ({ object }) => (
            <>
            <ListTable config={{
              resource: records.resource, url: `${records.url}?execution=${encodeURIComponent(String(object.id))}`, stateIn: 'local', label: msg`Records`,
              hiddenFilters: ['execution'], defaultOrder: null,
              columns: { min: ['asset_name', 'username'], defaults: ['asset_name', 'username', 'status', 'is_success', 'error', ...(kind.key === KINDS.gather.key ? [] : ['secret_state']), 'date_finished', 'timedelta', 'actions'], exclude: ['asset', 'account', 'execution', 'id'] },
              commands: { overrides: { create: null, bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null }, extra: [viewKeptSecret(viewer.view)] },
              tools: { import: false, export: false },
            }} />
            {viewer.element}
            </>
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
