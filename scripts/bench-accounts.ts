/**
 * Accounts benchmark (not a test; issue 15 "Scale"): `npm run bench:accounts`.
 * Seeds 100,000 accounts on 100 hosts of DEFAULT and reports median and p95 (wall and CPU, bench-support.ts) of
 * the accounts list: the first page of 15 in the default order, with a search, and of one asset's accounts, on
 * PGlite and, when BENCH_DATABASE_URL or DATABASE_URL is set, on PostgreSQL (a fresh database there).
 * Budget: list page median < 50 ms. BENCH_ACCOUNTS changes the volume.
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { sql } from 'kysely'
import { createTestServer, type TestServer } from '../server/testing.ts'
import { ORG_IDS } from '../server/rbac/catalog.ts'
import { chargeBackendsOf, fmt, load, onBothDatabases, time } from './bench-support.ts'

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000)
const HOSTS = 100
const BUDGET_MS = 50

export async function seed(t: TestServer): Promise<number> {
  const db = t.database.db
  const t0 = performance.now()
  await sql`insert into assets (id, name, address, platform_id, category, type, org_id)
    select gen_random_uuid(), 'bench-host-' || i, '10.1.' || (i / 250) || '.' || (i % 250), 1, 'host', 'linux', ${ORG_IDS.DEFAULT}
    from generate_series(1, ${HOSTS}) as i`.execute(db)
  await sql`insert into accounts (id, org_id, asset_id, name, username, secret_type)
    select gen_random_uuid(), ${ORG_IDS.DEFAULT}, a.id, 'user' || g, 'user' || g, 'password'
    from (select id, row_number() over (order by name) as n from assets where name like 'bench-host-%') a
    cross join generate_series(1, ${Math.ceil(ACCOUNTS / HOSTS)}) as g`.execute(db)
  // The steady state autovacuum keeps: statistics and the visibility map.
  await sql`vacuum analyze`.execute(db)
  return performance.now() - t0
}

async function run(label: string): Promise<boolean> {
  console.log(`\n== ${label}`)
  const t = await createTestServer()
  try {
    const seeded = await seed(t)
    const admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    const check = (r: { statusCode: number; body: string }) => { if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode} ${r.body.slice(0, 200)}`) }
    const count = (await admin.get('/api/v1/accounts/accounts/?limit=1')).json().count as number
    console.log(`seeded ${count.toLocaleString('en')} accounts in ${(seeded / 1000).toFixed(1)} s`)
    const asset = (await sql<{ id: string }>`select id from assets where name = 'bench-host-7'`.execute(t.database.db)).rows[0]!.id
    chargeBackendsOf(t.databaseUrl ? t.database.db : undefined)
    const floor = await time(30, async () => { check(await admin.get('/api/v1/users/users/?offset=0&limit=15')) })
    const list = await time(30, async () => { check(await admin.get('/api/v1/accounts/accounts/?limit=15&offset=0')) })
    const search = await time(30, async () => { check(await admin.get('/api/v1/accounts/accounts/?limit=15&offset=0&search=user77')) })
    const ofAsset = await time(30, async () => { check(await admin.get(`/api/v1/accounts/accounts/?limit=15&offset=0&asset=${asset}`)) })
    console.log(`floor (users list of one row):     ${fmt(floor)}`)
    console.log(`accounts page (15, default order): ${fmt(list)}`)
    console.log(`accounts page (15, search user77): ${fmt(search)}`)
    console.log(`accounts page (15, one asset):     ${fmt(ofAsset)}`)
    console.log(`(after the run: ${load()})`)
    console.log(`budget: list page median < ${BUDGET_MS} ms ${list.median < BUDGET_MS ? 'met' : 'MISSED'}`)
    return list.median < BUDGET_MS
  } finally {
    chargeBackendsOf(undefined)
    await t.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await onBothDatabases(run)
