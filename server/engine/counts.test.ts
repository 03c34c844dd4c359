import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ORG_IDS } from '../rbac/catalog.ts'
import { nodeTree } from '../resources/assets/nodes.ts'
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

  it("counts a node's assets with descendants exactly through the links' paths, kept through moves, and by the path index", async () => {
    const db = s.t.database.db
    const NODES = '/api/v1/assets/nodes/'
    const make = async (full: string) => (await s.admin.post(NODES, { full_value: full })).json() as { id: string; key: string }
    // eleven children: keys K:1 … K:11, so K:1's range must not take K:10 and K:11 (a key prefix, not a subtree)
    const kids: Array<{ id: string; key: string }> = []
    for (let i = 1; i <= 11; i++) kids.push(await make(`/DEFAULT/Paths/c${i}`))
    const deep = await make('/DEFAULT/Paths/c1/d/e')
    const host = (name: string, nodes: string[]) => s.admin.post('/api/v1/assets/hosts/', { name, address: '10.9.0.1', platform: 1, nodes })
    for (const [i, k] of kids.entries()) expect((await host(`p-${i}`, [k.id])).statusCode).toBe(201)
    expect((await host('p-deep', [deep.id, kids[9]!.id])).statusCode).toBe(201)
    // the parent made along the way (its key is the children's key without their last part)
    const parentKey = kids[0]!.key.replace(/:\d+$/, '')
    const paths = (await sql<{ id: string }>`select id from nodes where org_id = ${ORG_IDS.DEFAULT} and key = ${parentKey}`.execute(db)).rows[0]!
    // moves and renames: the links' paths follow their nodes' keys
    expect((await s.admin.put(`${NODES}${kids[10]!.id}/children/add/`, { nodes: [kids[0]!.id] })).statusCode).toBe(200)
    expect((await s.admin.patch(`${NODES}${kids[1]!.id}/`, { value: 'renamed' })).statusCode).toBe(200)

    const stale = await sql<{ n: number }>`select count(*)::int as n from asset_nodes l join nodes n on n.id = l.node_id where l.node_path <> n.key || ':'`.execute(db)
    expect(stale.rows[0]!.n).toBe(0)
    const all = (await sql<{ id: string; key: string }>`select id, key from nodes where org_id = ${ORG_IDS.DEFAULT}`.execute(db)).rows
    expect(all.length).toBeGreaterThan(13)
    for (const n of all) {
      const real = (await sql<{ n: number }>`select count(distinct l.asset_id)::int as n from asset_nodes l join nodes x on x.id = l.node_id
        where x.key = ${n.key} or x.key like ${`${n.key}:%`}`.execute(db)).rows[0]!.n
      const listed = (await s.admin.get(`${ASSETS}?limit=1&node_id=${n.id}`)).json().count as number
      const searched = (await s.admin.get(`${ASSETS}?limit=1&node_id=${n.id}&search=p-`)).json().count as number
      expect([listed, searched], n.key).toEqual([real, real])
    }
    expect((await s.admin.get(`${ASSETS}?limit=1&node_id=${paths.id}`)).json().count).toBe(12)

    // the subtree's links are one range of the path index (the planner may not prefer it on a table this small)
    const node = (await nodeTree.byId(db, kids[0]!.id))!
    const plan = await db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx)
      const r = await sql<Record<string, string>>`explain select count(*) from assets t where ${nodeTree.memberCond(node, true)}`.execute(tx)
      return r.rows.map((x) => Object.values(x)[0]).join('\n')
    })
    expect(plan).toContain('asset_nodes_path_idx')
  })
})
