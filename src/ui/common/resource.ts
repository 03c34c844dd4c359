/**
 * A resource described once (architecture "metadata-driven screens"): its API list URL, its four routes
 * (names kept from the reference console because links and `List → Create` navigation rely on them), its
 * permissions and its type label. Route paths are relative to the router's basepath and use `:id` (the catalogue's syntax, src/router/catalog.ts).
 */
import type { MessageDescriptor } from '@lingui/core'
import { resourcePerms, type ResourcePerms } from './perms.ts'

export interface RouteRef {
  name: string
  path: string
}

export interface ResourceRoutes {
  list: RouteRef
  create?: RouteRef
  update?: RouteRef
  detail?: RouteRef
}

/** Where a related field's picker takes its options: a list URL and the label field of its rows. */
export interface RelatedRef {
  url: string
  /** label field of the rows (default: the generic object label) */
  label?: string
  /** the target model, `<app>.<model>` */
  model?: string
}

export interface ResourceDef {
  /** API list URL, e.g. `/api/v1/users/users/` */
  url: string
  routes: ResourceRoutes
  perms: ResourcePerms
  /** singular type name for titles ("User: alice") and messages */
  typeLabel: MessageDescriptor
  /** list default order (`null`: the server's; undefined: `-date_updated`) */
  defaultOrder?: string | null
  /** picker sources of related fields the metadata may not describe (field → source) */
  related?: Readonly<Record<string, RelatedRef>>
}

/**
 * Routes by the reference convention: `<Prefix>List` at `base`, `<Prefix>Create` at `base/create`,
 * `<Prefix>Update` at `base/:id/update`, `<Prefix>Detail` at `base/:id`.
 */
export function crudRoutes(prefix: string, base: string, which: { create?: boolean; update?: boolean; detail?: boolean } = {}): ResourceRoutes {
  const routes: ResourceRoutes = { list: { name: `${prefix}List`, path: base } }
  if (which.create !== false) routes.create = { name: `${prefix}Create`, path: `${base}/create` }
  if (which.update !== false) routes.update = { name: `${prefix}Update`, path: `${base}/:id/update` }
  if (which.detail !== false) routes.detail = { name: `${prefix}Detail`, path: `${base}/:id` }
  return routes
}

export function defineResource(def: Omit<ResourceDef, 'perms'> & { perms?: Partial<ResourcePerms> }): ResourceDef {
  return { ...def, perms: resourcePerms(def.url, def.perms) }
}

/** Fills `:name` placeholders of a route path. */
export function routePath(ref: RouteRef, params: Readonly<Record<string, string | number>> = {}): string {
  return ref.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')))
}

/** The route named like the list with List replaced by Create (spec §2.4), when the resource has one. */
export function createRouteOf(routes: ResourceRoutes): RouteRef | undefined {
  return routes.create ?? undefined
}
