/**
 * The console manifest's pages, by route name: it only assembles. Each feature declares its resources in
 * `src/views/<feature>/entries.ts` (data; derived in src/views/entries.ts) and names its custom page modules in
 * `src/views/<feature>/pages.ts`; a resource page not named there is the generic one. Pages that are not resources
 * (settings categories, task logs, the profile) register by route name in `src/views/<view>/index.ts`.
 * docs/adding-a-resource.md says how to add one.
 *
 * This module is part of the first chunk: it holds lazy imports only, never page code. Nothing but the router
 * (src/router/pages.ts) imports it, so no page is in an import circle with it (scripts/import-cycles.test.ts).
 */
import type { ComponentType } from 'react'
import type { PageKind, PageLoader, PageRegistry, ResourceManifestItem, ResourcePages } from '../router/resources.ts'
import { auditPages } from './audit/index.ts'
import { AUDIT_LOG_PAGES } from './audit/logs/pages.ts'
import { SESSION_PAGES } from './audit/sessions/pages.ts'
import { ACCOUNT_PAGES } from './console/accounts/pages.ts'
import { ACL_PAGES } from './console/acls/pages.ts'
import { ASSET_NET_PAGES } from './console/assets-net/pages.ts'
import { ASSET_PAGES, assetPlainPages } from './console/assets/pages.ts'
import { CLOUD_PAGES, cloudPages } from './console/cloud/pages.ts'
import { USER_GROUP_PAGES } from './console/groups/pages.ts'
import { PERMS_PAGES } from './console/perms/pages.ts'
import { ROLE_PAGES } from './console/roles/pages.ts'
import { USER_ACL_PAGES } from './console/user-acls/pages.ts'
import { USER_PAGES } from './console/users/pages.ts'
import { RESOURCE_MANIFEST, type ResourceKey } from './entries.ts'
import { profilePages } from './profile/index.ts'
import { settingsPages } from './settings/index.ts'
import { APPLET_PAGES } from './settings/applets/pages.ts'
import { ORG_PAGES } from './settings/orgs/pages.ts'
import { TERMINAL_PAGES } from './settings/terminal/pages.ts'
import { workbenchPages } from './workbench/index.ts'
import { ticketsPages } from './tickets/index.ts'

/** The features' custom resource pages by entry key. */
const CUSTOM_PAGES: Partial<Record<ResourceKey, ResourcePages>> = {
  ...USER_PAGES, ...USER_ACL_PAGES, ...USER_GROUP_PAGES, ...ROLE_PAGES, ...ORG_PAGES, ...SESSION_PAGES, ...ACCOUNT_PAGES,
  ...ASSET_PAGES, ...ASSET_NET_PAGES, ...ACL_PAGES, ...TERMINAL_PAGES, ...APPLET_PAGES, ...PERMS_PAGES,
  ...CLOUD_PAGES, ...AUDIT_LOG_PAGES,
}

/** The generic page of a kind, each kind a module of its own (a list's first visit loads no form or detail code). */
function genericPage(item: ResourceManifestItem, kind: PageKind): PageLoader {
  const form = kind === 'create' || kind === 'update'
  const key = `${item.key}|${form ? 'form' : kind}`
  return async () => {
    const known = genericMade.get(key)
    if (known) return known
    const made: ComponentType = await (kind === 'list'
      ? import('./generic/GenericListPage.tsx').then((m) => m.genericListPage(item))
      : kind === 'detail'
        ? import('./generic/GenericDetailPage.tsx').then((m) => m.genericDetailPage(item))
        : import('./generic/GenericFormPage.tsx').then((m) => m.genericFormPage(item)))
    // One component per item and kind, the first made (two loads may overlap): a component made again would
    // remount the page (create and update share it).
    const page = genericMade.get(key) ?? made
    genericMade.set(key, page)
    return page
  }
}
const genericMade = new Map<string, ComponentType>()

const resourcePages: Record<string, PageLoader> = {}
for (const item of RESOURCE_MANIFEST) {
  for (const kind of ['list', 'create', 'update', 'detail'] as const) {
    const route = item.routes[kind]
    if (!route || (kind === 'list' && item.entry.listTab)) continue
    resourcePages[route.name] = CUSTOM_PAGES[item.key as ResourceKey]?.[kind] ?? genericPage(item, kind)
  }
}

/** A custom page for a kind the entry does not offer is a mistake (it would never be shown). */
for (const [key, pages] of Object.entries(CUSTOM_PAGES)) {
  const item = RESOURCE_MANIFEST.find((i) => i.key === key)
  for (const kind of Object.keys(pages ?? {}) as PageKind[]) {
    if (!item?.routes[kind]) throw new Error(`Manifest pages of ${key}: no ${kind} route to show the ${kind} page`)
  }
}

/**
 * Pages by route name: the manifest's resources, then the views' plain page entries (`src/views/<view>/index.ts`,
 * a route name → lazy component map). Routes with no page show the landing placeholder.
 */
export const PAGES: PageRegistry = {
  ...resourcePages,
  ...assetPlainPages,
  ...settingsPages,
  ...profilePages,
  ...auditPages,
  ...workbenchPages,
  ...ticketsPages,
  ...cloudPages,
}
