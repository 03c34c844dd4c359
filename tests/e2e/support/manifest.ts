/**
 * The console manifest (src/views/manifest.ts) as the e2e suites see it: every resource with its list URL, route
 * paths and what the console offers for it. Read from the source itself — the list is never copied here, so a new
 * manifest entry is a new case of the conformance suite.
 */
import { register } from 'node:module'
import type { ResourceManifestItem } from '../../../src/router/resources.ts'

register('./lingui-macro-loader.mjs', import.meta.url)

/** What the suites use of a manifest item (plain data: no page loaders, no message descriptors). */
export type ManifestResource = Pick<ResourceManifestItem, 'key' | 'url' | 'view' | 'routes' | 'offers' | 'perms' | 'licenseRequired' | 'parent'>

const { RESOURCE_MANIFEST } = await import('../../../src/views/entries.ts')

export const RESOURCES: readonly ManifestResource[] = RESOURCE_MANIFEST.map((item) => ({
  key: item.key, url: item.url, view: item.view, routes: item.routes, offers: item.offers, perms: item.perms,
  licenseRequired: item.licenseRequired, parent: item.parent,
}))

/** A route of the console that has a page (src/views/manifest.ts `PAGES`), as the walks over every page see it. */
export interface PageRoute {
  name: string
  path: string
  view: string | null
  licenseRequired: boolean
}

const { ROUTES } = await import('../../../src/router/catalog.ts')
const { PAGES } = await import('../../../src/views/manifest.ts')

/** Every route with a page, in the route catalogue's order (paths with `:id` need an object). */
export const PAGE_ROUTES: readonly PageRoute[] = ROUTES.filter((r) => r.kind === 'page' && r.name in PAGES)
  .map((r) => ({ name: r.name, path: r.path, view: r.view, licenseRequired: r.licenseRequired === true }))
