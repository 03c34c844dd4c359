/**
 * The route catalogue: every route of the console as typed data (console-behaviour §3, spec 001 §2), with its
 * name, view, app, resource, action, permissions, licence flag, feature switch, title and menu data. The router
 * tree, the guards, the menus and the visited tabs are all built from it. Resources come from the console
 * manifest (src/views/manifest.ts) into their `resourceSlot`s; everything else is declared in routes/*.ts.
 */
import { flattenRoutes } from './build.ts'
import { auditRoutes } from './routes/audit.ts'
import { commonRoutes } from './routes/common.ts'
import { consoleRoutes } from './routes/console.ts'
import { profileRoutes } from './routes/profile.ts'
import { settingsRoutes } from './routes/settings.ts'
import { ticketsRoutes } from './routes/tickets.ts'
import { workbenchRoutes } from './routes/workbench.ts'
import { placeResources } from './resources.ts'
import type { RouteDef, RouteNode, ViewName } from './types.ts'
import { RESOURCE_MANIFEST } from '../views/entries.ts'

const DECLARED_TREES = [consoleRoutes, auditRoutes, workbenchRoutes, ticketsRoutes, settingsRoutes, profileRoutes] as const

/** The declared trees with the manifest's resources in their slots (src/views/manifest.ts). */
export const VIEW_TREES: readonly RouteNode[] = (() => {
  const { trees, placed } = placeResources(DECLARED_TREES, RESOURCE_MANIFEST)
  const lost = RESOURCE_MANIFEST.filter((i) => !placed.has(i.key)).map((i) => i.key)
  if (lost.length) throw new Error(`Manifest entries without a route slot or parent: ${lost.join(', ')}`)
  return trees
})()

export const ROUTES: readonly RouteDef[] = Object.freeze([...flattenRoutes(commonRoutes), ...flattenRoutes(VIEW_TREES)])

const byName = new Map(ROUTES.map((r) => [r.name, r]))

export function routeByName(name: string): RouteDef | undefined {
  const route = byName.get(name)
  if (!route) console.error(`No route named ${name}`)
  return route
}

/** Routes of one view, in declaration order. */
export function routesOfView(view: ViewName): RouteDef[] {
  return ROUTES.filter((r) => r.view === view)
}

/** The view root route (`Console`, `Audit`, …). */
export function viewRoot(view: ViewName): RouteDef {
  return ROUTES.find((r) => r.kind === 'view' && r.view === view)!
}

/** Fills `:param` segments: `pathOf('UserDetail', { id })` → `/console/users/users/<id>`. */
export function pathOf(name: string, params: Record<string, string> = {}): string | undefined {
  const route = routeByName(name)
  return route && fillParams(route.path, params)
}

export function fillParams(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, key: string) => encodeURIComponent(params[key] ?? `:${key}`))
}

/** Does a concrete pathname match a catalogue path pattern? */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const a = pattern.split('/').filter(Boolean)
  const b = pathname.split('/').filter(Boolean)
  if (a.length !== b.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < a.length; i++) {
    const seg = a[i]!
    if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(b[i]!)
    else if (seg !== b[i]) return null
  }
  return params
}

/** The routable entries (links are menu-only). */
export const ROUTABLE: readonly RouteDef[] = ROUTES.filter((r) => r.kind !== 'link')
