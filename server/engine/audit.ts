/**
 * Operate logs (table operate_logs) for every create, update and delete made through the engine.
 * Type, labels and values are stored in English and translated when read, so every reader sees them
 * in their own language. Secret fields never reach the log: a change shows as a masked value.
 */
import { randomUUID } from 'node:crypto'
import type { DB } from '../db/connection.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { labelOf } from './fields.ts'
import { toDisplay } from './kinds.ts'
import type { Ctx, DiffEntry, FieldDef, ResourceDef, Row } from './types.ts'

export const SECRET_MASK = '******'

export const userDisplay = (u: { name: string; username: string } | null | undefined): string => (u ? `${u.name}(${u.username})` : '')

/** Django `str(obj)`: the resource's display, else name / username / id. */
export function objectDisplay(def: ResourceDef, row: Row): string {
  if (def.display) return def.display(row)
  return String(row.name ?? row.username ?? row.id ?? '')
}

/** Field-by-field differences between two English serializations (plus secrets that were written). */
export function diffOf(fields: FieldDef[], before: Row | undefined, after: Row, secretsWritten: string[]): DiffEntry[] {
  const out: DiffEntry[] = []
  for (const f of fields) {
    if (f.secret || f.write_only) {
      if (secretsWritten.includes(f.name)) out.push({ field: labelOf(f), before: before ? SECRET_MASK : '', after: SECRET_MASK })
      continue
    }
    const b = before ? toDisplay(f, before[f.name]) : ''
    const a = toDisplay(f, after[f.name])
    if (a !== b) out.push({ field: labelOf(f), before: b, after: a })
  }
  return out
}

export function auditOrgOf(def: ResourceDef, ctx: Ctx, row: Row): string {
  if (def.orgScoped && row.org_id) return String(row.org_id)
  if (def.auditOrg === 'system') return ORG_IDS.SYSTEM
  return ctx.orgId
}

export async function recordOperate(tx: DB, ctx: Ctx, entry: {
  action: 'create' | 'update' | 'delete' | string
  resourceType: string
  resource: string
  resourceId: unknown
  orgId: string
  diff?: DiffEntry[]
}): Promise<void> {
  await tx.insertInto('operate_logs').values({
    id: randomUUID(), user: userDisplay(ctx.user).slice(0, 128), action: entry.action, resource_type: entry.resourceType.slice(0, 64),
    resource: entry.resource.slice(0, 128), resource_id: String(entry.resourceId ?? ''), remote_addr: ctx.ip ?? '', org_id: entry.orgId,
    diff: JSON.stringify(entry.diff ?? []),
  }).execute()
}
