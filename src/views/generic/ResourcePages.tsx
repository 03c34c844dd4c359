/**
 * The pages of a manifest entry that names no custom page: the generic list (all columns the metadata offers),
 * form (all writable fields) and detail (one information tab). A resource needs its own components only for
 * what is special to it.
 */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react'
import type { ComponentType } from 'react'
import type { PageKind, ResourceManifestItem } from '../../router/resources.ts'
import { Page } from '../../ui/common/Page.tsx'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../ui/detail/InfoCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../ui/form/FormPage.tsx'
import { ListTable } from '../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../ui/list/types.ts'

function Info({ object, fields }: DetailContext) {
  const { i18n } = useLingui()
  return <InfoCard title={i18n._(msg`Basic information`)} items={detailItems(object, fields)} />
}

function listPage(item: ResourceManifestItem): ComponentType {
  const { entry } = item
  const config: ListConfig = { resource: item.resource, label: entry.titles.list, tools: { import: entry.offers?.import !== false, export: entry.offers?.export !== false } }
  return function GenericListPage() {
    const { i18n } = useLingui()
    return (
      <Page title={i18n._(entry.titles.list)} back={false}>
        <ListTable config={config} />
      </Page>
    )
  }
}

function formPage(item: ResourceManifestItem): ComponentType {
  const { titles } = item.entry
  const config: FormPageConfig = { resource: item.resource, title: { create: titles.create ?? titles.list, update: titles.update ?? titles.list } }
  return function GenericResourceFormPage() {
    return <GenericFormPage config={config} />
  }
}

function detailPage(item: ResourceManifestItem): ComponentType {
  const config: DetailConfig = { resource: item.resource, tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> }] }
  return function GenericResourceDetailPage() {
    return <GenericDetailPage config={config} />
  }
}

const made = new Map<string, ComponentType>()

/** The generic page of one kind for a manifest item (one component per item and kind). */
export function genericPage(item: ResourceManifestItem, kind: PageKind): ComponentType {
  const key = `${item.key}|${kind}`
  let page = made.get(key)
  if (!page) {
    page = kind === 'list' ? listPage(item) : kind === 'detail' ? detailPage(item) : formPage(item)
    made.set(key, page)
  }
  return page
}
