/**
 * Permission predicates (spec §6): a requirement `a|b` holds when any alternative is held; a list of
 * requirements holds when every entry does; an empty list is open to any signed-in user.
 */

export type PermSet = ReadonlySet<string>

export function hasPerm(perms: PermSet, requirement: string): boolean {
  const alternatives = requirement.split('|').map((p) => p.trim()).filter(Boolean)
  return alternatives.length === 0 || alternatives.some((p) => perms.has(p))
}

export function hasPerms(perms: PermSet, requirements: readonly string[] = []): boolean {
  return requirements.every((r) => hasPerm(perms, r))
}

/** The four permissions of a resource. Each may itself be an `a|b` alternative. */
export interface ResourcePerms {
  view: string
  add: string
  change: string
  delete: string
}

/**
 * Default permissions from the API URL, as the reference console derives them (console-behaviour §1.3, §1.5):
 * `/api/v1/<app>/<resource>/` → `<app>.<action>_<resource>` with dashes removed and one trailing "s" dropped.
 * `login-acls` → `acls.view_loginacl`. Resources whose codename differs say so with `overrides`.
 */
export function resourcePerms(apiUrl: string, overrides: Partial<ResourcePerms> = {}): ResourcePerms {
  const path = apiUrl.split('?')[0] ?? ''
  const parts = path.split('/').filter(Boolean)
  const v1 = parts.indexOf('v1')
  const app = parts[v1 + 1] ?? ''
  const resource = (parts[v1 + 2] ?? '').replace(/-/g, '').replace(/s$/, '')
  const make = (action: string) => `${app}.${action}_${resource}`
  return { view: make('view'), add: make('add'), change: make('change'), delete: make('delete'), ...overrides }
}
