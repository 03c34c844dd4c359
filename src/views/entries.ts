/**
 * The console manifest's resources: every feature's entries (`src/views/<feature>/entries.ts`, data only), each
 * derived once (routes, permissions, offers, related-field sources). Pages take their item from here by a typed
 * key (`manifestItem('users')`); the router reads routes from here. It imports no page: the pages are assembled
 * in src/views/manifest.ts, so a page importing this module closes no import circle (scripts/import-cycles.ts).
 *
 * Part of the first chunk: data only.
 */
import { deriveResource, type ModelSource, type PageKind, type ResourceManifestItem } from '../router/resources.ts'
import type { RelatedRef } from '../ui/common/resource.ts'
import { AUDIT_LOG_ENTRIES } from './audit/logs/entries.ts'
import { SESSION_ENTRIES } from './audit/sessions/entries.ts'
import { ACCOUNT_ENTRIES } from './console/accounts/entries.ts'
import { ACL_ENTRIES } from './console/acls/entries.ts'
import { ASSET_NET_ENTRIES } from './console/assets-net/entries.ts'
import { ASSET_ENTRIES } from './console/assets/entries.ts'
import { CLOUD_ENTRIES } from './console/cloud/entries.ts'
import { USER_GROUP_ENTRIES } from './console/groups/entries.ts'
import { PERMS_ENTRIES } from './console/perms/entries.ts'
import { ROLE_ENTRIES } from './console/roles/entries.ts'
import { USER_ACL_ENTRIES } from './console/user-acls/entries.ts'
import { USER_ENTRIES } from './console/users/entries.ts'
import { APPLET_ENTRIES } from './settings/applets/entries.ts'
import { ORG_ENTRIES } from './settings/orgs/entries.ts'
import { TERMINAL_ENTRIES } from './settings/terminal/entries.ts'

/** Every entry, in menu-independent order (the route files place them: src/router/routes). */
export const RESOURCE_ENTRIES = [
  ...USER_ENTRIES, ...USER_ACL_ENTRIES, ...USER_GROUP_ENTRIES, ...ROLE_ENTRIES, ...ORG_ENTRIES, ...SESSION_ENTRIES,
  ...AUDIT_LOG_ENTRIES, ...ACCOUNT_ENTRIES, ...ASSET_ENTRIES, ...ASSET_NET_ENTRIES, ...ACL_ENTRIES, ...TERMINAL_ENTRIES,
  ...APPLET_ENTRIES, ...PERMS_ENTRIES, ...CLOUD_ENTRIES,
] as const

/** The key of a declared resource (`'users'`, `'asset-acls'`, …). */
export type ResourceKey = (typeof RESOURCE_ENTRIES)[number]['key']

/**
 * Models with a list URL but no entry of their own (JumpServer's proxy models of roles). Each entry's model is
 * added to this table from its URL, so a new resource needs no line here.
 */
const EXTRA_MODELS: Readonly<Record<string, ModelSource>> = {
  'rbac.systemrole': { url: '/api/v1/rbac/system-roles/', label: 'display_name' },
  'rbac.orgrole': { url: '/api/v1/rbac/org-roles/', label: 'display_name' },
  'assets.node': { url: '/api/v1/assets/nodes/', label: 'full_value' },
}

/** Target model → picker source, for servers whose OPTIONS carry no `related` hint (a real JumpServer). */
export const RELATED_MODELS: Readonly<Record<string, ModelSource>> = {
  ...Object.fromEntries(RESOURCE_ENTRIES.map((e) => [e.model, { url: e.url, ...(e.label ? { label: e.label } : {}) }])),
  ...EXTRA_MODELS,
}

/** Thrown at start-up (and so in every test) when an entry names a related model the console has no list for. */
export function relatedSourceOf(field: string, model: string): RelatedRef {
  const source = RELATED_MODELS[model]
  if (!source) throw new Error(`Related field ${field}: no list URL known for model ${model} (add it to the manifest)`)
  return { ...source, model }
}

/** Every resource of the console with its derived routes, permissions and offers (tests iterate this). */
export const RESOURCE_MANIFEST: readonly ResourceManifestItem[] = RESOURCE_ENTRIES.map((e) => deriveResource(e, relatedSourceOf))

const byKey = new Map(RESOURCE_MANIFEST.map((i) => [i.key, i]))
if (byKey.size !== RESOURCE_MANIFEST.length) throw new Error('Two manifest entries share a key')

/** The manifest item of a declared key. */
export function manifestItem(key: ResourceKey): ResourceManifestItem {
  // Only a key the type allows gets here; the check is for a key made at run time.
  const item = byKey.get(key)
  if (!item) throw new Error(`No manifest entry ${key}`)
  return item
}

/** Route name → manifest item and page kind (every route's loader asks, when the router is built). */
const byRouteName = new Map<string, { item: ResourceManifestItem; kind: PageKind }>()
for (const item of RESOURCE_MANIFEST) {
  for (const kind of ['list', 'create', 'update', 'detail'] as const) {
    // A list shown as a tab belongs to its host page (which starts its own reads).
    if (kind === 'list' && item.entry.listTab) continue
    const name = item.routes[kind]?.name
    if (name && !byRouteName.has(name)) byRouteName.set(name, { item, kind })
  }
}

/** The manifest item and page kind of a route name. */
export function manifestRoute(name: string): { item: ResourceManifestItem; kind: PageKind } | undefined {
  return byRouteName.get(name)
}
