/**
 * List queries (contract §1.3, §1.4): scope, search, exact filters, ids, spm, date range, ordering,
 * limit/offset. Every query aliases the resource table as `t`.
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { parseDateTime } from '../http/datetime.ts'
import { validationError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { fieldByName, filterDefs, orderNames } from './fields.ts'
import { columnOf } from './kinds.ts'
import { isUuid, normUuid } from './parse.ts'
import { findResource } from './registry.ts'
import { spmIds } from './spm.ts'
import type { Cond, Ctx, FieldDef, ResourceDef, Row } from './types.ts'

export const MAX_LIMIT_PER_PAGE = 100
export const EXPORT_LIMIT = 10_000

export type Query = Record<string, string | string[] | undefined>

/** The last value of a query parameter, without NUL characters (PostgreSQL text cannot hold them). */
export const qstr = (q: Query, k: string): string | undefined => {
  const v = q[k]
  const last = Array.isArray(v) ? v[v.length - 1] : v
  return typeof last === 'string' ? last.replaceAll('\u0000', '') : undefined
}

export const col = (name: string, alias = 't') => sql.ref(`${alias}.${name}`)
export const and = (conds: Cond[]): Cond => (conds.length ? sql`(${sql.join(conds, sql` and `)})` : sql`true`)

/** The expression searched by `search`: the search columns joined by spaces (a term has no spaces, so
 * "contained in the joined text" = "contained in one column"). The trigram indexes repeat it exactly. */
export function searchExpression(def: ResourceDef, alias = 't'): string {
  const cols = (def.search ?? []).map((n) => columnOf(fieldByName(def, n) ?? { name: n, type: 'string' }) ?? n)
  return `(${cols.map((c) => `coalesce(${alias}.${c}::text, '')`).join(` || ' ' || `)})`
}

/** Ids parsed for this resource's id kind, invalid ones dropped. */
export function cleanIds(def: ResourceDef, raw: unknown[]): Array<string | number> {
  const out: Array<string | number> = []
  for (const v of raw) {
    if (def.idKind === 'serial') {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v) : NaN
      if (Number.isInteger(n)) out.push(n)
    } else if (isUuid(v)) out.push(normUuid(v))
  }
  return out
}

export function idsCond(def: ResourceDef, ids: Array<string | number>, alias = 't'): Cond {
  if (!ids.length) return sql`false`
  return def.idKind === 'serial' ? sql`${col('id', alias)} = any(${ids}::bigint[])` : sql`${col('id', alias)} = any(${ids}::uuid[])`
}

/** Base scope of every query: organization and the resource's own restriction. */
export function scopeConds(def: ResourceDef, ctx: Ctx, alias = 't'): Cond[] {
  const out: Cond[] = []
  if (def.orgScoped && ctx.orgId !== ORG_IDS.ROOT) out.push(sql`${col('org_id', alias)} = ${ctx.orgId}`)
  const extra = def.scope?.(ctx)
  if (extra) out.push(alias === 't' ? extra : sql`exists (select 1 from ${sql.table(def.table)} as t where t.id = ${col('id', alias)} and ${extra})`)
  return out
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

function boolParam(v: string): boolean | undefined {
  if (/^(true|1|yes|on)$/i.test(v)) return true
  if (/^(false|0|no|off)$/i.test(v)) return false
  return undefined
}

function selectError(ctx: Ctx, value: string): string[] {
  return [tr(ctx.lang, 'Select a valid choice. {value} is not one of the available choices.', { value })]
}

/** An exact filter on a declared field. */
function fieldFilter(def: ResourceDef, f: FieldDef, value: string, ctx: Ctx): Cond | string[] | undefined {
  if (value === '') return undefined
  const column = columnOf(f)
  const target = f.relation ? findResource(f.relation.resource) : undefined
  const refKindSerial = target?.idKind === 'serial'
  if (f.type === 'm2m' && f.relation?.through) {
    const th = f.relation.through
    const ok = refKindSerial ? /^\d+$/.test(value) : isUuid(value)
    if (!ok) return selectError(ctx, value)
    const extra = th.where?.(ctx)
    return sql`exists (select 1 from ${sql.table(th.table)} as th where th.${sql.ref(th.from)} = t.id and th.${sql.ref(th.to)} = ${refKindSerial ? Number(value) : normUuid(value)}${extra ? sql` and ${extra}` : sql``})`
  }
  const expr = column ? col(column) : f.expr ? sql.raw(f.expr) : undefined
  if (!expr) return undefined
  switch (f.type) {
    case 'boolean': {
      const b = boolParam(value)
      return b === undefined ? undefined : sql`${expr} = ${b}`
    }
    case 'integer':
      return /^-?\d{1,15}$/.test(value) ? sql`${expr} = ${Number(value)}` : [tr(ctx.lang, 'Enter a whole number.')]
    case 'choice':
    case 'labeled_choice': {
      const c = f.choices?.find((x) => String(x.value) === value)
      return c ? sql`${expr} = ${c.value}` : selectError(ctx, value)
    }
    case 'uuid':
      return isUuid(value) ? sql`${expr} = ${normUuid(value)}` : [tr(ctx.lang, 'Enter a valid UUID.')]
    case 'fk':
    case 'pk':
      if (refKindSerial) return /^\d+$/.test(value) ? sql`${expr} = ${Number(value)}` : selectError(ctx, value)
      return isUuid(value) ? sql`${expr} = ${normUuid(value)}` : selectError(ctx, value)
    default:
      if (f.name === 'id' || f.name === 'org_id') {
        if (def.idKind === 'serial' && f.name === 'id') return /^\d+$/.test(value) ? sql`${expr} = ${Number(value)}` : [tr(ctx.lang, 'Enter a whole number.')]
        return isUuid(value) ? sql`${expr} = ${normUuid(value)}` : [tr(ctx.lang, 'Enter a valid UUID.')]
      }
      return sql`${expr} = ${value}`
  }
}


export interface ListPlan {
  conds: Cond[]
  /** Conditions of the base scope only (for the bulk-delete guard). */
  scope: Cond[]
  order: Cond
  /** Any user filter (search, field filters, ids, spm, dates). */
  filtered: boolean
  hasSpm: boolean
  hasIds: boolean
  /** Only the organization scope applies (no filter, no resource scope, no caller condition): the count may
   * come from the maintained per-org counter (migration 024). */
  unfiltered: boolean
  /** `date_from`/`date_to` on the resource's `dateRange` column, and every condition but those two (the
   * per-day count cache, daycounts.ts, counts closed days of `rest` and the range's edges live). */
  range?: { from?: Date; to?: Date }
  rest: Cond[]
  /** A `search` term applies (trigram-indexed: see daycounts.ts for when that index is avoided). */
  searched?: boolean
  /** The count when a single filter with a kept count (FilterDef.count) is the only condition. */
  soleCount?: () => Promise<number | undefined>
}

/** Builds the conditions and ordering of a list request. Bad filter values → 400 field errors. */
export async function planList(db: DB, def: ResourceDef, req: FastifyRequest, extra?: Cond, ctx: Ctx = req.ctx): Promise<ListPlan> {
  const q = (req.query ?? {}) as Query
  const scope = scopeConds(def, ctx)
  const conds = [...scope]
  if (extra) conds.push(extra)
  let filtered = false

  let searched = false
  const search = qstr(q, 'search')
  if (search && def.search?.length) {
    const terms = search.split(/[\s,，]+/).filter(Boolean).slice(0, 10)
    if (def.searchColumn) {
      for (const term of terms) conds.push(sql`${col(def.searchColumn)} like lower(${`%${escapeLike(term)}%`})`)
    } else {
      const expr = sql.raw(searchExpression(def))
      for (const term of terms) conds.push(sql`${expr} ilike ${`%${escapeLike(term)}%`}`)
    }
    if (terms.length) filtered = searched = true
  }

  const errors: Record<string, string[]> = {}
  const counters: Array<() => Promise<number | undefined>> = []
  for (const fd of filterDefs(def)) {
    const name = typeof fd === 'string' ? fd : fd.name
    const value = qstr(q, name)
    if (value === undefined) continue
    let c: Cond | string[] | undefined
    if (typeof fd === 'string') {
      const f = fieldByName(def, fd)
      c = f ? fieldFilter(def, f, value, ctx) : undefined
    } else {
      try {
        c = await fd.apply(value, ctx, q)
      } catch (e) {
        const body = (e as { body?: Record<string, string[]> }).body
        if (body && typeof body === 'object') Object.assign(errors, body)
        else throw e
        continue
      }
    }
    if (Array.isArray(c)) errors[name] = c
    else if (c) {
      conds.push(c)
      filtered = true
      if (typeof fd !== 'string' && fd.count) {
        const count = fd.count
        counters.push(() => count(value, ctx, q))
      }
    }
  }
  if (Object.keys(errors).length) throw validationError(errors)

  const ids = qstr(q, 'ids')
  const hasIds = ids !== undefined && ids !== ''
  if (hasIds) {
    conds.push(idsCond(def, cleanIds(def, ids.split(','))))
    filtered = true
  }
  const spm = qstr(q, 'spm')
  const hasSpm = spm !== undefined && spm !== ''
  if (hasSpm) {
    conds.push(idsCond(def, cleanIds(def, await spmIds(db, spm))))
    filtered = true
  }

  const rest = [...conds]
  let range: ListPlan['range']
  if (def.dateRange) {
    for (const [key, op] of [['date_from', '>='], ['date_to', '<=']] as const) {
      const v = qstr(q, key)
      const d = v ? parseDateTime(v, ctx.tz) : undefined
      if (d) {
        conds.push(sql`${col(def.dateRange)} ${sql.raw(op)} ${d}`)
        range = { ...range, [key === 'date_from' ? 'from' : 'to']: d }
        filtered = true
      }
    }
  }
  const unfiltered = !filtered && !extra && !def.scope && conds.length === scope.length
  const soleCount = !extra && !def.scope && counters.length === 1 && conds.length === scope.length + 1 ? counters[0] : undefined
  return { conds, scope, order: orderBy(def, qstr(q, 'order')), filtered, hasSpm, hasIds, unfiltered, range, rest, soleCount, searched }
}

/**
 * `order=a,-b`: known orderable fields only; none → the default order. The id breaks ties in the direction of
 * the first key, so an index on (key, id) serves both directions.
 */
export function orderBy(def: ResourceDef, param: string | undefined): Cond {
  const allowed = orderNames(def)
  const parts: Cond[] = []
  let firstDesc: boolean | undefined
  const wanted = (param ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  const pick = (names: string[], strict: boolean) => {
    for (const item of names) {
      const desc = item.startsWith('-')
      const name = desc ? item.slice(1) : item
      if (strict && !allowed.has(name)) continue
      const f = fieldByName(def, name)
      const column = f ? columnOf(f) : name
      const expr = f?.expr ? sql.raw(f.expr) : column ? col(column) : undefined
      if (!expr) continue
      firstDesc ??= desc
      parts.push(sql`${expr} ${sql.raw(desc ? 'desc' : 'asc')}`)
    }
  }
  pick(wanted, true)
  if (!parts.length) pick(def.ordering?.default ?? [], false)
  parts.push(sql`t.id ${sql.raw(firstDesc ? 'desc' : 'asc')}`)
  return sql.join(parts, sql`, `)
}

/** `select t.*, <exprs>` for the requested fields. */
export function selectList(def: ResourceDef, fields: FieldDef[]): Cond {
  const exprs = fields.filter((f) => f.expr).map((f) => sql`${sql.raw(f.expr!)} as ${sql.ref(f.name)}`)
  return exprs.length ? sql`t.*, ${sql.join(exprs, sql`, `)}` : sql`t.*`
}

/** Filtered lists of at most this many rows read their page through the filter first (see fetchRows). */
export const SMALL_MATCH = 5_000

/**
 * `fence`: the matching rows are found first (an `offset 0` subquery the planner keeps apart: the filter's own
 * indexes, e.g. trigram), then ordered. Without it, a selective search under an order the planner misjudges walks
 * the order's index row by row; with it, at most SMALL_MATCH rows are sorted (the caller knows the exact count).
 */
export async function fetchRows(db: DB, def: ResourceDef, fields: FieldDef[], conds: Cond[], opts: { order?: Cond; limit?: number; offset?: number; forUpdate?: boolean; fence?: boolean } = {}): Promise<Row[]> {
  const order = opts.order ? sql`order by ${opts.order}` : sql``
  const page = sql`${opts.limit !== undefined ? sql`limit ${opts.limit}` : sql``} ${opts.offset ? sql`offset ${opts.offset}` : sql``}`
  const source = opts.fence
    ? sql`(select t.* from ${sql.table(def.table)} as t where ${and(conds)} offset 0) as t`
    : sql`${sql.table(def.table)} as t where ${and(conds)}`
  if (opts.limit !== undefined && fields.some((f) => f.expr)) {
    // Page first, computed columns after: the expressions (often subqueries) run for the page's rows only.
    const r = await sql<Row>`select ${selectList(def, fields)} from (select t.* from ${source} ${order} ${page}) as t ${order}`.execute(db)
    return r.rows
  }
  const r = await sql<Row>`select ${selectList(def, fields)} from ${source} ${order} ${page}
    ${opts.forUpdate ? sql`for update` : sql``}`.execute(db)
  return r.rows
}

/** Tables whose per-org row counts triggers keep (migration 024), read once per database handle. */
const countedTables = new WeakMap<object, Promise<Set<string>>>()

function countedSet(db: DB): Promise<Set<string>> {
  let p = countedTables.get(db)
  if (!p) {
    p = db.selectFrom('row_count_tables').select('tbl').execute().then((rows) => new Set(rows.map((x) => x.tbl)))
    p.catch(() => countedTables.delete(db))
    countedTables.set(db, p)
  }
  return p
}

/**
 * The exact number of rows of an unfiltered list: from the maintained counter when the table has one (one row
 * per org instead of a scan of every row), else counted.
 */
export async function countAll(db: DB, def: ResourceDef, ctx: Ctx, conds: Cond[]): Promise<number> {
  if ((await countedSet(db)).has(def.table)) {
    const org = def.orgScoped && ctx.orgId !== ORG_IDS.ROOT ? sql`and org_id = ${ctx.orgId}` : sql``
    const r = await sql<{ n: number }>`select coalesce(sum(n), 0)::bigint as n from row_counts where tbl = ${def.table} ${org}`.execute(db)
    return Number(r.rows[0]?.n ?? 0)
  }
  return countRows(db, def, conds)
}

export async function countRows(db: DB, def: ResourceDef, conds: Cond[]): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(def.table)} as t where ${and(conds)}`.execute(db)
  return Number(r.rows[0]?.n ?? 0)
}

/** Positive integer `limit` → paginate (capped at MAX_LIMIT_PER_PAGE); anything else → bare array. */
export function pageParams(q: Query): { limit: number; offset: number } | undefined {
  const l = qstr(q, 'limit')
  if (!l || !/^\d+$/.test(l.trim())) return undefined
  const limit = Math.min(Number(l), MAX_LIMIT_PER_PAGE)
  if (limit <= 0) return undefined
  const o = qstr(q, 'offset')
  const offset = o && /^\d{1,15}$/.test(o.trim()) ? Number(o) : 0
  return { limit, offset }
}

/** Absolute URL of the request with some parameters replaced (DRF `replace_query_param`: sorted keys). */
export function pageUrl(req: FastifyRequest, set: Record<string, number | undefined>): string {
  const [path, query = ''] = req.url.split('?', 2) as [string, string?]
  const params = new URLSearchParams(query)
  for (const [k, v] of Object.entries(set)) {
    if (v === undefined) params.delete(k)
    else params.set(k, String(v))
  }
  params.sort()
  const qs = params.toString()
  return `${req.protocol}://${req.host}${path}${qs ? `?${qs}` : ''}`
}

export function pageLinks(req: FastifyRequest, count: number, limit: number, offset: number): { next: string | null; previous: string | null } {
  const next = offset + limit < count ? pageUrl(req, { limit, offset: offset + limit }) : null
  let previous: string | null = null
  if (offset > 0) previous = offset - limit <= 0 ? pageUrl(req, { limit, offset: undefined }) : pageUrl(req, { limit, offset: offset - limit })
  return { next, previous }
}
