/**
 * Exact counts of filtered, dated lists, with closed days cached (migration 032; docs/decisions/filtered-counts-of-dated-lists-a-per-day.md "Filtered
 * counts of dated lists"). A table registered in `day_count_tables` has a generation per UTC day that every write
 * to that day bumps. A list filtered by `date_from`/`date_to` on that table's date column counts:
 *   - each whole UTC day inside the range that has ended: from `day_counts` when the cached count was taken at the
 *     day's current generation;
 *   - the rest of the range (its partial first and last days, today, the future) live.
 * When a day is missing, the whole range is counted in one pass grouped by day (the cost of an uncached count)
 * and the missing days are cached with the generation read in the same statement.
 * The sum equals `count(*)` over the whole range; the cache key is a hash of the list's other conditions (their
 * SQL and parameters), so every search and filter has its own counts. Those conditions must not depend on the
 * time of the request (true of the audit tables' filters).
 */
import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { and, col, type ListPlan } from './query.ts'
import type { Cond, ResourceDef } from './types.ts'

const DAY_MS = 86_400_000
/** More whole days than this: counted live (a cache miss over years would be thousands of day counts). */
const MAX_DAYS = 400
/** Cached counts older than this are dropped when new ones are written (bounds the table). */
const KEEP = '1 day'

const tracked = new WeakMap<object, Promise<Map<string, string>>>()

function trackedTables(db: DB): Promise<Map<string, string>> {
  let p = tracked.get(db)
  if (!p) {
    p = db.selectFrom('day_count_tables').select(['tbl', 'col']).execute().then((rows) => new Map(rows.map((x) => [x.tbl, x.col])))
    p.catch(() => tracked.delete(db))
    tracked.set(db, p)
  }
  return p
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/**
 * The exact count of the rows matching `conds` (alias `t`) dated in [from, to] through the per-day cache (a
 * dashboard's totals), or undefined when the cache does not apply (see countByDays).
 */
export function countDated(db: DB, def: ResourceDef, conds: Cond[], range: { from: Date; to?: Date }, now = Date.now()): Promise<number | undefined> {
  const plan: ListPlan = { conds, scope: conds, order: sql``, filtered: true, hasSpm: false, hasIds: false, unfiltered: false, range, rest: conds }
  return countByDays(db, def, plan, now)
}

/**
 * The exact count of a filtered list through the per-day cache, or undefined when it does not apply (the table is
 * not tracked, no `date_from`, or fewer than two whole closed days in the range).
 */
export async function countByDays(db: DB, def: ResourceDef, plan: ListPlan, now = Date.now()): Promise<number | undefined> {
  const from = plan.range?.from
  if (!def.dateRange || !from) return undefined
  if ((await trackedTables(db)).get(def.table) !== def.dateRange) return undefined
  const to = plan.range?.to
  const first = Math.ceil(from.getTime() / DAY_MS) * DAY_MS
  const end = Math.min(to ? Math.floor((to.getTime()) / DAY_MS) * DAY_MS : Infinity, Math.floor(now / DAY_MS) * DAY_MS)
  const days = (end - first) / DAY_MS
  if (!(days >= 2) || days > MAX_DAYS) return undefined
  const dayList: string[] = []
  for (let d = first; d < end; d += DAY_MS) dayList.push(isoDay(d))

  const rest = and(plan.rest)
  const compiled = rest.compile(db)
  const sig = createHash('sha256').update(compiled.sql).update('\0').update(JSON.stringify(compiled.parameters)).digest('base64url')
  const dateCol = col(def.dateRange)

  const cached = await sql<{ day: string; n: string }>`
    select to_char(c.day, 'YYYY-MM-DD') as day, c.n from day_counts c
    left join day_generations g on g.tbl = c.tbl and g.day = c.day
    where c.tbl = ${def.table} and c.sig = ${sig} and c.day = any(${dayList}::date[]) and c.gen = coalesce(g.gen, 0)`.execute(db)
  let total = 0
  const have = new Set<string>()
  for (const r of cached.rows) {
    have.add(r.day)
    total += Number(r.n)
  }
  const missing = dayList.filter((d) => !have.has(d))
  const lo = new Date(first)
  const hi = new Date(end)
  const toCond = to ? sql` and ${dateCol} <= ${to}` : sql``
  if (!missing.length) {
    // Every whole closed day cached: count the range's partial days and everything from the start of today on.
    // Searched, those rows are found by the date index first (an `offset 0` subquery the planner keeps apart),
    // then filtered: left to itself, the planner ANDs in a trigram index whose posting lists span the whole table
    // (86 ms against 23 ms for a week's edges of 1,000,000 commands); other filters keep their own indexes (the
    // dangerous commands' partial index). The scope (organization) goes inside, as it leads the date index.
    const edgeRange = sql`((${dateCol} >= ${from} and ${dateCol} < ${lo}) or (${dateCol} >= ${hi}${toCond}))`
    const edges = plan.searched && plan.scope.length
      ? await sql<{ n: string }>`select count(*) as n from (select t.* from ${sql.table(def.table)} as t where ${and(plan.scope)} and ${edgeRange} offset 0) as t
          where ${rest}`.execute(db)
      : await sql<{ n: string }>`select count(*) as n from ${sql.table(def.table)} as t where ${rest} and ${edgeRange}`.execute(db)
    return total + Number(edges.rows[0]?.n ?? 0)
  }
  // Otherwise one pass over the whole range (what an uncached count costs), counted per UTC day; the missing days'
  // counts are kept with the generation read in the same statement (one snapshot).
  const fresh = await sql<{ day: string | null; gen: string | null; n: string }>`
    with c as (
      select (${dateCol} at time zone 'UTC')::date as day, count(*) as n from ${sql.table(def.table)} as t
      where ${rest} and ${dateCol} >= ${from}${toCond} group by 1
    ), g as (
      select d.day, coalesce(g.gen, 0) as gen from unnest(${missing}::date[]) as d(day)
      left join day_generations g on g.tbl = ${def.table} and g.day = d.day
    )
    select to_char(coalesce(c.day, g.day), 'YYYY-MM-DD') as day, g.gen, coalesce(c.n, 0) as n from c full join g on g.day = c.day`.execute(db)
  let all = 0
  const keep: Array<{ day: string; gen: string; n: string }> = []
  for (const r of fresh.rows) {
    all += Number(r.n)
    if (r.gen !== null && r.day !== null) keep.push({ day: r.day, gen: r.gen, n: r.n })
  }
  await db.deleteFrom('day_counts').where('computed', '<', sql<Date>`now() - ${KEEP}::interval`).execute()
  await sql`insert into day_counts (tbl, sig, day, gen, n)
    select ${def.table}, ${sig}, x.day, x.gen, x.n
    from unnest(${keep.map((r) => r.day)}::date[], ${keep.map((r) => r.gen)}::bigint[], ${keep.map((r) => r.n)}::bigint[]) as x(day, gen, n)
    order by x.day
    on conflict (tbl, sig, day) do update set gen = excluded.gen, n = excluded.n, computed = now()`.execute(db)
  return all
}
