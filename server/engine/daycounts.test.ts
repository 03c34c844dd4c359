import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ORG_IDS } from '../rbac/catalog.ts'
import { searchExpression } from './query.ts'
import { allResources } from './registry.ts'
import { dbKind } from '../testing.ts'
import { useTestServer } from '../use-test-server.ts'

const COMMANDS = '/api/v1/terminal/commands/'
const DAY = 86_400_000

describe(`per-day cached counts of dated lists (${dbKind()})`, () => {
  const s = useTestServer()

  it('counts a searched, filtered date range exactly through inserts, deletes, updates and truncation of cached days', async () => {
    const db = s.t.database.db
    const now = Date.now()
    // 12 days of commands, 3 hours apart, two inputs, some dangerous, in two orgs
    const start = Math.floor((now - 12 * DAY) / 1000)
    await sql`insert into commands (id, "user", asset, account, input, session, risk_level, timestamp, org_id)
      select gen_random_uuid(), 'User ' || (i % 3), 'host-' || (i % 5), 'root', case when i % 2 = 0 then 'df -h' else 'ls -la' end, 's-' || i,
        case when i % 7 = 0 then 5 else 0 end, ${start} + i * 10800, ${ORG_IDS.DEFAULT}
      from generate_series(0, 95) as i`.execute(db)
    const org = (await s.admin.post('/api/v1/orgs/orgs/', { name: 'daycount-org' })).json().id as string
    await sql`insert into commands (id, "user", asset, input, session, timestamp, org_id)
      select gen_random_uuid(), 'User 1', 'host-1', 'df -h', 'o-' || i, ${start} + i * 7200, ${org} from generate_series(0, 20) as i`.execute(db)

    // ranges not on day boundaries (lina sends "7 days ago, now" and "end of tomorrow"), searches and filters
    const iso = (ms: number) => new Date(ms).toISOString()
    const ranges = [[now - 7 * DAY - 3_600_000, now], [now - 10 * DAY, now + DAY], [now - 9.5 * DAY, now - 2.25 * DAY], [now - 3 * DAY, undefined]] as const
    const queries = ['', '&search=df', '&search=HOST-1', '&search=Df%20-H', '&risk_level=5', '&search=host-2&risk_level=0', '&input=ls']
    const live = async (from: number, to: number | undefined, q: string, orgId: string | undefined) => {
      const p = new URLSearchParams(q.slice(1))
      const search = p.get('search')?.toLowerCase()
      const r = await sql<{ n: number }>`select count(*)::int as n from commands where datetime >= ${new Date(from)}
        ${to ? sql`and datetime <= ${new Date(to)}` : sql``}
        ${orgId ? sql`and org_id = ${orgId}` : sql``}
        ${search ? sql`and (input || ' ' || "user" || ' ' || asset || ' ' || account) ilike ${`%${search}%`}` : sql``}
        ${p.get('risk_level') ? sql`and risk_level = ${Number(p.get('risk_level'))}` : sql``}
        ${p.get('input') ? sql`and input like ${`%${p.get('input')}%`}` : sql``}`.execute(db)
      return r.rows[0]!.n
    }
    const check = async (label: string) => {
      for (const [from, to] of ranges) {
        for (const q of queries) {
          const url = `${COMMANDS}?limit=15&date_from=${encodeURIComponent(iso(from))}${to ? `&date_to=${encodeURIComponent(iso(to))}` : ''}${q}`
          const body = (await s.admin.get(url)).json()
          expect(body.count, `${label}: ${url}`).toBe(await live(from, to, q, ORG_IDS.DEFAULT))
          expect(body.results.length, url).toBe(Math.min(15, body.count))
        }
      }
    }
    await check('first')
    // every stored search column holds exactly the lower-cased search expression
    const stored = allResources().filter((d) => d.searchColumn)
    expect(stored.map((d) => d.table)).toContain('commands')
    for (const d of stored) {
      const r = await sql<{ n: number; bad: number }>`select count(*)::int as n,
        count(*) filter (where ${sql.ref(`t.${d.searchColumn!}`)} is distinct from lower(${sql.raw(searchExpression(d))}))::int as bad from ${sql.table(d.table)} as t`.execute(db)
      expect(r.rows[0]!.n, d.table).toBeGreaterThan(0)
      expect(r.rows[0]!.bad, d.table).toBe(0)
    }
    const cached = (await sql<{ n: number }>`select count(*)::int as n from day_counts where tbl = 'commands'`.execute(db)).rows[0]!.n
    expect(cached).toBeGreaterThan(0)
    await check('from the cache')

    // writes to closed, cached days: an insert, a delete, an update of a filtered column, a move to another day
    const day5 = Math.floor((now - 5 * DAY) / 1000)
    await sql`insert into commands (id, "user", asset, input, session, risk_level, timestamp, org_id)
      values (gen_random_uuid(), 'User 1', 'host-2', 'df -h', 'late', 5, ${day5}, ${ORG_IDS.DEFAULT})`.execute(db)
    await check('after an insert into a past day')
    await sql`delete from commands where id = (select id from commands where input = 'ls -la' and timestamp < ${day5} order by timestamp desc limit 1)`.execute(db)
    await check('after a delete')
    await sql`update commands set risk_level = 5 where id in (select id from commands where risk_level = 0 and timestamp < ${day5} order by timestamp limit 3)`.execute(db)
    await check('after an update')
    await sql`update commands set timestamp = timestamp - 86400 where id in (select id from commands where timestamp > ${day5} order by timestamp limit 2)`.execute(db)
    await check('after moving rows to another day')
    // the other org's rows never count in this org
    await sql`delete from commands where org_id = ${org} and timestamp < ${day5}`.execute(db)
    await check('after a delete in another org')
    await sql`truncate commands`.execute(db)
    await check('after truncation')
    expect((await sql<{ n: number }>`select count(*)::int as n from day_counts where tbl = 'commands'`.execute(db)).rows[0]!.n).toBeGreaterThan(0)
  })
})
