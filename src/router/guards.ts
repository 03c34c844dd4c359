/**
 * The navigation guard's decisions as pure functions (spec 000 §2.2, §6; console-behaviour §1.3). The router's
 * `beforeLoad` gathers the state from the root app actor and turns a decision into a redirect, a 403 or a page.
 */
import { chooseView, isViewAllowed } from '../../machines/index.ts'
import type { UserProfile, ViewName } from '../../machines/index.ts'
import { fillParams, matchPath, viewRoot } from './catalog.ts'
import { hasPermission } from './permissions.ts'
import type { RouteDef } from './types.ts'

export const IMPROVEMENT_PATH = '/profile/improvement'
export const NOT_FOUND_PATH = '/404'

export interface GuardState {
  profile: UserProfile & { is_first_login?: boolean }
  settings: Readonly<Record<string, unknown>>
  hasValidLicense: boolean
  /** Last view chosen in the view switcher (`PreView`). */
  lastView: ViewName | null
}

export type Decision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: string; keepSearch?: boolean }
  | { kind: 'forbidden'; reason: 'permission' | 'license' }
  | { kind: 'notFound' }

/** Where `/` and refused views go: the requested view if allowed, else the last-used one, else the first allowed. */
export function preferredViewPath(state: GuardState, requested: ViewName | null): string {
  const view = chooseView(requested, state.profile, state.lastView, { hasValidLicense: state.hasValidLicense })
  const root = viewRoot(view)
  return root.redirect ?? root.path
}

/** Routes a user may see in menus and reach: licence, feature switch and permissions hold. */
export function isRouteAccessible(route: RouteDef, state: Pick<GuardState, 'profile' | 'settings' | 'hasValidLicense'>): boolean {
  if (route.licenseRequired && !state.hasValidLicense) return false
  if (!route.available({ settings: state.settings })) return false
  return hasPermission(state.profile.perms, route.permissions)
}

/** What to do when navigating to `route` at `pathname`. */
export function decide(route: RouteDef, pathname: string, state: GuardState): Decision {
  if (state.profile.is_first_login && route.name !== 'ProfileImprovement') {
    return { kind: 'redirect', to: IMPROVEMENT_PATH }
  }
  if (route.name === 'Home') return { kind: 'redirect', to: preferredViewPath(state, null) }
  if (route.name === 'NotFound') return { kind: 'allow' }
  if (!route.available({ settings: state.settings })) return { kind: 'notFound' }
  if (route.view && !isViewAllowed(route.view, state.profile, { hasValidLicense: state.hasValidLicense })) {
    return { kind: 'redirect', to: preferredViewPath(state, route.view) }
  }
  if (route.licenseRequired && !state.hasValidLicense) return { kind: 'forbidden', reason: 'license' }
  if (!hasPermission(state.profile.perms, route.permissions)) return { kind: 'forbidden', reason: 'permission' }
  if (route.redirect) {
    const params = matchPath(route.path, pathname) ?? {}
    const to = fillParams(route.redirect, params)
    return route.path.includes(':') ? { kind: 'redirect', to, keepSearch: true } : { kind: 'redirect', to }
  }
  return { kind: 'allow' }
}

/** `/ui/#/console/users` deep links (the server still emits them) → the history path `/console/users`. */
export function hashLinkTarget(pathname: string, hash: string): string | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash
  if (!h.startsWith('/')) return null
  if (pathname !== '/' && pathname !== '') return null
  return h
}
