import type { MessageDescriptor } from '@lingui/core'

import type { ViewName } from '../../machines/index.ts'

export type { ViewName }

/** CRUD action derived from the path (spec 000 §2.1). */
export type CrudAction = 'list' | 'create' | 'update' | 'retrieve' | 'destroy'

/** Icons of menu entries; the layout maps them to Fluent icons. */
export type MenuIcon =
  | 'dashboard' | 'users' | 'assets' | 'accounts' | 'perms' | 'sessions' | 'audits' | 'home' | 'myAssets'
  | 'webTerminal' | 'fileManager' | 'ops' | 'ticket' | 'ticketAssigned' | 'flow' | 'basic' | 'email' | 'auth'
  | 'message' | 'sms' | 'terminal' | 'applets' | 'security' | 'clean' | 'interface' | 'orgs' | 'tools' | 'tasks'
  | 'other' | 'license' | 'profile' | 'setting' | 'key' | 'tempPassword' | 'connectionToken'

/** What feature switches read: the public settings (spec 000 §3). */
export interface RouteEnv {
  settings: Readonly<Record<string, unknown>>
}

/**
 * One node of the declared route tree. `view` and `group` nodes are containers (a view root, a menu group)
 * whose permissions, licence flag and feature switch apply to their whole subtree. `page` nodes are screens;
 * pages nested under a page (create/update/detail under a list) share its menu entry but not its permissions.
 * `link` nodes are menu entries to server pages opened in a new tab.
 */
export interface RouteNode {
  kind: 'view' | 'group' | 'page' | 'link'
  /** Path segment(s) relative to the parent, `:id` for parameters. */
  path: string
  name?: string
  title: MessageDescriptor
  permissions?: readonly string[]
  licenseRequired?: boolean
  /** Menu only: the route exists but has no menu entry. */
  hidden?: boolean
  /** Feature switch: when false the route does not exist (it answers 404). */
  available?: (env: RouteEnv) => boolean
  icon?: MenuIcon
  /** Redirect target (absolute path) for containers; groups default to their first page. */
  redirect?: string
  /** For `link` nodes: the server URL. */
  href?: string
  showOrganization?: boolean
  /** Menu entry to highlight (absolute path); defaults to the nearest page ancestor at menu level. */
  activeMenu?: string
  children?: readonly RouteNode[]
  /** A place for a manifest entry (`resourceSlot(key)`, src/router/resources.ts), replaced before flattening. */
  slot?: string
}

/** A route of the catalogue with its effective metadata (spec 000 §2.1, console-behaviour §1.3). */
export interface RouteDef {
  kind: RouteNode['kind']
  name: string
  /** Full path without the /ui base, `:param` syntax. */
  path: string
  level: number
  type: 'view' | 'app' | 'resource' | 'crud'
  view: ViewName | null
  app: string | null
  resource: string | null
  action: CrudAction
  /** Own and inherited requirements; `a|b` is an alternative, every entry must hold. */
  permissions: readonly string[]
  licenseRequired: boolean
  hidden: boolean
  available: (env: RouteEnv) => boolean
  title: MessageDescriptor
  icon?: MenuIcon
  redirect?: string
  href?: string
  activeMenu: string
  showOrganization: boolean
  /** Name of the parent route, null at the top. */
  parent: string | null
}
