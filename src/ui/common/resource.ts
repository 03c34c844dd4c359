/**
 * A resource as the generic pages take it (derived from its console manifest entry, src/views/manifest.ts): its
 * API list URL, its four routes (names kept from the reference console because links and `List → Create`
 * navigation rely on them), its permissions, type label, default order and related-field sources. Route paths are relative to the router's basepath and use `:id` (the catalogue's syntax, src/router/catalog.ts).
 */
import type { MessageDescriptor } from '@lingui/core'
import { resourcePerms, type ResourcePerms } from './perms.ts'

export interface RouteRef {
  name: string
  path: string
  /** Search parameters the page needs (a list shown as a tab of another page: `{tab: 'replay-storage'}`). */
  search?: Readonly<Record<string, string>>
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
  /** label field of the rows (default: the generic object label), or a template of fields: `{name}:{value}` */
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
  /** the list offers a date range, the last 7 days by default (logs, sessions) */
  dateRange?: boolean
  /** picker sources of related fields the metadata may not describe (field → source) */
  related?: Readonly<Record<string, RelatedRef>>
}

export function defineResource(def: Omit<ResourceDef, 'perms'> & { perms?: Partial<ResourcePerms> }): ResourceDef {
  return { ...def, perms: resourcePerms(def.url, def.perms) }
}

/** Fills `:name` placeholders of a route path. */
export function routePath(ref: RouteRef, params: Readonly<Record<string, string | number>> = {}): string {
  return ref.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')))
}
