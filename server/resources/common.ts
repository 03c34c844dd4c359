/** Field declarations shared by many resources (JumpServer's common serializer trailer). */
import { sql } from 'kysely'
import type { Cond, Ctx, FieldDef } from '../engine/types.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'

export const idField = (serial = false): FieldDef => ({ name: 'id', type: serial ? 'integer' : 'uuid', label: 'ID', read_only: true })
export const nameField = (extra: Partial<FieldDef> = {}): FieldDef => ({ name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, ...extra })
export const commentField: FieldDef = { name: 'comment', type: 'text', label: 'Comment', allow_blank: true, default: '' }
/**
 * Who made or changed a row: a name as it was then. The server's own work is stored as "System", shown in the
 * reader's language (issue 35); the column stays filterable and sortable.
 */
export const actorName = (column: string) => (row: Record<string, unknown>, ctx: Ctx): string => {
  const v = String(row[column] ?? '')
  return v === 'System' ? tr(ctx.lang, 'System') : v
}
export const actorField = (name: string, label: string): FieldDef => ({ name, type: 'string', label, read_only: true, column: name, get: actorName(name) })
export const createdBy: FieldDef = actorField('created_by', 'Created by')
export const updatedBy: FieldDef = actorField('updated_by', 'Updated by')
export const dateCreated: FieldDef = { name: 'date_created', type: 'datetime', label: 'Date created', read_only: true }
export const dateUpdated: FieldDef = { name: 'date_updated', type: 'datetime', label: 'Date updated', read_only: true }
export const isActive: FieldDef = { name: 'is_active', type: 'boolean', label: 'Active', default: true }

/**
 * Users visible in the request's organization: its members (an org role binding there; `users.org_ids` is kept
 * in step with role_bindings by a trigger, migration 004); ROOT: everyone.
 */
export function memberCond(ctx: Ctx, alias = 't'): Cond | undefined {
  if (ctx.orgId === ORG_IDS.ROOT) return undefined
  return sql`${sql.ref(`${alias}.org_ids`)} @> array[${ctx.orgId}]::uuid[]`
}

/** Does the request's user hold a permission in the request's organization? */
export async function holds(ctx: Ctx, perm: string): Promise<boolean> {
  const held = await ctx.perms()
  return perm.split('|').some((p) => held.has(p.trim()))
}
