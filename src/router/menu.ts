import type { MessageDescriptor } from '@lingui/core'
import { ROUTES } from './catalog.ts'
import { isRouteAccessible, type GuardState } from './guards.ts'
import type { MenuIcon, RouteDef, ViewName } from './types.ts'

export interface MenuEntry {
  name: string
  title: MessageDescriptor
  /** Router path (pages), or the server URL of a link opened in a new tab. */
  path: string
  external: boolean
  icon?: MenuIcon
  children?: MenuEntry[]
}

/**
 * The left menu of a view (spec 000 §2.3): the view's level-2 entries and their level-3 pages, without hidden
 * routes and without routes the user may not reach (permission, licence, feature switch). Empty groups vanish.
 */
export function buildMenu(view: ViewName, state: Pick<GuardState, 'profile' | 'settings' | 'hasValidLicense'>): MenuEntry[] {
  const root = ROUTES.find((r) => r.kind === 'view' && r.view === view)
  if (!root) return []
  const visible = (r: RouteDef) => !r.hidden && isRouteAccessible(r, state)
  const entry = (r: RouteDef): MenuEntry => ({ name: r.name, title: r.title, path: r.href ?? r.path, external: r.kind === 'link', icon: r.icon })
  const out: MenuEntry[] = []
  for (const top of ROUTES.filter((r) => r.parent === root.name && visible(r))) {
    if (top.kind === 'group') {
      const children = ROUTES.filter((r) => r.parent === top.name && r.kind !== 'group' && visible(r)).map(entry)
      if (children.length) out.push({ ...entry(top), children })
    } else {
      out.push(entry(top))
    }
  }
  return out
}

/** Menu groups open by default (fixing the reference's `/audit/logs`, a path that does not exist). */
export const DEFAULT_OPEN_MENUS: readonly string[] = ['/audit/sessions', '/audit/audits', '/workbench/ops']
