/**
 * Grants benchmark (not a test; issue 11 "Scale"): `npm run bench:perms`. Seeds with SQL 100,000 hosts in 1,000
 * nodes (DEFAULT root → 50 nodes → 20 children each, 100 hosts per leaf, one ssh protocol and two accounts each)
 * and one user in 3 groups granted 200 leaf nodes (20,000 assets) through 50 permissions (4 nodes each, spread over
 * the groups, 10 of them also naming the user directly). Reports median and p95, through the HTTP layer
 * (app.inject), of the user's first page of assets, their nodes tree (top and a level), one asset's merged
 * accounts and actions, and the cache rebuild after an invalidation; on PGlite and, with BENCH_DATABASE_URL or
 * DATABASE_URL, on PostgreSQL. Budgets (medians): page 100 ms, tree 50 ms, asset 20 ms.
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { ORG_IDS } from '../server/rbac/catalog.ts'
import { createTestServer, type TestServer } from '../server/testing.ts'
import { chargeBackendsOf, fmt, onBothDatabases, time } from './bench-support.ts'

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000)
const TOP = 50
const LEAVES_PER_TOP = 20
const BUDGET = { page: 100, tree: 50, asset: 20 }

async function seed(t: TestServer, userId: string): Promise<number> {
  const t0 = performance.now()
  const db = t.database.db
  const org = ORG_IDS.DEFAULT
  await db.transaction().execute(async (tx) => {
    const root = (await sql<{ key: string; full_value: string }>`select key, full_value from nodes where org_id = ${org} and parent_key = ''`.execute(tx)).rows[0]!
    await sql`update nodes set child_mark = ${TOP} where org_id = ${org} and key = ${root.key}`.execute(tx)
    await sql`insert into nodes (id, key, value, full_value, parent_key, child_mark, org_id, created_by)
      select gen_random_uuid(), ${root.key} || ':' || i, 'Top ' || i, ${root.full_value} || '/Top ' || i, ${root.key}, ${LEAVES_PER_TOP}, ${org}, 'bench'
      from generate_series(1, ${TOP}::int) i`.execute(tx)
    await sql`insert into nodes (id, key, value, full_value, parent_key, child_mark, org_id, created_by)
      select gen_random_uuid(), p.key || ':' || i, p.value || '-' || i, p.full_value || '/' || p.value || '-' || i, p.key, 0, ${org}, 'bench'
      from nodes p cross join generate_series(1, ${LEAVES_PER_TOP}::int) i where p.org_id = ${org} and p.parent_key = ${root.key}`.execute(tx)
  })
  await sql`create table bench_leaves as select id, (row_number() over (order by key) - 1)::int as r from nodes
    where org_id = ${ORG_IDS.DEFAULT} and array_length(string_to_array(key, ':'), 1) = 3`.execute(db)
  const leaves = TOP * LEAVES_PER_TOP
  const batch = 25_000
  for (let from = 1; from <= ASSETS; from += batch) {
    const to = Math.min(ASSETS, from + batch - 1)
    await db.transaction().execute(async (tx) => {
      const ids = sql`select i, ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid as id from generate_series(${from}::int, ${to}::int) as i`
      await sql`insert into assets (id, name, address, platform_id, category, type, org_id, created_by)
        select x.id, 'host-' || lpad(x.i::text, 6, '0'), '10.' || (x.i / 65536) % 256 || '.' || (x.i / 256) % 256 || '.' || x.i % 256,
          1, 'host', 'linux', ${org}, 'bench' from (${ids}) x`.execute(tx)
      await sql`insert into asset_protocols (asset_id, name, port) select x.id, 'ssh', 22 from (${ids}) x`.execute(tx)
      await sql`insert into asset_nodes (asset_id, node_id) select x.id, n.id from (${ids}) x join bench_leaves n on n.r = x.i % ${leaves}`.execute(tx)
      for (const u of ['root', 'deploy']) {
        await sql`insert into accounts (id, org_id, asset_id, name, username) select gen_random_uuid(), ${org}, x.id, ${u}, ${u} from (${ids}) x`.execute(tx)
      }
    })
  }
  // 3 groups with the user; 50 permissions of 4 leaves each (leaves r = 0, 5, 10, … → 200 distinct leaves).
  await db.transaction().execute(async (tx) => {
    await sql`insert into user_groups (id, name, org_id) select gen_random_uuid(), 'bench-g' || g, ${org} from generate_series(1, 3) g`.execute(tx)
    await sql`insert into user_group_members (usergroup_id, user_id) select id, ${userId} from user_groups where name like 'bench-g%'`.execute(tx)
    await sql`insert into asset_permissions (id, name, org_id, accounts, actions) select gen_random_uuid(), 'bench-p' || lpad(p::text, 2, '0'), ${org},
        case when p % 2 = 0 then '["@ALL"]'::jsonb else '["root"]'::jsonb end, case when p % 3 = 0 then 1 else 3 end from generate_series(1, 50) p`.execute(tx)
    await sql`insert into asset_permission_user_groups (assetpermission_id, usergroup_id)
      select p.id, g.id from asset_permissions p join user_groups g on g.name = 'bench-g' || (1 + (substr(p.name, 8)::int % 3)) where p.name like 'bench-p%'`.execute(tx)
    await sql`insert into asset_permission_users (assetpermission_id, user_id) select id, ${userId} from asset_permissions where name like 'bench-p%' and substr(name, 8)::int <= 10`.execute(tx)
    await sql`insert into asset_permission_nodes (assetpermission_id, node_id)
      select p.id, l.id from asset_permissions p cross join generate_series(0, 3) k
        join bench_leaves l on l.r = ((substr(p.name, 8)::int - 1) * 4 + k) * 5 where p.name like 'bench-p%'`.execute(tx)
  })
  await sql`drop table bench_leaves`.execute(db)
  await sql`vacuum analyze`.execute(db)
  return performance.now() - t0
}

async function run(label: string): Promise<boolean> {
  console.log(`\n== ${label}`)
  const t = await createTestServer()
  try {
    const userId = await t.createUser({ username: 'bench-user' })
    const ms = await seed(t, userId)
    console.log(`seeded ${ASSETS.toLocaleString('en')} assets in ${(TOP * (LEAVES_PER_TOP + 1)).toLocaleString('en')} nodes, 50 permissions, 3 groups in ${(ms / 1000).toFixed(1)} s`)
    const c = await t.as('bench-user')
    c.headers['accept-language'] = 'en'
    const check = (r: { statusCode: number; body: string }) => { if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode} ${r.body.slice(0, 200)}`); return JSON.parse(r.body) as unknown }
    const SELF = '/api/v1/perms/users/self/'
    console.log(`load average (1, 5, 15 min) before timing: ${loadavg().map((x) => x.toFixed(2)).join(', ')}`)
    const t0 = performance.now()
    const first = check(await c.get(`${SELF}assets/?offset=0&limit=15`)) as { count: number; results: { id: string }[] }
    const cold = performance.now() - t0
    console.log(`granted assets: ${first.count.toLocaleString('en')}; first call (builds the cache): ${cold.toFixed(0)} ms`)
    if (first.count !== 20_000 * (ASSETS / 100_000)) throw new Error(`expected 20,000 granted assets, got ${first.count}`)
    const terms = ['host-01', 'host-0423', '10.0.12', '7']
    chargeBackendsOf(t.databaseUrl ? t.database.db : undefined)
    const page = await time(30, async () => { check(await c.get(`${SELF}assets/?offset=0&limit=15`)) })
    const searched = await time(30, async (i) => { check(await c.get(`${SELF}assets/?offset=0&limit=15&search=${encodeURIComponent(terms[i % terms.length]!)}&order=name`)) })
    const top = (check(await c.get(`${SELF}nodes/children/tree/`)) as { id: string; pId: string }[])
    const topNode = top.find((n) => n.pId && n.id !== 'favorite')!
    const tree = await time(30, async () => { check(await c.get(`${SELF}nodes/children/tree/`)) })
    const level = await time(30, async () => { check(await c.get(`${SELF}nodes/children/tree/?key=${encodeURIComponent(topNode.id)}`)) })
    const ids = first.results.map((r) => r.id)
    const asset = await time(30, async (i) => { check(await c.get(`${SELF}assets/${ids[i % ids.length]}/`)) })
    // an invalidation (a permission's comment changes: the epoch moves) then the rebuild on the next read
    const rebuild = await time(5, async (i) => {
      await sql`update asset_permissions set comment = ${String(i)} where name = 'bench-p01'`.execute(t.database.db)
      check(await c.get(`${SELF}assets/?offset=0&limit=15`))
    })
    console.log(`first page of the user's assets (15 of 20,000) — budget ${BUDGET.page}: ${fmt(page)}`)
    console.log(`  … searched, order=name:                                   ${fmt(searched)}`)
    console.log(`nodes tree, top (root open with its children) — budget ${BUDGET.tree}: ${fmt(tree)}`)
    console.log(`nodes tree, one level (20 children):                         ${fmt(level)}`)
    console.log(`one asset's merged accounts and actions — budget ${BUDGET.asset}: ${fmt(asset)}`)
    console.log(`cache rebuild after an invalidation (write + rebuild + page):   ${fmt(rebuild)}`)
    console.log(`load average (1, 5, 15 min) at the end: ${loadavg().map((x) => x.toFixed(2)).join(', ')} on this machine's CPUs`)
    const ok = page.median < BUDGET.page && tree.median < BUDGET.tree && asset.median < BUDGET.asset
    console.log(`budgets ${ok ? 'met' : 'MISSED'}`)
    return ok
  } finally {
    chargeBackendsOf(undefined)
    await t.close()
  }
}

await onBothDatabases(run)
