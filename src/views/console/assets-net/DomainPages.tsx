/**
 * DomainDetail (basic information, the domain's assets, its gateways with "Test connectivity") and
 * GatewayCreate/Update (opened from a domain, `?domain=` fixes the domain); GatewayList is GatewayListPage.tsx.
 * Domain list and forms and the label pages are generic.
 */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { patchResource, type Row, type RowId } from '../../../api/resources.ts'
import { isRootOrg } from '../../../ui/common/access.tsx'
import { hasPerm } from '../../../ui/common/perms.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { RelationCard } from '../../../ui/detail/RelationCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import { manifestItem } from '../../entries.ts'
import { gatewayListConfig } from './GatewayListPage.tsx'

const domainResource = () => manifestItem('domains').resource
const gatewayResource = () => manifestItem('gateways').resource
const ASSETS_URL = '/api/v1/assets/assets/'

const assetLabel = (r: Row) => (r.address ? `${String(r.name)}(${String(r.address)})` : String(r.name ?? r.id))

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields, ['name', 'assets_amount', 'gateways_amount', 'created_by', 'date_created', 'comment'])} />
}

function Assets({ object, reload, access }: DetailContext) {
  const { t } = useLingui()
  const assets = (Array.isArray(object.assets) ? object.assets : []) as Row[]
  return (
    <RelationCard
      title={t`Assets`}
      source={{ url: ASSETS_URL, label: assetLabel }}
      items={assets.map((a) => ({ id: a.id as RowId, label: assetLabel(a) }))}
      canEdit={hasPerm(access.perms, domainResource().perms.change) && !isRootOrg(access)}
      onSave={async (ids) => {
        await patchResource(domainResource().url, object.id, { assets: ids })
        reload()
      }}
    />
  )
}

function Gateways({ object }: DetailContext) {
  return <ListTable config={gatewayListConfig(String(object.id))} />
}

let detailConfig: DetailConfig | undefined
const domainDetailConfig = (): DetailConfig => (detailConfig ??= {
  resource: domainResource(),
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
    { id: 'Assets', label: msg`Assets`, render: (ctx) => <Assets {...ctx} /> },
    { id: 'GatewayList', label: msg`Gateways`, perms: ['assets.view_gateway'], render: (ctx) => <Gateways {...ctx} /> },
  ],
})

export function DomainDetailPage() {
  return <GenericDetailPage config={domainDetailConfig()} />
}

const fixedDomain = (search: Record<string, unknown>) => (typeof search.domain === 'string' && search.domain ? search.domain : undefined)

let formConfig: FormPageConfig | undefined
const gatewayFormConfig = (): FormPageConfig => (formConfig ??= {
  resource: gatewayResource(),
  title: { create: msg`Create gateway`, update: msg`Update gateway` },
  keepSearch: ['domain'],
  initial: (search) => (fixedDomain(search) ? { domain: fixedDomain(search)! } : {}),
  transform: (payload, values, search) => (fixedDomain(search) && values.domain === undefined ? { ...payload, domain: fixedDomain(search)! } : payload),
})

export function GatewayFormPage() {
  return <GenericFormPage config={gatewayFormConfig()} />
}
