/** GatewayList: every gateway, with "Test connectivity" (its own module: a first visit loads no form or detail code). */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Page } from '../../../ui/common/Page.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { manifestItem } from '../../entries.ts'
import { gatewayConnectivityCommands } from './connectivity.ts'

const gatewayResource = () => manifestItem('gateways').resource

const gatewayColumns: ListConfig['columns'] = {
  min: ['name', 'actions'],
  defaults: ['name', 'address', 'domain', 'connectivity', 'date_verified', 'is_active', 'actions'],
  exclude: ['nodes_display', 'auto_config', 'gathered_info', 'protocols'],
}

export function gatewayListConfig(domainId?: string): ListConfig {
  return {
    resource: gatewayResource(),
    label: msg`Gateways`,
    columns: gatewayColumns,
    commands: { extra: gatewayConnectivityCommands },
    ...(domainId
      ? { url: `${gatewayResource().url}?domain=${encodeURIComponent(domainId)}`, stateIn: 'local' as const, linkSearch: { domain: domainId }, tableName: 'DomainGatewayList', tools: { import: false } }
      : {}),
  }
}

export function GatewayListPage() {
  const { t } = useLingui()
  return (
    <Page title={t`Gateways`}>
      <ListTable config={gatewayListConfig()} />
    </Page>
  )
}
