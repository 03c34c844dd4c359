/**
 * Assets benchmark (not a test; issue 10 "Scale"): `npm run bench:assets` (also run by `npm run bench:server`).
 * Seeds 100,000 assets (Linux hosts, one ssh protocol each) in 10,110 nodes five levels deep under the DEFAULT
 * org's root (fan-out 10 / 10 / 10 / 9, keys and full values as server/engine/tree.ts makes them; ~10 assets per
 * node) with plain SQL, then reports median and p95, through the real HTTP layer (app.inject), of
 *   - a node's children with their asset counts (GET /api/v1/assets/nodes/children/tree/?key=…),
 *   - the first page of a node's assets with descendants, searched and ordered by name,
 *   - moving a subtree of 1,011 nodes (~10,000 assets) under another node (PUT …/nodes/<id>/children/add/),
 * on PGlite and, when BENCH_DATABASE_URL or DATABASE_URL is set, on PostgreSQL (a fresh database there).
 * Budgets: children median < 20 ms, assets page median < 50 ms. BENCH_ASSETS changes the volume of assets.
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { sql } from 'kysely'
import { createTestServer, type TestClient, type TestServer } from '../server/testing.ts'
import { ORG_IDS } from '../server/rbac/catalog.ts'
import { chargeBackendsOf, fmt, load, onBothDatabases, time } from './bench-support.ts'

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000)
const FANOUT = [10, 10, 10, 9] // children per node at levels 1→2, 2→3, 3→4, 4→5 (level 1 = the org root)
const CHILDREN_BUDGET_MS = 20
const PAGE_BUDGET_MS = 50


/** The node tree level by level (each level from the one above), then the assets in batches. */
export async function seed(t: TestServer): Promise<{ ms: number; nodes: number }> {
  const t0 = performance.now()
  const db = t.database.db
  const org = ORG_IDS.DEFAULT
  await db.transaction().execute(async (tx) => {
    const root = (await sql<{ key: string }>`select key from nodes where org_id = ${org} and parent_key = ''`.execute(tx)).rows[0]!
    let depth = 1
    for (const [level, fan] of FANOUT.entries()) {
      const childFan = FANOUT[level + 1] ?? 0
      // a parent's child_mark is the number of children it got, so the next key the app makes is free
      await sql`update nodes set child_mark = ${fan} where org_id = ${org}
        and (key = ${root.key} or key like ${`${root.key}:%`}) and array_length(string_to_array(key, ':'), 1) = ${depth}`.execute(tx)
      await sql`insert into nodes (id, key, value, full_value, parent_key, child_mark, org_id, created_by)
        select gen_random_uuid(), p.key || ':' || i, v.value, p.full_value || '/' || v.value, p.key, ${childFan}, p.org_id, 'bench'
        from nodes p cross join generate_series(1, ${fan}::int) as i
        cross join lateral (select case when p.parent_key = '' then 'Node ' || i else p.value || '-' || i end as value) v
        where p.org_id = ${org} and (p.key = ${root.key} or p.key like ${`${root.key}:%`})
          and array_length(string_to_array(p.key, ':'), 1) = ${depth}`.execute(tx)
      depth++
    }
  })
  const nodes = (await sql<{ n: number }>`select count(*)::int as n from nodes where org_id = ${org} and parent_key <> ''`.execute(db)).rows[0]!.n
  await sql`create table bench_nodes as select id, (row_number() over (order by key) - 1)::int as r from nodes where org_id = ${org} and parent_key <> ''`.execute(db)
  const batch = 25_000
  for (let from = 1; from <= ASSETS; from += batch) {
    const to = Math.min(ASSETS, from + batch - 1)
    await db.transaction().execute(async (tx) => {
      const ids = sql`select i, ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid as id from generate_series(${from}::int, ${to}::int) as i`
      await sql`insert into assets (id, name, address, platform_id, category, type, org_id, created_by)
        select x.id, 'host-' || lpad(x.i::text, 6, '0'), '10.' || (x.i / 65536) % 256 || '.' || (x.i / 256) % 256 || '.' || x.i % 256,
          1, 'host', 'linux', ${org}, 'bench' from (${ids}) x`.execute(tx)
      await sql`insert into asset_protocols (asset_id, name, port) select x.id, 'ssh', 22 from (${ids}) x`.execute(tx)
      await sql`insert into asset_nodes (asset_id, node_id) select x.id, n.id from (${ids}) x join bench_nodes n on n.r = x.i % ${nodes}`.execute(tx)
    })
  }
  await sql`drop table bench_nodes`.execute(db)
  // The steady state autovacuum keeps: statistics and the visibility map.
  await sql`vacuum analyze`.execute(db)
  return { ms: performance.now() - t0, nodes }
}


async function run(label: string): Promise<boolean> {
  console.log(`\n== ${label}`)
  const t = await createTestServer()
  try {
    const { ms, nodes } = await seed(t)
    const n = (await sql<{ a: number }>`select count(*)::int as a from assets`.execute(t.database.db)).rows[0]!
    console.log(`seeded ${n.a.toLocaleString('en')} assets in ${nodes.toLocaleString('en')} nodes (5 levels) in ${(ms / 1000).toFixed(1)} s`)
    const db = t.database.db
    const node = async (value: string) => (await sql<{ id: string; key: string }>`select id, key from nodes where org_id = ${ORG_IDS.DEFAULT} and value = ${value}`.execute(db)).rows[0]!
    const root = (await sql<{ id: string; key: string }>`select id, key from nodes where org_id = ${ORG_IDS.DEFAULT} and parent_key = ''`.execute(db)).rows[0]!
    const n3 = await node('Node 3')
    const n7 = await node('Node 7')
    const n5 = await node('Node 5-5')
    const c: TestClient = await t.as('admin')
    c.headers['accept-language'] = 'en'
    const check = (r: { statusCode: number; body: string }) => { if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode} ${r.body.slice(0, 200)}`) }
    chargeBackendsOf(t.databaseUrl ? t.database.db : undefined)
    // the floor: a list of one row (session, permissions, serialization; no volume)
    const floor = await time(30, async () => { check(await c.get('/api/v1/users/users/?offset=0&limit=15')) })
    const NODES = '/api/v1/assets/nodes/'
    const rootKids = await time(30, async () => { check(await c.get(`${NODES}children/tree/?key=${root.key}`)) })
    const midKids = await time(30, async () => { check(await c.get(`${NODES}children/tree/?key=${n5.key}`)) })
    const terms = ['host-01', 'host-0423', '10.0.12', 'st-09', '7']
    const page = await time(30, async (i) => {
      check(await c.get(`/api/v1/assets/assets/?offset=0&limit=15&node_id=${n3.id}&search=${encodeURIComponent(terms[i % terms.length]!)}&order=name`))
    })
    const nodePage = await time(30, async () => {
      check(await c.get(`/api/v1/assets/assets/?offset=0&limit=15&node_id=${n3.id}&order=name`))
    })
    const rootPage = await time(30, async (i) => {
      check(await c.get(`/api/v1/assets/assets/?offset=0&limit=15&node_id=${root.id}&search=${encodeURIComponent(terms[i % terms.length]!)}&order=name`))
    })
    // Node 3 (1,011 nodes) goes under Node 7 and back again, alternately.
    const move = await time(10, async (i) => {
      const target = i % 2 === 0 ? n7.id : root.id
      check(await c.put(`${NODES}${target}/children/add/`, { nodes: [n3.id] }))
    })
    const moved = (await sql<{ n: number }>`select count(*)::int as n from nodes where full_value like '%/Node 3' or full_value like '%/Node 3/%'`.execute(db)).rows[0]!.n
    console.log(`floor (users list of one row):      ${fmt(floor)}`)
    console.log(`children with counts, org root (10 × ~10,000 assets): ${fmt(rootKids)}`)
    console.log(`children with counts, level-3 node (10 × ~100 assets): ${fmt(midKids)}`)
    console.log(`assets page (15, node of ~10,000 with descendants, search, order=name): ${fmt(page)}`)
    console.log(`assets page (15, node of ~10,000 with descendants, order=name):         ${fmt(nodePage)}`)
    console.log(`assets page (15, org root = all 100,000, search, order=name):        ${fmt(rootPage)}`)
    console.log(`move a subtree of ${moved.toLocaleString('en')} nodes:                  ${fmt(move)}`)
    console.log(`(after the run: ${load()})`)
    const ok = rootKids.median < CHILDREN_BUDGET_MS && page.median < PAGE_BUDGET_MS
    console.log(`budgets: children median < ${CHILDREN_BUDGET_MS} ms ${rootKids.median < CHILDREN_BUDGET_MS ? 'met' : 'MISSED'}; assets page median < ${PAGE_BUDGET_MS} ms ${page.median < PAGE_BUDGET_MS ? 'met' : 'MISSED'}`)
    return ok
  } finally {
    chargeBackendsOf(undefined)
    await t.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await onBothDatabases(run)
