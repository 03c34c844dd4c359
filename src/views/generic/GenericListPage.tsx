/**
 * The list page of a manifest entry that names none: the generic list (all columns the metadata offers). Its own
 * module, apart from the generic form and detail, so a first visit to a list loads no form or detail code.
 */
import { useLingui } from '@lingui/react'
import type { ComponentType } from 'react'
import type { ResourceManifestItem } from '../../router/resources.ts'
import { Page } from '../../ui/common/Page.tsx'
import { ListTable } from '../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../ui/list/types.ts'

export function genericListPage(item: ResourceManifestItem): ComponentType {
  const { entry } = item
  const list = entry.list
  const config: ListConfig = {
    resource: item.resource, label: entry.titles.list, tools: { import: entry.offers?.import !== false, export: entry.offers?.export !== false },
    columns: list && {
      defaults: list.defaults, exclude: list.exclude, priority: list.priority,
      overrides: Object.fromEntries([
        ...Object.entries(list.labels ?? {}).map(([id, label]) => [id, { label }] as const),
        ...(list.link ? [[list.link, { ...(list.labels?.[list.link] && { label: list.labels[list.link] }), formatter: 'detailLink' as const }] as const] : []),
      ]),
    },
  }
  return function GenericListPage() {
    const { i18n } = useLingui()
    return (
      <Page title={i18n._(entry.titles.list)} back={false}>
        <ListTable config={config} />
      </Page>
    )
  }
}
