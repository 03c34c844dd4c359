/**
 * Role permissions (contract: `GET /api/v1/rbac/permissions/tree/?role=<id>`, `PATCH <role>/permissions/`).
 * The tree arrives as zTree-like flat nodes `{id, name, pId, isParent, checked, chkDisabled, meta}`; they are
 * parsed here, at the edge, into typed `ZNode`s (a malformed answer gives an empty tree, never a crash).
 */
import type { CacheQuery } from './cache.ts'
import { jsonQuery } from './queries.ts'
import { actionUrl, sendAction, withQuery, type RowId } from './resources.ts'

export const PERMISSION_TREE_URL = '/api/v1/rbac/permissions/tree/'

export interface ZNode {
  id: string
  name: string
  pId: string | null
  isParent: boolean
  checked: boolean
  chkDisabled: boolean
  meta: Record<string, unknown>
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

export function parseZTree(raw: unknown): ZNode[] {
  const list = Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.results) ? raw.results : []
  return list.filter(isObject).map((n) => ({
    id: String(n.id),
    name: typeof n.name === 'string' ? n.name : String(n.id),
    pId: n.pId === null || n.pId === undefined || n.pId === '' ? null : String(n.pId),
    isParent: n.isParent === true,
    checked: n.checked === true,
    chkDisabled: n.chkDisabled === true,
    meta: isObject(n.meta) ? n.meta : {},
  }))
}

/** The permission tree of a role, with the role's permissions checked (a cached read, src/api/cache.ts). */
export function permissionTreeQuery(roleId: RowId, orgId: string | undefined): CacheQuery<ZNode[]> {
  return jsonQuery(withQuery(PERMISSION_TREE_URL, { role: roleId }), orgId, parseZTree)
}

/** Replaces a role's permissions (`roleListUrl`: the system or organization roles list). */
export async function saveRolePermissions(roleListUrl: string, roleId: RowId, permissionIds: readonly (number | string)[]): Promise<void> {
  await sendAction('patch', actionUrl(roleListUrl, roleId, 'permissions'), { permissions: permissionIds })
}
