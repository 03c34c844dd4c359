/** HostCreate/Update, DatabaseCreate/Update…: the kind's form from its OPTIONS, opened with `?platform=` (and `?node_id=`). */
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import type { FormValues } from '../../../ui/form/validators.ts'
import { manifestItem, type ResourceKey } from '../../entries.ts'

export function assetFormConfig(key: ResourceKey): FormPageConfig {
  const item = manifestItem(key)
  return {
    resource: { ...item.resource, routes: { ...item.resource.routes, detail: manifestItem('assets').routes.detail } },
    title: { create: item.entry.titles.create!, update: item.entry.titles.update! },
    layout: '__all__',
    initial: (search) => {
      const out: FormValues = {}
      const platform = Number(search.platform)
      if (Number.isInteger(platform) && platform > 0) out.platform = platform
      if (typeof search.node_id === 'string') out.nodes = [search.node_id]
      return out
    },
    // No protocols given: the server takes the platform's defaults (required and default ones).
    transform: (payload) => {
      if (Array.isArray(payload.protocols) && payload.protocols.length === 0) {
        const { protocols: _omit, ...rest } = payload
        return rest
      }
      return payload
    },
    keepSearch: ['node_id'],
  }
}

export function assetFormPage(key: ResourceKey) {
  const config = assetFormConfig(key)
  return function AssetFormPage() {
    return <GenericFormPage config={config} />
  }
}
