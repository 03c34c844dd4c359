/**
 * Accounts benchmark (not a test): `node --import tsx scripts/bench-accounts.ts`.
 * Seeds 100,000 accounts on 100 hosts of DEFAULT and reports median and p95 of the accounts list (first page of
 * 15, default order; and with a search) on PGlite, and on PostgreSQL when BENCH_DATABASE_URL is set (a fresh
 * database there, as the server tests make). Budget: list page median < 50 ms.
 */
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { createTestServer } from '../server/testing.ts'
import { ORG_IDS } from '../server/rbac/catalog.ts'

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000)
const HOSTS = 100
const BUDGET_MS = 50

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
  return { median: Math.round(at(0.5) * 10) / 10, p95: Math.round(at(0.95) * 10) / 10, n: s.length }
}

async function time(n: number, fn: () => Promise<void>) {
  await fn()
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await fn()
    samples.push(performance.now() - t0)
  }
  return stats(samples)
}

async function run(kind: string) {
  if (kind === 'postgres') process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL
  else delete process.env.TEST_DATABASE_URL
  const t = await createTestServer()
  try {
    const db = t.database.db
    const t0 = performance.now()
    await sql`insert into assets (id, name, address, platform_id, category, type, org_id)
      select gen_random_uuid(), 'bench-host-' || i, '10.1.' || (i / 250) || '.' || (i % 250), 1, 'host', 'linux', ${ORG_IDS.DEFAULT}
      from generate_series(1, ${HOSTS}) as i`.execute(db)
    await sql`insert into accounts (id, org_id, asset_id, name, username, secret_type)
      select gen_random_uuid(), ${ORG_IDS.DEFAULT}, a.id, 'user' || g, 'user' || g, 'password'
      from (select id, row_number() over (order by name) as n from assets where name like 'bench-host-%') a
      cross join generate_series(1, ${Math.ceil(ACCOUNTS / HOSTS)}) as g`.execute(db)
    await sql`analyze accounts`.execute(db)
    const seeded = performance.now() - t0
    const admin = await t.as('admin')
    const list = await time(30, async () => {
      const r = await admin.get('/api/v1/accounts/accounts/?limit=15&offset=0')
      if (r.statusCode !== 200) throw new Error(r.body)
    })
    const search = await time(30, async () => {
      const r = await admin.get('/api/v1/accounts/accounts/?limit=15&offset=0&search=user77')
      if (r.statusCode !== 200) throw new Error(r.body)
    })
    const count = (await admin.get('/api/v1/accounts/accounts/?limit=1')).json().count
    console.log(`${kind}: ${count} accounts seeded in ${Math.round(seeded)} ms; list page ${JSON.stringify(list)} ms; search ${JSON.stringify(search)} ms; budget median < ${BUDGET_MS} ms: ${list.median < BUDGET_MS ? 'met' : 'MISSED'}`)
  } finally {
    await t.close()
  }
}

await run('pglite')
if (process.env.BENCH_DATABASE_URL) await run('postgres')
