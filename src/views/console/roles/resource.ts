/**
 * Roles (contract §5.1, §7): system roles and organization roles share the Role* routes; the `scope` search
 * param says which one a page works on. Without it, the scope-agnostic `/api/v1/rbac/roles/` is used.
 */
import { msg } from '@lingui/core/macro'
import type { Row } from '../../../api/resources.ts'
import { defineResource, type ResourceDef } from '../../../ui/common/resource.ts'
import { manifestItem, RELATED_MODELS } from '../../entries.ts'

export type RoleScope = 'system' | 'org'

const any = manifestItem('roles').resource

/** One scope's endpoint on the shared Role* routes (the URLs are the manifest's related-model table's). */
function scoped(scope: RoleScope, typeLabel: ReturnType<typeof msg>): ResourceDef {
  const model = `${scope}role`
  return defineResource({
    ...any, url: RELATED_MODELS[`rbac.${model}`]!.url, typeLabel,
    perms: { view: `rbac.view_${model}`, add: `rbac.add_${model}`, change: `rbac.change_${model}`, delete: `rbac.delete_${model}` },
  })
}

export const roleResources: Record<RoleScope | 'any', ResourceDef> = {
  system: scoped('system', msg`System role`),
  org: scoped('org', msg`Organization role`),
  any,
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
