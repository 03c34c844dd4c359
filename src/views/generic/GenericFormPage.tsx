/** The create/update page of a manifest entry that names none: the generic form (all writable fields). */
import type { ComponentType } from 'react'
import type { ResourceManifestItem } from '../../router/resources.ts'
import { GenericFormPage, type FormPageConfig } from '../../ui/form/FormPage.tsx'

export function genericFormPage(item: ResourceManifestItem): ComponentType {
  const { titles } = item.entry
  const config: FormPageConfig = { resource: item.resource, title: { create: titles.create ?? titles.list, update: titles.update ?? titles.list } }
  return function GenericResourceFormPage() {
    return <GenericFormPage config={config} />
  }
}
