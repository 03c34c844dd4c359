/**
 * Writes: validation (DRF rules and messages, relation existence, uniqueness), then one transaction per
 * request (single or bulk: all or nothing) that saves rows and links, runs hooks and writes the operate log.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { decryptOrPlain } from '../auth/secret.ts'
import type { DB } from '../db/connection.ts'
import { ApiError, validationError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { auditOrgOf, diffOf, objectDisplay, recordOperate, userDisplay } from './audit.ts'
import { allFields } from './fields.ts'
import { columnOf, isRelation } from './kinds.ts'
import { pyType } from './messages.ts'
import { isUuid, normUuid, parseObject } from './parse.ts'
import { and, cleanIds, col, fetchRows, idsCond, scopeConds } from './query.ts'
import { resourceByName } from './registry.ts'
import { serializeRows } from './serialize.ts'
import type { Values } from '../http/body.ts'
import type { Action, Ctx, FieldDef, Relation, ResourceDef, Row, WriteInfo } from './types.ts'

type Errors = Record<string, unknown>

export interface Prepared {
  values: Values
  /** Extra column values computed before the transaction (field `toColumns`). */
  columns: Values
  /** Secret fields that were written (for the masked diff). */
  secrets: string[]
  orgId?: string
}

const JSON_TYPES = new Set(['json', 'list', 'nested', 'nested_many', 'multiple_choice'])
const isJsonColumn = (f: FieldDef) => JSON_TYPES.has(f.type) || (f.type === 'tree' && !f.bits)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A transaction retried on serialization failures and deadlocks; database errors become API errors. */
export async function withTx<T>(db: DB, def: ResourceDef | undefined, fn: (tx: DB) => Promise<T>, lang: Ctx['lang'] = 'en'): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(fn)
    } catch (e) {
      const code = (e as { code?: string }).code
      if ((code === '40001' || code === '40P01') && attempt < 4) {
        await sleep(5 + Math.random() * 20 * (attempt + 1))
        continue
      }
      throw mapDbError(e, def, lang)
    }
  }
}

/** Unique violations → 400 on the field; foreign-key violations on delete → 400 referenced_by_others. */
export function mapDbError(e: unknown, def: ResourceDef | undefined, lang: Ctx['lang'] = 'en'): unknown {
  const err = e as { code?: string; detail?: string; message?: string }
  if (err.code === '23505' && def) {
    const cols = /Key \(([^)]*)\)/.exec(err.detail ?? err.message ?? '')?.[1]?.split(',').map((s) => s.trim()) ?? []
    const field = allFields(def).find((f) => { const c = columnOf(f); return c && c !== 'org_id' && cols.includes(c) })
    return validationError({ [field?.name ?? 'non_field_errors']: [tr(lang, 'This field must be unique.')] })
  }
  if (err.code === '23503') {
    return new ApiError(400, { detail: 'Is referenced by other objects and cannot be deleted', code: 'referenced_by_others' })
  }
  return e
}

const isObject = (v: unknown): v is Values => !!v && typeof v === 'object' && !Array.isArray(v)

/** Resolves the organization of a new org-scoped object: the current org, or in ROOT an explicit `org_id`. */
async function targetOrg(db: DB, def: ResourceDef, ctx: Ctx, body: Values, existing?: Row): Promise<string | Errors | undefined> {
  if (!def.orgScoped) return undefined
  if (existing) return String(existing.org_id)
  if (def.parent) {
    const raw = body[def.parent.field]
    const id = raw && typeof raw === 'object' ? (raw as Values).id : raw
    const parentOrg = isUuid(id)
      ? (await sql<{ org_id: string }>`select org_id from ${sql.table(def.parent.table)} where id = ${normUuid(id)}`.execute(db)).rows[0]?.org_id
      : undefined
    if (parentOrg && ctx.orgId !== ORG_IDS.ROOT && parentOrg !== ctx.orgId) {
      return { [def.parent.field]: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(id) })] }
    }
    if (parentOrg) return parentOrg
    // no parent found: a relation's own error says why (not "Please save in a org"); a plain id falls through
    const field = def.fields.find((f) => f.name === def.parent!.field)
    if (ctx.orgId === ORG_IDS.ROOT && field && isRelation(field)) return undefined
  }
  if (def.orgFrom) {
    const parentOrg = await def.orgFrom(body, ctx, db)
    if (parentOrg) return parentOrg
    // no parent found: its (required) field's error says why, not "Please save in a org"
    if (ctx.orgId === ORG_IDS.ROOT) return undefined
  }
  if (ctx.orgId !== ORG_IDS.ROOT) return ctx.orgId
  return targetOrgOfBody(db, ctx, body)
}

/** In ROOT: the body's explicit `org_id`. */
async function targetOrgOfBody(db: DB, ctx: Ctx, body: Values): Promise<string | Errors> {
  const raw = body.org_id
  if (isUuid(raw) && raw !== ORG_IDS.ROOT) {
    const r = await db.selectFrom('organizations').select('id').where('id', '=', normUuid(raw)).executeTakeFirst()
    if (r) return r.id
  }
  return { org_id: [tr(ctx.lang, 'Please save in a org')] }
}

/**
 * Replaces the references that are not ids by the ids of the targets whose natural key equals them (within the
 * target's scope and the relation's limit); answers the first unknown key instead when one is not found.
 */
async function byNaturalKey(db: DB, target: ResourceDef, rel: Relation, raw: unknown[], ctx: Ctx): Promise<unknown[] | string> {
  const keys = [...new Set(raw.filter((v): v is string => typeof v === 'string' && v.trim() !== '' && !cleanIds(target, [v]).length).map((v) => v.trim()))]
  if (!keys.length) return raw
  const conds = [sql`${col(rel.naturalKey!)} = any(${keys}::text[])`]
  if (!rel.unscoped) conds.push(...scopeConds(target, ctx))
  const limit = rel.limit?.(ctx)
  if (limit) conds.push(limit)
  const rows = (await sql<{ id: string | number; k: string }>`select t.id, ${col(rel.naturalKey!)} as k from ${sql.table(target.table)} as t where ${and(conds)}`.execute(db)).rows
  const found = new Map<string, string | number>()
  for (const r of rows) found.set(r.k, found.has(r.k) ? '' : r.id) // ambiguous in scope (e.g. the root org): unknown
  const missing = keys.find((k) => !found.get(k))
  if (missing !== undefined) return missing
  return raw.map((v) => (typeof v === 'string' && found.get(v.trim()) ? found.get(v.trim()) : v))
}

/** Every referenced id must exist within the target's scope (and the relation's limit). */
async function checkRelations(db: DB, fields: FieldDef[], values: Values, ctx: Ctx): Promise<Errors> {
  const errors: Errors = {}
  for (const f of fields) {
    if (!isRelation(f) || !f.relation || values[f.name] === undefined || values[f.name] === null) continue
    const target = resourceByName(f.relation.resource)
    let raw = f.type === 'm2m' ? (values[f.name] as unknown[]) : [values[f.name]]
    if (f.relation.naturalKey) {
      const keyed = await byNaturalKey(db, target, f.relation, raw, ctx)
      if (typeof keyed === 'string') {
        errors[f.name] = [tr(ctx.lang, 'Object with {slug_name}={value} does not exist.', { slug_name: f.relation.naturalKey, value: keyed })]
        continue
      }
      raw = keyed
    }
    const clean = cleanIds(target, raw)
    const conds = [idsCond(target, clean)]
    if (!f.relation.unscoped) conds.push(...scopeConds(target, ctx))
    const limit = f.relation.limit?.(ctx)
    if (limit) conds.push(limit)
    const found = new Set(clean.length
      ? (await sql<{ id: string | number }>`select t.id from ${sql.table(target.table)} as t where ${and(conds)}`.execute(db)).rows.map((r) => String(r.id))
      : [])
    const missing = raw.find((v) => {
      const c = cleanIds(target, [v])[0]
      return c === undefined || !found.has(String(c))
    })
    if (missing !== undefined) {
      errors[f.name] = [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(missing) })]
      continue
    }
    const normal = raw.map((v) => cleanIds(target, [v])[0]!)
    values[f.name] = f.type === 'm2m' ? [...new Set(normal)] : normal[0]
  }
  return errors
}

async function checkUnique(db: DB, def: ResourceDef, fields: FieldDef[], values: Values, ctx: Ctx, orgId: string | undefined, existing?: Row): Promise<Errors> {
  const errors: Errors = {}
  for (const f of fields) {
    const c = columnOf(f)
    if (!f.unique || !c || values[f.name] === undefined || values[f.name] === null || values[f.name] === '') continue
    const conds = [sql`${col(c)} = ${values[f.name]}`]
    if (f.unique === 'org' && orgId) conds.push(sql`t.org_id = ${orgId}`)
    if (existing) conds.push(sql`t.id <> ${existing.id}`)
    const r = await sql`select 1 from ${sql.table(def.table)} as t where ${and(conds)} limit 1`.execute(db)
    if (r.rows.length) errors[f.name] = [tr(ctx.lang, 'This field must be unique.')]
  }
  return errors
}

/** The body with its `encrypted` fields decrypted, nested objects' and list rows' sub-fields too (an asset's accounts). */
function decryptFields(fields: FieldDef[], body: Values, ctx: Ctx): Values {
  const input: Values = { ...body }
  for (const f of fields) {
    const v = input[f.name]
    if (f.encrypted && typeof v === 'string' && v !== '') input[f.name] = decryptOrPlain(v, ctx.session?.data.privateKey)
    else if (f.children?.length && f.type === 'nested' && isObject(v)) input[f.name] = decryptFields(f.children, v, ctx)
    else if (f.children?.length && f.type === 'nested_many' && Array.isArray(v)) input[f.name] = v.map((x) => (isObject(x) ? decryptFields(f.children!, x, ctx) : x))
  }
  return input
}

/** Parses and validates one object body; returns the prepared write or field errors. */
export async function prepareWrite(db: DB, def: ResourceDef, fields: FieldDef[], body: unknown, ctx: Ctx, info: WriteInfo): Promise<{ prepared?: Prepared; errors?: Errors }> {
  if (!isObject(body)) {
    return { errors: { non_field_errors: [tr(ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: pyType(body) })] } }
  }
  const input = decryptFields(fields, body, ctx)
  const { values, errors } = parseObject(fields, input, ctx, { partial: info.partial, fillDefaults: info.op === 'create' })
  const org = await targetOrg(db, def, ctx, input, info.existing)
  if (org && typeof org === 'object') Object.assign(errors, org)
  const orgId = typeof org === 'string' ? org : undefined
  Object.assign(errors, await checkRelations(db, fields.filter((f) => !errors[f.name]), values, ctx))
  Object.assign(errors, await checkUnique(db, def, fields.filter((f) => !errors[f.name]), values, ctx, orgId, info.existing))
  if (!Object.keys(errors).length && def.hooks?.validate) {
    const more = await def.hooks.validate(values, ctx, info)
    if (more) Object.assign(errors, more)
  }
  if (Object.keys(errors).length) return { errors }
  const columns: Values = {}
  const secrets: string[] = []
  for (const f of fields) {
    if (values[f.name] === undefined) continue
    if ((f.secret || f.write_only) && values[f.name] !== '' && values[f.name] !== null) secrets.push(f.name)
    if (f.toColumns) Object.assign(columns, await f.toColumns(values[f.name], ctx))
  }
  return { prepared: { values, columns, secrets, orgId } }
}

function rowColumns(fields: FieldDef[], values: Values): Values {
  const out: Values = {}
  for (const f of fields) {
    const c = columnOf(f)
    if (!c || f.read_only || f.toColumns || f.write || values[f.name] === undefined) continue
    const v = values[f.name]
    out[c] = isJsonColumn(f) && v !== null ? JSON.stringify(v) : v
  }
  return out
}

/** Replaces the visible links of an m2m field (rows of other orgs / scopes are kept). */
async function writeLinks(tx: DB, def: ResourceDef, f: FieldDef, id: unknown, ids: unknown[], ctx: Ctx, op: 'create' | 'update'): Promise<void> {
  const rel = f.relation!
  const th = rel.through!
  const target = resourceByName(rel.resource)
  if (op === 'update') {
    const conds = [sql`th.${sql.ref(th.from)} = ${id}`]
    const w = th.where?.(ctx)
    if (w) conds.push(w)
    const visible = rel.unscoped ? [] : scopeConds(target, ctx)
    if (visible.length) conds.push(sql`th.${sql.ref(th.to)} in (select t.id from ${sql.table(target.table)} as t where ${and(visible)})`)
    await sql`delete from ${sql.table(th.table)} as th where ${and(conds)}`.execute(tx)
  }
  for (const to of ids) {
    const row: Values = { ...(th.values?.(ctx) ?? {}), [th.from]: id, [th.to]: to }
    const cols = Object.keys(row)
    await sql`insert into ${sql.table(th.table)} (${sql.join(cols.map((c) => sql.ref(c)))})
      values (${sql.join(cols.map((c) => row[c]))}) on conflict do nothing`.execute(tx)
  }
}

function autoColumns(def: ResourceDef, ctx: Ctx, op: 'create' | 'update'): Values {
  const out: Values = {}
  const has = (n: string) => allFields(def).some((f) => f.name === n && columnOf(f) === n)
  if (op === 'create' && has('created_by')) out.created_by = userDisplay(ctx.user).slice(0, 128)
  if (has('updated_by')) out.updated_by = userDisplay(ctx.user).slice(0, 128)
  if (op === 'update' && has('date_updated')) out.date_updated = new Date()
  return out
}

async function saveOne(tx: DB, def: ResourceDef, fields: FieldDef[], p: Prepared, ctx: Ctx, info: WriteInfo): Promise<unknown> {
  const extra = def.hooks?.columns ? await def.hooks.columns(p.values, ctx, { ...info, tx }) : {}
  const cols = { ...autoColumns(def, ctx, info.op), ...rowColumns(fields, p.values), ...p.columns, ...extra }
  let id: unknown
  if (info.op === 'create') {
    if (def.idKind !== 'serial') cols.id = cols.id ?? randomUUID()
    if (def.orgScoped) cols.org_id = p.orgId
    const r = await tx.insertInto(def.table as never).values(cols as never).returning('id' as never).executeTakeFirstOrThrow()
    id = (r as Values).id
  } else {
    id = info.existing!.id
    if (Object.keys(cols).length) await tx.updateTable(def.table as never).set(cols as never).where('id' as never, '=', id as never).execute()
  }
  for (const f of fields) {
    const v = p.values[f.name]
    if (v === undefined) continue
    if (f.write) await f.write(tx, id, v, ctx, info.op)
    else if (f.type === 'm2m' && f.relation?.through) await writeLinks(tx, def, f, id, v as unknown[], ctx, info.op)
  }
  await def.hooks?.afterSave?.(tx, id, p.values, ctx, info)
  return id
}

/** Fields compared in the operate-log diff: the writable fields this write sets (nothing else can change). */
const writtenFields = (fields: FieldDef[], p: Prepared) => fields.filter((f) => !f.read_only && p.values[f.name] !== undefined)
const english = (ctx: Ctx): Ctx => ({ ...ctx, lang: 'en' })
const serializeEnglish = async (tx: DB, def: ResourceDef, row: Row, fields: FieldDef[], ctx: Ctx) =>
  (await serializeRows(def, [row], fields, { db: tx, ctx: english(ctx) }))[0]!

export interface WriteItem { prepared: Prepared; existing?: Row }

/**
 * Saves one prepared write inside a transaction and writes its operate log: the body of `commitWrites`, also for
 * objects written as part of another's transaction (an asset's accounts given on its create).
 */
export async function saveAudited(tx: DB, req: FastifyRequest, def: ResourceDef, fields: FieldDef[], prepared: Prepared, info: { op: 'create' | 'update'; partial: boolean; existing?: Row }): Promise<unknown> {
  const ctx = req.ctx
  const { existing } = info
  const written = writtenFields(fields, prepared)
  const before = existing && !def.noAudit ? await serializeEnglish(tx, def, existing, written, ctx) : undefined
  const id = await saveOne(tx, def, fields, prepared, ctx, { ...info, req })
  if (!def.noAudit) {
    const row = (await fetchRows(tx, def, [], [idsCond(def, [id as string])]))[0] ?? { id }
    const after = await serializeEnglish(tx, def, row, written, ctx)
    const diff = diffOf(written, before, after, prepared.secrets)
    if (info.op === 'create' || diff.length) {
      await recordOperate(tx, ctx, { action: info.op, resourceType: def.verboseName, resource: objectDisplay(def, row), resourceId: id, orgId: auditOrgOf(def, ctx, row), diff })
    }
  }
  return id
}

/** Saves prepared writes in one transaction; returns the saved objects serialized with `outFields`. */
export async function commitWrites(req: FastifyRequest, def: ResourceDef, fields: FieldDef[], items: WriteItem[], info: { op: 'create' | 'update'; partial: boolean }, outFields: FieldDef[]): Promise<Row[]> {
  const ctx = req.ctx
  const saved: Array<{ id: unknown; values: Values; existing?: Row }> = []
  const out = await withTx(ctx.db, def, async (tx) => {
    const ids: unknown[] = []
    saved.length = 0
    for (const item of items) {
      let existing = item.existing
      if (existing) {
        const locked = await fetchRows(tx, def, [], [idsCond(def, [existing.id])], { forUpdate: true })
        if (!locked[0]) throw new ApiError(404, { detail: tr(ctx.lang, '{model} object does not exist.', { model: tr(ctx.lang, def.verboseName) }), code: 'object_does_not_exist' })
        existing = locked[0]
      }
      const id = await saveAudited(tx, req, def, fields, item.prepared, { ...info, existing })
      ids.push(id)
      saved.push({ id, values: item.prepared.values, existing })
    }
    const rows = await fetchRows(tx, def, outFields, [idsCond(def, ids as string[])])
    const byId = new Map(rows.map((r) => [String(r.id), r]))
    const ordered = ids.map((id) => byId.get(String(id))).filter((r): r is Row => !!r)
    return serializeRows(def, ordered, outFields, { db: tx, ctx })
  }, ctx.lang)
  const after = def.hooks?.afterCommit
  if (after) for (const s of saved) await after(s.id, s.values, ctx, { ...info, existing: s.existing, req })
  return out
}

/** Deletes rows (already selected within scope) in one transaction, with the per-object rules. */
export async function deleteRows(req: FastifyRequest, def: ResourceDef, rows: Row[]): Promise<void> {
  const ctx = req.ctx
  await withTx(ctx.db, def, async (tx) => {
    for (const row of rows) {
      await def.hooks?.beforeDelete?.(tx, row, ctx)
      if (def.hooks?.destroy) await def.hooks.destroy(tx, row, ctx)
      else await sql`delete from ${sql.table(def.table)} where id = ${row.id}`.execute(tx)
      if (!def.noAudit) {
        await recordOperate(tx, ctx, { action: 'delete', resourceType: def.verboseName, resource: objectDisplay(def, row), resourceId: row.id, orgId: auditOrgOf(def, ctx, row) })
      }
    }
  }, ctx.lang)
}

/** Validates many bodies; throws a 400 array aligned with the input when any fails. */
export async function prepareMany(db: DB, def: ResourceDef, fields: FieldDef[], bodies: unknown[], ctx: Ctx, info: (i: number) => WriteInfo, preErrors: Array<Errors | undefined> = []): Promise<Prepared[]> {
  const out: Prepared[] = []
  const errors: Errors[] = []
  let bad = false
  const seen = new Map<string, Set<unknown>>()
  for (let i = 0; i < bodies.length; i++) {
    const pre = preErrors[i]
    if (pre) {
      bad = true
      errors.push(pre)
      continue
    }
    const r = await prepareWrite(db, def, fields, bodies[i], ctx, info(i))
    const e: Errors = { ...(r.errors ?? {}) }
    if (r.prepared) {
      for (const f of fields) {
        const v = r.prepared.values[f.name]
        if (!f.unique || v === undefined || v === null || v === '') continue
        const key = f.unique === 'org' ? `${r.prepared.orgId}:${String(v)}` : String(v)
        const set = seen.get(f.name) ?? seen.set(f.name, new Set()).get(f.name)!
        if (set.has(key)) e[f.name] = [tr(ctx.lang, 'This field must be unique.')]
        set.add(key)
      }
      out.push(r.prepared)
    }
    if (Object.keys(e).length) bad = true
    errors.push(e)
  }
  if (bad) throw new ApiError(400, errors)
  return out
}

export type { Action }
