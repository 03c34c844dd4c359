/**
 * Roles (contract §5.1, §7): system roles and organization roles share the Role* routes; the `scope` search
 * param says which one a page works on. Without it, the scope-agnostic `/api/v1/rbac/roles/` is used.
 */
import { msg } from '@lingui/core/macro'
import type { Row } from '../../../api/resources.ts'
import { crudRoutes, defineResource, type ResourceDef } from '../../../ui/common/resource.ts'

export type RoleScope = 'system' | 'org'

const routes = crudRoutes('Role', '/console/users/roles')

export const roleResources: Record<RoleScope | 'any', ResourceDef> = {
  system: defineResource({
    url: '/api/v1/rbac/system-roles/', routes, typeLabel: msg`System role`,
    perms: { view: 'rbac.view_systemrole', add: 'rbac.add_systemrole', change: 'rbac.change_systemrole', delete: 'rbac.delete_systemrole' },
  }),
  org: defineResource({
    url: '/api/v1/rbac/org-roles/', routes, typeLabel: msg`Organization role`,
    perms: { view: 'rbac.view_orgrole', add: 'rbac.add_orgrole', change: 'rbac.change_orgrole', delete: 'rbac.delete_orgrole' },
  }),
  any: defineResource({
    url: '/api/v1/rbac/roles/', routes, typeLabel: msg`Role`,
    perms: {
      view: 'rbac.view_systemrole|rbac.view_orgrole', add: 'rbac.add_systemrole|rbac.add_orgrole',
      change: 'rbac.change_systemrole|rbac.change_orgrole', delete: 'rbac.delete_systemrole|rbac.delete_orgrole',
    },
  }),
}

export function scopeOf(value: unknown): RoleScope | undefined {
  const v = typeof value === 'object' && value !== null ? (value as { value?: unknown }).value : value
  return v === 'system' || v === 'org' ? v : undefined
}

export function roleResourceFor(scope: unknown): ResourceDef {
  return roleResources[scopeOf(scope) ?? 'any']
}

/** Built-in roles cannot be changed or deleted (the server answers 403). */
export const isBuiltin = (row: Row | undefined): boolean => row?.builtin === true

export const roleName = (row: Row): string => String(row.display_name ?? row.name ?? row.id)
