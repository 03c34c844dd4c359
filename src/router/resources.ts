/**
 * Resource declarations of the console manifest (src/views/<feature>/entries.ts, assembled in src/views/entries.ts)
 * and what is derived from them: the route nodes (list, create, update, detail, with their permissions, titles,
 * licence flag and menu place), the `ResourceDef` the generic pages use, and the source of every related field;
 * with the helpers a feature's `pages.ts` names its page modules with.
 * A resource is declared once; nothing here names one.
 */
import type { MessageDescriptor } from '@lingui/core'
import type { ComponentType } from 'react'
import { resourcePerms, type ResourcePerms } from '../ui/common/perms.ts'
import type { RelatedRef, ResourceDef, ResourceRoutes, RouteRef } from '../ui/common/resource.ts'
import { page } from './routes/helpers.ts'
import type { MenuIcon, RouteNode, ViewName } from './types.ts'

/** Loads a page component (`() => import('./UserListPage.tsx').then((m) => m.UserListPage)`). */
export type PageLoader = () => Promise<ComponentType>
export type PageKind = 'list' | 'create' | 'update' | 'detail'

/** What the console offers for a resource (the conformance suite drives exactly these). */
export interface Offers {
  create: boolean
  update: boolean
  detail: boolean
  delete: boolean
  export: boolean
  import: boolean
}

/** One resource, as written in its feature's `entries.ts` (data only; its custom pages are in the feature's `pages.ts`). */
export interface ResourceEntry {
  /** Stable key (`users`, `user-acls`); route slots and `parent` refer to it. */
  key: string
  /** JumpServer model `<app>.<model>` of the objects (the related-field table is derived from it). */
  model: string
  /** API list URL. */
  url: string
  /** Full path of the list page (`/console/users/users`); create/update/detail hang below it. */
  path: string
  /** Route name prefix: `User` → UserList, UserCreate, UserUpdate, UserDetail (the reference's names). */
  routeName: string
  /** The list route's name where the reference's does not follow `<routeName>List` (`FtpLog`). */
  listRouteName?: string
  /** Route names where the reference's do not follow `<routeName><Kind>` (`CreateReplayStorage`). */
  routeNames?: Partial<Record<Exclude<PageKind, 'list'>, string>>
  /**
   * The list is a tab of another page (Settings → Terminal: `{name: 'TerminalSetting', path: '/settings/terminal',
   * tab: 'replay-storage'}`), as in the reference console; that page renders it. The route file declares the
   * entry's create/update/detail pages below that page with the derived names and paths (checked at start-up),
   * so the entry has no slot.
   */
  listTab?: { name: string; path: string; tab: string }
  /** The list offers a date range, the last 7 days by default (its loader asks the same). */
  dateRange?: boolean
  /** Singular type label ("User: alice"). */
  typeLabel: MessageDescriptor
  /** Route titles (menu, tabs, document title). */
  titles: { list: MessageDescriptor; create?: MessageDescriptor; update?: MessageDescriptor; detail?: MessageDescriptor }
  /** Permission codenames; default from the URL (`/api/v1/acls/login-acls/` → `acls.view_loginacl`). */
  perms?: Partial<ResourcePerms>
  licenseRequired?: boolean
  icon?: MenuIcon
  /** Nested under another entry's list route (its pages share that menu entry). */
  parent?: string
  /** Default false only where the console does not offer it; everything else defaults to true. */
  offers?: Partial<Offers>
  /**
   * Related fields whose target the OPTIONS metadata of a real JumpServer cannot tell: field → target model
   * (`groups: 'users.usergroup'`). Our server says it in OPTIONS (`related`), the table is the fallback.
   */
  related?: Readonly<Record<string, string>>
  /** Label field of objects of this model in pickers (default: name), or a template of fields (`{name}:{value}`). */
  label?: string
  /**
   * The generic list page's columns (data): the default set, columns left out, each column's priority when the
   * defaults do not all fit the width (1 = key; src/ui/table/columnFit.ts) and the column that links to the detail
   * page where the resource has no `name`.
   */
  list?: {
    defaults?: readonly string[]
    exclude?: readonly string[]
    priority?: Readonly<Record<string, number>>
    link?: string
    /** column labels where the server's would mislead (`reason_display` is the reason) */
    labels?: Readonly<Record<string, MessageDescriptor>>
  }
  /** List default order (`null`: the server's; default `-date_updated`); the list page and its loader share it. */
  defaultOrder?: string | null
  /**
   * The API URL a page works on when it picks among several (roles: one per scope), so its loader asks the
   * same; undefined: nothing to start. Default: `url`.
   */
  pageUrl?: (kind: PageKind, search: Readonly<Record<string, unknown>>, can: (perm: string) => boolean) => string | undefined
}

/**
 * A feature's entries (`src/views/<feature>/entries.ts`), their keys kept as literal types: `manifestItem` takes
 * only a declared key, and the feature's `pages.ts` only its own keys.
 */
export function defineEntries<const K extends string>(entries: readonly (ResourceEntry & { key: K })[]): readonly (ResourceEntry & { key: K })[] {
  return entries
}

/** Pages by route name: the views' plain pages (`src/views/<view>/index.ts`) and the router's own. */
export type PageRegistry = Readonly<Record<string, PageLoader>>

/** A resource's custom pages by kind; a kind not named gets the generic page. */
export type ResourcePages = Partial<Record<PageKind, PageLoader>>

/** A feature's custom pages (`src/views/<feature>/pages.ts`) by the keys of its entries. */
export type PagesOf<E extends readonly { key: string }[]> = Partial<Record<E[number]['key'], ResourcePages>>

/** The names of a module's exports that are components. */
type ComponentExport<M> = { [K in keyof M]: M[K] extends ComponentType<never> ? K : never }[keyof M] & string

/** A page loader: the lazily imported module and its component's name (`lazyPage(() => import('./UserListPage.tsx'), 'UserListPage')`). */
export function lazyPage<M>(load: () => Promise<M>, name: ComponentExport<M>): PageLoader {
  return () => load().then((m) => m[name] as ComponentType)
}

/** A resource's pages; `form` stands for create and update, which share one component. */
export function resourcePages({ form, ...pages }: ResourcePages & { form?: PageLoader }): ResourcePages {
  return form ? { create: form, update: form, ...pages } : pages
}

/** A manifest entry with everything derived. `RESOURCE_MANIFEST` lists these. */
export interface ResourceManifestItem {
  key: string
  model: string
  url: string
  view: ViewName
  /** Route names and paths (`:id` syntax, without the /ui base). */
  routes: ResourceRoutes
  perms: ResourcePerms
  offers: Offers
  licenseRequired: boolean
  parent?: string
  /** The object the generic pages take. */
  resource: ResourceDef
  entry: ResourceEntry
}

/** A model the console knows a list URL for, without pages of its own (e.g. the two role scopes). */
export interface ModelSource {
  url: string
  label?: string
}

const DEFAULT_OFFERS: Offers = { create: true, update: true, detail: true, delete: true, export: true, import: true }

function ref(name: string, path: string): RouteRef {
  return { name, path }
}

/** Derives routes, permissions and the `ResourceDef` of one entry. */
export function deriveResource(entry: ResourceEntry, related: (field: string, model: string) => RelatedRef): ResourceManifestItem {
  const offers = { ...DEFAULT_OFFERS, ...entry.offers }
  const tab = entry.listTab
  const routes: ResourceRoutes = {
    list: tab ? { name: tab.name, path: tab.path, search: { tab: tab.tab } } : ref(entry.listRouteName ?? `${entry.routeName}List`, entry.path),
  }
  const named = (kind: Exclude<PageKind, 'list'>, suffix: string) => entry.routeNames?.[kind] ?? `${entry.routeName}${suffix}`
  if (offers.create) routes.create = ref(named('create', 'Create'), `${entry.path}/create`)
  if (offers.update) routes.update = ref(named('update', 'Update'), `${entry.path}/:id/update`)
  if (offers.detail) routes.detail = ref(named('detail', 'Detail'), `${entry.path}/:id`)
  const perms = resourcePerms(entry.url, entry.perms)
  const view = entry.path.split('/').filter(Boolean)[0] as ViewName
  const resource: ResourceDef = {
    url: entry.url,
    routes,
    perms,
    typeLabel: entry.typeLabel,
    defaultOrder: entry.defaultOrder,
    ...(entry.dateRange ? { dateRange: true } : {}),
    related: Object.fromEntries(Object.entries(entry.related ?? {}).map(([field, model]) => [field, related(field, model)])),
  }
  return { key: entry.key, model: entry.model, url: entry.url, view, routes, perms, offers, licenseRequired: entry.licenseRequired === true, parent: entry.parent, resource, entry }
}

/** The list page node of an item with its create/update/detail pages and nested items' nodes, relative to `base`. */
export function resourceNode(item: ResourceManifestItem, base: string, nested: readonly RouteNode[] = []): RouteNode {
  const { entry, routes, perms } = item
  if (!entry.path.startsWith(`${base}/`)) throw new Error(`Manifest entry ${entry.key}: ${entry.path} is not below ${base}`)
  const children: RouteNode[] = []
  const title = (t: MessageDescriptor | undefined, kind: string) => {
    if (!t) throw new Error(`Manifest entry ${entry.key}: no ${kind} title`)
    return t
  }
  if (routes.create) children.push(page('create', routes.create.name, title(entry.titles.create, 'create'), [perms.add]))
  if (routes.update) children.push(page(':id/update', routes.update.name, title(entry.titles.update, 'update'), [perms.change]))
  if (routes.detail) children.push(page(':id', routes.detail.name, title(entry.titles.detail, 'detail'), [perms.view]))
  children.push(...nested)
  return page(entry.path.slice(base.length + 1), routes.list.name, entry.titles.list, [perms.view], {
    ...(entry.licenseRequired ? { licenseRequired: true } : {}),
    ...(entry.icon ? { icon: entry.icon } : {}),
    children,
  })
}

/**
 * A placeholder in a route file where the manifest entry `key` goes (keeps the menu order). `extra` are pages the
 * route file declares below the entry's list (pages that are not create/update/detail, e.g. AssetMoreInformationEdit);
 * `options` the list node's menu flags (hidden kind lists reached from tabs, their active menu).
 */
export function resourceSlot(key: string, extra: readonly RouteNode[] = [], options: { hidden?: boolean; activeMenu?: string } = {}): RouteNode {
  return { kind: 'page', path: '', slot: key, title: { id: key, message: key }, ...(extra.length ? { children: [...extra] } : {}), ...options }
}

function join(base: string, path: string): string {
  if (path.startsWith('/')) return path
  return `${base.replace(/\/$/, '')}/${path}`.replace(/\/+$/, '')
}

/**
 * Puts the manifest's items into a declared route tree: every `resourceSlot(key)` becomes the item's list node
 * (with nested items below it). A slot without an item, or an item placed nowhere, is an error.
 */
export function placeResources(trees: readonly RouteNode[], items: readonly ResourceManifestItem[]): { trees: RouteNode[]; placed: Set<string> } {
  const placed = new Set<string>()
  const nodeOf = (item: ResourceManifestItem, base: string): RouteNode => {
    placed.add(item.key)
    const nested = items.filter((i) => i.parent === item.key).map((i) => nodeOf(i, item.entry.path))
    return resourceNode(item, base, nested)
  }
  const walk = (node: RouteNode, base: string): RouteNode => {
    if (node.slot !== undefined) {
      const item = items.find((i) => i.key === node.slot)
      if (!item) throw new Error(`Route slot ${node.slot} has no manifest entry`)
      if (item.parent) throw new Error(`Manifest entry ${item.key} has a parent and a slot`)
      const placedNode = nodeOf(item, base)
      const { hidden, activeMenu } = node
      return {
        ...placedNode,
        ...(hidden ? { hidden } : {}),
        ...(activeMenu ? { activeMenu } : {}),
        children: [...(placedNode.children ?? []), ...(node.children ?? [])],
      }
    }
    if (!node.children) return node
    const path = join(base, node.path)
    return { ...node, children: node.children.map((c) => walk(c, path)) }
  }
  const out = trees.map((t) => walk(t, ''))
  // Lists shown as a tab of another page: their pages are declared in the route files; check names and paths.
  const declared = new Map<string, string>()
  const collect = (node: RouteNode, base: string) => {
    const path = join(base, node.path)
    if (node.kind === 'page' && node.name) declared.set(node.name, path)
    for (const c of node.children ?? []) collect(c, path)
  }
  for (const t of out) collect(t, '')
  for (const item of items) {
    if (!item.entry.listTab) continue
    for (const r of Object.values(item.routes)) {
      if (declared.get(r.name) !== r.path) throw new Error(`Manifest entry ${item.key}: route ${r.name} at ${r.path} is not declared in the route files`)
    }
    placed.add(item.key)
  }
  return { trees: out, placed }
}
