/**
 * Exact counts of filtered, dated lists, with closed days cached (migration 032; docs/decisions.md "Filtered
 * counts of dated lists"). A table registered in `day_count_tables` has a generation per UTC day that every write
 * to that day bumps. A list filtered by `date_from`/`date_to` on that table's date column counts:
 *   - each whole UTC day inside the range that has ended: from `day_counts` when the cached count was taken at the
 *     day's current generation, else counted now (and cached with the generation read in the same statement);
 *   - the rest of the range (its partial first and last days, today, the future) live.
 * The sum equals `count(*)` over the whole range; the cache key is a hash of the list's other conditions (their
 * SQL and parameters), so every search and filter has its own counts. Those conditions must not depend on the
 * time of the request (true of the audit tables' filters).
 */
import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { and, col, type ListPlan } from './query.ts'
import type { ResourceDef } from './types.ts'

const DAY_MS = 86_400_000
/** More whole days than this: counted live (a cache miss over years would be thousands of day counts). */
const MAX_DAYS = 400
/** Cached counts older than this are dropped when new ones are written (bounds the table). */
const KEEP = '1 day'

const tracked = new WeakMap<object, Promise<Map<string, string>>>()

function trackedTables(db: DB): Promise<Map<string, string>> {
  let p = tracked.get(db)
  if (!p) {
    p = sql<{ tbl: string; col: string }>`select tbl, col from day_count_tables`.execute(db).then((r) => new Map(r.rows.map((x) => [x.tbl, x.col])))
    p.catch(() => tracked.delete(db))
    tracked.set(db, p)
  }
  return p
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

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
  if (missing.length) {
    // One statement: each day's count and the generation it was taken at share a snapshot.
    const fresh = await sql<{ day: string; gen: string; n: string }>`
      select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(g.gen, 0) as gen,
        (select count(*) from ${sql.table(def.table)} as t where ${rest}
          and ${dateCol} >= (d.day::timestamp at time zone 'UTC') and ${dateCol} < ((d.day + 1)::timestamp at time zone 'UTC')) as n
      from unnest(${missing}::date[]) as d(day)
      left join day_generations g on g.tbl = ${def.table} and g.day = d.day`.execute(db)
    for (const r of fresh.rows) total += Number(r.n)
    await sql`delete from day_counts where computed < now() - ${KEEP}::interval`.execute(db)
    await sql`insert into day_counts (tbl, sig, day, gen, n)
      select ${def.table}, ${sig}, x.day, x.gen, x.n
      from unnest(${fresh.rows.map((r) => r.day)}::date[], ${fresh.rows.map((r) => r.gen)}::bigint[], ${fresh.rows.map((r) => r.n)}::bigint[]) as x(day, gen, n)
      order by x.day
      on conflict (tbl, sig, day) do update set gen = excluded.gen, n = excluded.n, computed = now()`.execute(db)
  }
  // The range's partial days, and everything from the start of today on.
  const lo = new Date(first)
  const hi = new Date(end)
  const edges = await sql<{ n: string }>`select count(*) as n from ${sql.table(def.table)} as t where ${rest}
    and ((${dateCol} >= ${from} and ${dateCol} < ${lo}) or (${dateCol} >= ${hi}${to ? sql` and ${dateCol} <= ${to}` : sql``}))`.execute(db)
  return total + Number(edges.rows[0]?.n ?? 0)
}
