import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ORG_IDS } from '../rbac/catalog.ts'
import { dbKind } from '../testing.ts'
import { useTestServer } from '../use-test-server.ts'

const ASSETS = '/api/v1/assets/assets/'

describe(`maintained list counts (${dbKind()})`, () => {
  const s = useTestServer()

  /** The counters of every counted table equal a real count per org (zero counters aside). */
  async function expectCountersExact() {
    const db = s.t.database.db
    const tables = (await sql<{ tbl: string }>`select tbl from row_count_tables order by tbl`.execute(db)).rows.map((r) => r.tbl)
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'assets', 'commands', 'terminal_sessions']))
    for (const tbl of tables) {
      const real = (await sql<{ org_id: string; n: number }>`select org_id, count(*)::int as n from ${sql.table(tbl)} group by org_id order by org_id`.execute(db)).rows
      const kept = (await sql<{ org_id: string; n: number }>`select org_id, n::int as n from row_counts where tbl = ${tbl} and n <> 0 order by org_id`.execute(db)).rows
      expect(kept, tbl).toEqual(real)
    }
  }

  it('keeps the unfiltered count exact through inserts, org moves, deletes and truncation', async () => {
    const db = s.t.database.db
    const listed = async () => (await s.admin.get(`${ASSETS}?limit=1`)).json().count as number
    await expectCountersExact()
    const before = await listed()
    await sql`insert into assets (id, name, address, platform_id, category, type, org_id)
      select gen_random_uuid(), 'count-' || i, '10.77.0.' || i, 1, 'host', 'linux', ${ORG_IDS.DEFAULT} from generate_series(1, 3) as i`.execute(db)
    expect(await listed()).toBe(before + 3)
    const org = (await s.admin.post('/api/v1/orgs/orgs/', { name: 'count-org' })).json().id as string
    await sql`update assets set org_id = ${org} where name = 'count-1'`.execute(db)
    await sql`update assets set comment = 'same org' where name like 'count-%'`.execute(db)
    expect(await listed()).toBe(before + 2)
    await expectCountersExact()
    // a filtered list counts for real, the unfiltered one reads the counter: both agree with the rows
    const searched = (await s.admin.get(`${ASSETS}?limit=1&search=count-`)).json()
    expect(searched.count).toBe(2)
    await sql`delete from assets where name like 'count-%'`.execute(db)
    expect(await listed()).toBe(before)
    await sql`insert into ftp_logs (id, "user", asset, account, remote_addr, operate, filename, org_id)
      values (gen_random_uuid(), 'u', 'a', 'r', '127.0.0.1', 'upload', 'f', ${ORG_IDS.DEFAULT})`.execute(db)
    await expectCountersExact()
    await sql`truncate ftp_logs`.execute(db)
    await expectCountersExact()
  })
})
