/**
 * The asset pages (lazy imports): one list page with the node tree, one form and one detail page, made per kind
 * (the platforms' pages are the generic ones).
 */
import { lazyPage, type PageRegistry, type PagesOf, type ResourcePages } from '../../../router/resources.ts'
import type { ResourceKey } from '../../entries.ts'
import type { ASSET_ENTRIES } from './entries.ts'

const assetPages = (kind: string, key: ResourceKey): ResourcePages => ({
  list: () => import('./AssetListPage.tsx').then((m) => m.assetListPage(kind)),
  ...(kind === 'all' ? { detail: () => import('./AssetDetailPage.tsx').then((m) => m.AssetDetailPage) } : {
    create: () => import('./AssetFormPage.tsx').then((m) => m.assetFormPage(key)),
    update: () => import('./AssetFormPage.tsx').then((m) => m.assetFormPage(key)),
  }),
})

export const ASSET_PAGES: PagesOf<typeof ASSET_ENTRIES> = {
  assets: assetPages('all', 'assets'),
  hosts: assetPages('host', 'hosts'),
  databases: assetPages('database', 'databases'),
  devices: assetPages('device', 'devices'),
  clouds: assetPages('cloud', 'clouds'),
  webs: assetPages('web', 'webs'),
  customs: assetPages('custom', 'customs'),
}

/** The asset's "more information" page (issue 34), a page of its own below the assets list. */
export const assetPlainPages: PageRegistry = {
  AssetMoreInformationEdit: lazyPage(() => import('./AssetMoreInformationPage.tsx'), 'AssetMoreInformationPage'),
}
