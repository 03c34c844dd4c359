/** The detail page of a manifest entry that names none: one information tab. */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react'
import type { ComponentType } from 'react'
import type { ResourceManifestItem } from '../../router/resources.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../ui/detail/InfoCard.tsx'

function Info({ object, fields }: DetailContext) {
  const { i18n } = useLingui()
  return <InfoCard title={i18n._(msg`Basic information`)} items={detailItems(object, fields)} />
}

export function genericDetailPage(item: ResourceManifestItem): ComponentType {
  const config: DetailConfig = { resource: item.resource, tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> }] }
  return function GenericResourceDetailPage() {
    return <GenericDetailPage config={config} />
  }
}
