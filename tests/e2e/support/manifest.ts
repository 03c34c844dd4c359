/**
 * The console manifest (src/views/manifest.ts) as the e2e suites see it: every resource with its list URL, route
 * paths and what the console offers for it. Read from the source itself — the list is never copied here, so a new
 * manifest entry is a new case of the conformance suite.
 */
import { register } from 'node:module'

register('./lingui-macro-loader.mjs', import.meta.url)

export interface ManifestResource {
  key: string
  url: string
  view: string
  routes: { list: { name: string; path: string }; create?: { name: string; path: string }; update?: { name: string; path: string }; detail?: { name: string; path: string } }
  offers: { create: boolean; update: boolean; detail: boolean; delete: boolean; export: boolean; import: boolean }
  perms: Record<string, string>
  licenseRequired: boolean
  parent?: string
}

const manifest = (await import('../../../src/views/manifest.ts')) as { RESOURCE_MANIFEST: readonly ManifestResource[] }

export const RESOURCES: readonly ManifestResource[] = manifest.RESOURCE_MANIFEST.map((item) => ({
  key: item.key, url: item.url, view: item.view, routes: item.routes, offers: item.offers, perms: item.perms,
  licenseRequired: item.licenseRequired, parent: item.parent,
}))
