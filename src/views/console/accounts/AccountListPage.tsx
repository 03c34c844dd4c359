/** The account and template lists, and the asset detail's Accounts tab (a first visit to a list loads no form or detail code). */
import { useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import type { SecretKind } from '../../../api/accounts.ts'
import { Page } from '../../../ui/common/Page.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { manifestItem } from '../../entries.ts'
import { commandsOf, KINDS, nameOf, rowName } from './accountCommands.tsx'
import { useSecretViewer } from './SecretViewer.tsx'

function listPage(kind: SecretKind) {
  return function AccountListPage() {
    const { i18n } = useLingui()
    const item = manifestItem(KINDS[kind].key)
    const viewer = useSecretViewer(kind)
    const config = useMemo<ListConfig>(() => ({
      resource: item.resource,
      label: KINDS[kind].title,
      rowName: nameOf(kind),
      columns: kind === 'account'
        ? { min: ['name', 'actions'], defaults: ['name', 'username', 'asset', 'secret_type', 'privileged', 'source', 'connectivity', 'date_verified', 'actions'] }
        : { min: ['name', 'actions'], defaults: ['name', 'username', 'secret_type', 'privileged', 'is_active', 'date_created', 'actions'] },
      commands: { extra: commandsOf(kind, viewer.view) },
    }), [item.resource, viewer.view])
    return (
      <Page title={i18n._(KINDS[kind].title)} back={false}>
        <ListTable config={config} />
        {viewer.element}
      </Page>
    )
  }
}

export const AccountListPage = listPage('account')
export const AccountTemplateListPage = listPage('template')

/** The asset detail's Accounts tab: the asset's accounts with the same commands; "Create" starts on this asset. */
export function AssetAccountsTab({ assetId }: { assetId: string }) {
  const item = manifestItem(KINDS.account.key)
  const viewer = useSecretViewer('account')
  const config = useMemo<ListConfig>(() => ({
    resource: item.resource,
    url: `${item.url}?asset=${encodeURIComponent(assetId)}`,
    stateIn: 'local',
    label: KINDS.account.title,
    rowName,
    hiddenFilters: ['asset'],
    linkSearch: { asset: assetId },
    columns: { min: ['name', 'actions'], defaults: ['name', 'username', 'secret_type', 'privileged', 'source', 'connectivity', 'date_verified', 'actions'], exclude: ['asset'] },
    commands: { extra: commandsOf('account', viewer.view) },
    tools: { import: false },
  }), [item.resource, item.url, assetId, viewer.view])
  return (
    <>
      <ListTable config={config} />
      {viewer.element}
    </>
  )
}
