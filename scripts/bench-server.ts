/**
 * Server benchmark (not a test): `node --import tsx scripts/bench-server.ts`.
 * Seeds 100,000 users (members of DEFAULT) and reports median and p95 of
 *   - the users list: first page of 15 with search and order,
 *   - an OPTIONS call,
 *   - a CSV export of 10,000 rows,
 * on PGlite and, when BENCH_DATABASE_URL or DATABASE_URL is set, on PostgreSQL (a fresh database on that server).
 * Budget: list page median < 50 ms on both.
 */
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { createTestServer, type TestClient, type TestServer } from '../server/testing.ts'
import { ORG_IDS, ROLE_IDS } from '../server/rbac/catalog.ts'
import { fmt, onBothDatabases, time } from './bench-support.ts'

const USERS = Number(process.env.BENCH_USERS ?? 100_000)
const LIST_BUDGET_MS = 50


/** Bulk insert: users with their memberships (the org_ids column the role_bindings trigger would compute). */
async function seedUsers(t: TestServer): Promise<number> {
  const t0 = performance.now()
  const db = t.database.db
  const batch = 25_000
  await db.transaction().execute(async (tx) => {
    await sql`alter table role_bindings disable trigger role_bindings_org_ids`.execute(tx)
    for (let from = 1; from <= USERS; from += batch) {
      const to = Math.min(USERS, from + batch - 1)
      await sql`with u as (
          insert into users (id, name, username, email, source, date_expired, created_by, org_ids)
          select gen_random_uuid(), 'User ' || lpad(i::text, 6, '0'), 'user' || i, 'user' || i || '@example.com', 'local',
                 now() + interval '10 years', 'bench', array[${ORG_IDS.DEFAULT}]::uuid[]
          from generate_series(${from}::int, ${to}::int) as i
          returning id)
        insert into role_bindings (id, user_id, role_id, scope, org_id)
        select gen_random_uuid(), u.id, r.role_id, r.scope, r.org_id from u cross join (values
          (${ROLE_IDS.OrgUser}::uuid, 'org', ${ORG_IDS.DEFAULT}::uuid), (${ROLE_IDS.User}::uuid, 'system', null::uuid)) as r(role_id, scope, org_id)`.execute(tx)
    }
    await sql`alter table role_bindings enable trigger role_bindings_org_ids`.execute(tx)
  })
  await sql`analyze`.execute(db)
  return performance.now() - t0
}


async function run(label: string): Promise<boolean> {
  console.log(`\n== ${label}`)
  const t = await createTestServer()
  try {
    const seedMs = await seedUsers(t)
    const trgm = (await sql`select 1 from pg_indexes where indexname = 'users_search_trgm'`.execute(t.database.db)).rows.length > 0
    console.log(`seeded ${USERS.toLocaleString('en')} users in ${(seedMs / 1000).toFixed(1)} s (trigram index: ${trgm ? 'yes' : 'NO — pg_trgm not loaded'})`)
    const c: TestClient = await t.as('admin')
    c.headers['accept-language'] = 'en'
    const check = (r: { statusCode: number }) => { if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode}`) }
    let page = 0
    const terms = ['user12', 'user4567', 'er99', 'User 0123', '55@exa']
    const list = await time(30, async () => {
      const term = terms[page++ % terms.length]!
      const r = await c.get(`/api/v1/users/users/?offset=0&limit=15&order=name&search=${encodeURIComponent(term)}`)
      check(r)
    })
    const listPlain = await time(30, async () => { check(await c.get('/api/v1/users/users/?offset=0&limit=15&order=-date_joined')) })
    const options = await time(30, async () => { check(await c.options('/api/v1/users/users/')) })
    let bytes = 0
    const csv = await time(5, async () => {
      const r = await c.get('/api/v1/users/users/?format=csv')
      check(r)
      bytes = r.rawPayload.length
    })
    console.log(`list page (15, search + order):  ${fmt(list)}`)
    console.log(`list page (15, order, no search): ${fmt(listPlain)}`)
    console.log(`OPTIONS:                          ${fmt(options)}`)
    console.log(`CSV export (10,000 rows, ${(bytes / 1e6).toFixed(1)} MB): ${fmt(csv)}`)
    const ok = list.median < LIST_BUDGET_MS
    console.log(`budget list median < ${LIST_BUDGET_MS} ms: ${ok ? 'met' : 'MISSED'}`)
    return ok
  } finally {
    await t.close()
  }
}

await onBothDatabases(run)
