/**
 * Rows → JSON objects (contract §3). Related objects are fetched in one query per relation field for the
 * whole page (no N+1), and rendered with the target resource's own fields (`attrs`), so computed
 * attributes such as a role's translated `display_name` come out right.
 */
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { fieldByName } from './fields.ts'
import { columnOf, toJson } from './kinds.ts'
import { and, fetchRows, idsCond, orderBy, scopeConds, selectList } from './query.ts'
import { resourceByName } from './registry.ts'
import type { Ctx, FieldDef, Relation, ResourceDef, Row } from './types.ts'

interface Env { db: DB; ctx: Ctx }

function attrFields(target: ResourceDef, rel: Relation): FieldDef[] {
  return (rel.attrs ?? ['id', 'name']).map((n) => {
    const f = fieldByName(target, n)
    if (!f) throw new Error(`${target.name} has no field ${n}`)
    return f
  })
}

async function loadFk(f: FieldDef, rows: Row[], env: Env): Promise<Map<unknown, Row>> {
  const rel = f.relation!
  const target = resourceByName(rel.resource)
  const column = columnOf(f)!
  const ids = [...new Set(rows.map((r) => r[column]).filter((v) => v !== null && v !== undefined))] as Array<string | number>
  if (!ids.length) return new Map()
  const fields = attrFields(target, rel)
  const targets = await fetchRows(env.db, target, fields, [idsCond(target, ids)])
  const out = await serializeRows(target, targets, fields, env)
  return new Map(targets.map((t, i) => [t.id, out[i]!]))
}

async function loadM2m(def: ResourceDef, f: FieldDef, rows: Row[], env: Env): Promise<Map<unknown, Row[]>> {
  const rel = f.relation!
  const th = rel.through
  if (!th) throw new Error(`${def.name}.${f.name}: m2m needs a through table or a loader`)
  const target = resourceByName(rel.resource)
  const ids = rows.map((r) => r.id)
  const out = new Map<unknown, Row[]>(ids.map((id) => [id, []]))
  if (!ids.length) return out
  const fields = attrFields(target, rel)
  const conds = [sql`th.${sql.ref(th.from)} = any(${ids}::${sql.raw(def.idKind === 'serial' ? 'bigint' : 'uuid')}[])`]
  const thWhere = th.where?.(env.ctx)
  if (thWhere) conds.push(thWhere)
  if (!rel.unscoped) conds.push(...scopeConds(target, env.ctx))
  const r = await sql<Row>`select th.${sql.ref(th.from)} as "__from", ${selectList(target, fields)}
    from ${sql.table(th.table)} as th join ${sql.table(target.table)} as t on t.id = th.${sql.ref(th.to)}
    where ${and(conds)} order by ${orderBy(target, undefined)}`.execute(env.db)
  const objs = await serializeRows(target, r.rows, fields, env)
  r.rows.forEach((row, i) => out.get(row.__from)?.push(objs[i]!))
  return out
}

/** Serializes rows with the given fields (write-only fields are left out). */
export async function serializeRows(def: ResourceDef, rows: Row[], fields: FieldDef[], env: Env): Promise<Row[]> {
  const shown = fields.filter((f) => !f.write_only)
  const loaded = new Map<string, Map<unknown, unknown>>()
  for (const f of shown) {
    if (f.load) loaded.set(f.name, await f.load(rows.map((r) => r.id), { db: env.db, ctx: env.ctx, rows }))
    else if (f.type === 'fk' && f.relation) loaded.set(f.name, await loadFk(f, rows, env))
    else if (f.type === 'm2m' && f.relation) loaded.set(f.name, await loadM2m(def, f, rows, env))
  }
  return rows.map((row) => {
    const obj: Row = {}
    for (const f of shown) {
      const map = loaded.get(f.name)
      if (f.get) obj[f.name] = f.get(row, env.ctx, map?.get(row.id))
      else if (f.load) obj[f.name] = map?.get(row.id) ?? (f.type === 'm2m' || f.type === 'list' ? [] : null)
      else if (f.type === 'fk') obj[f.name] = map?.get(row[columnOf(f)!]) ?? null
      else if (f.type === 'm2m') obj[f.name] = map?.get(row.id) ?? []
      else if (f.expr) obj[f.name] = toJson(f, row[f.name], env.ctx)
      else {
        const c = columnOf(f)
        obj[f.name] = c ? toJson(f, row[c], env.ctx) : null
      }
    }
    return obj
  })
}
