import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { createTestServer } from '../server/testing.ts'
import { ORG_IDS } from '../server/rbac/catalog.ts'
process.env.TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres'
const t = await createTestServer()
const db = t.database.db
await sql`insert into assets (id, name, address, platform_id, category, type, org_id)
  select gen_random_uuid(), 'bench-host-' || i, '10.1.' || (i / 250) || '.' || (i % 250), 1, 'host', 'linux', ${ORG_IDS.DEFAULT}
  from generate_series(1, 100) as i`.execute(db)
await sql`insert into accounts (id, org_id, asset_id, name, username, secret_type)
  select gen_random_uuid(), ${ORG_IDS.DEFAULT}, a.id, 'user' || g, 'user' || g, 'password'
  from (select id from assets where name like 'bench-host-%') a cross join generate_series(1, 1000) as g`.execute(db)
await sql`analyze`.execute(db)
const admin = await t.as('admin')
const time = async (label: string, fn: () => Promise<unknown>) => {
  await fn()
  const s: number[] = []
  for (let i = 0; i < 15; i++) { const t0 = performance.now(); await fn(); s.push(performance.now() - t0) }
  s.sort((a, b) => a - b)
  console.log(label, s[7]!.toFixed(1), 'ms median')
}
await time('http list', async () => admin.get('/api/v1/accounts/accounts/?limit=15&offset=0'))
await time('http list search', async () => admin.get('/api/v1/accounts/accounts/?limit=15&offset=0&search=user77'))
await time('count', async () => sql`select count(*) from accounts t where t.org_id = ${ORG_IDS.DEFAULT}`.execute(db))
await time('page', async () => sql`select * from accounts t where t.org_id = ${ORG_IDS.DEFAULT} order by username, id limit 15`.execute(db))
for (const q of [sql`explain analyze select count(*) from accounts t where t.org_id = ${ORG_IDS.DEFAULT}`, sql`explain analyze select count(*) from accounts t where t.org_id = ${ORG_IDS.DEFAULT} and (coalesce(name::text, '') || ' ' || coalesce(username::text, '')) ilike '%user77%'`]) {
  console.log((await q.execute(db)).rows.map((r: any) => r['QUERY PLAN']).join('\n'))
}
await t.close()
