/**
 * Tickets benchmark (not a test; issue 32 "Scale"): `npm run bench:tickets`. Seeds with SQL 1,000 users and
 * 100,000 tickets (asset requests of two levels and system tickets of one, a third still open; each with its
 * steps and assignees) and measures, through the HTTP layer (app.inject), as one user assigned ~200 of them:
 * the header badge (`tickets/?assignees__id=<me>&status=open&limit=1&fields=id`, the console's request, with its
 * X-JMS-ORG and X-TZ headers; lina asks a page of 15) and the first page of the assigned tickets (`?assignees__id=<me>`,
 * newest first) with their process maps. On PGlite and on PostgreSQL (`BENCH_POSTGRES=1` starts a throw-away cluster;
 * or BENCH_DATABASE_URL). Budgets (medians): badge 5 ms, page 30 ms; each verdict printed with the CPU time and the
 * SQL statements of a request, which the machine's load does not change.
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { ORG_IDS } from '../server/rbac/catalog.ts'
import { createTestServer, type TestServer } from '../server/testing.ts'
import { chargeBackendsOf, fmt, onBothDatabases, time, verdict } from './bench-support.ts'

const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000)
const USERS = 1000
const BUDGET = { badge: 5, page: 30 }

const uid = (i: string) => sql`('00000000-0000-4000-9000-' || lpad(to_hex(${sql.raw(i)}), 12, '0'))::uuid`

async function seed(t: TestServer): Promise<number> {
  const t0 = performance.now()
  const db = t.database.db
  await sql`insert into users (id, name, username, email, password_hash, is_first_login)
    select ${uid('u')}, 'User ' || u, 'bench-' || u, 'bench-' || u || '@example.org', '', false from generate_series(0, ${USERS - 1}::int) u`.execute(db)
  await sql`insert into role_bindings (id, user_id, role_id, scope)
    select gen_random_uuid(), id, '00000000-0000-0000-0000-000000000003', 'system' from users where username like 'bench-%'`.execute(db)
  const batch = 20_000
  for (let from = 0; from < TICKETS; from += batch) {
    const to = Math.min(TICKETS, from + batch) - 1
    await db.transaction().execute(async (tx) => {
      // ticket i: applicant a = i % USERS, level-1 assignee b = (i * 7 + 1) % USERS, level-2 c = (i * 13 + 2) % USERS
      // (asset requests, i % 4 = 0); a third open (i % 3 = 0), on step 1; the rest approved/rejected/closed.
      const x = sql`select i, ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid as id, i % ${USERS} as a, (i * 7 + 1) % ${USERS} as b,
        (i * 13 + 2) % ${USERS} as c, i % 4 = 0 as two, i % 3 = 0 as open from generate_series(${from}::int, ${to}::int) i`
      await sql`insert into tickets (id, serial_num, title, type, state, status, applicant_id, applicant_display, approval_step, org_id,
          participants, current_assignees, date_created, date_updated)
        select x.id, '2026' || lpad(x.i::text, 8, '0'), 'Bench ticket ' || x.i,
          case when x.two then 'apply_asset' when x.i % 4 = 1 then 'login_confirm' when x.i % 4 = 2 then 'login_asset_confirm' else 'command_confirm' end,
          case when x.open then 'pending' when x.i % 3 = 1 then 'approved' else 'rejected' end,
          case when x.open then 'open' else 'closed' end,
          ${uid('x.a')}, 'User ' || x.a, 1, ${ORG_IDS.DEFAULT},
          case when x.two then array[${uid('x.a')}, ${uid('x.b')}, ${uid('x.c')}] else array[${uid('x.a')}, ${uid('x.b')}] end,
          array[${uid('x.b')}],
          now() - (x.i || ' seconds')::interval, now() - (x.i || ' seconds')::interval
        from (${x}) x`.execute(tx)
      await sql`insert into ticket_steps (id, ticket_id, level, state, status)
        select gen_random_uuid(), x.id, l, case when x.open then 'pending' else 'approved' end, case when x.open and l = 1 then 'active' when x.open then 'pending' else 'closed' end
        from (${x}) x cross join generate_series(1, 2) l where l = 1 or x.two`.execute(tx)
      await sql`insert into ticket_assignees (id, step_id, ticket_id, level, user_id)
        select gen_random_uuid(), s.id, s.ticket_id, s.level, case when s.level = 1 then ${uid('x.b')} else ${uid('x.c')} end
        from (${x}) x join ticket_steps s on s.ticket_id = x.id`.execute(tx)
    })
  }
  await sql`vacuum analyze`.execute(db)
  return performance.now() - t0
}

async function run(label: string): Promise<boolean> {
  console.log(`\n== ${label}`)
  const t = await createTestServer()
  try {
    const ms = await seed(t)
    console.log(`seeded ${USERS.toLocaleString('en')} users and ${TICKETS.toLocaleString('en')} tickets (steps, assignees) in ${(ms / 1000).toFixed(1)} s`)
    const me = (await sql<{ id: string }>`select id from users where username = 'bench-42'`.execute(t.database.db)).rows[0]!.id
    const c = await t.as('bench-42')
    // as the console sends every call (src/api/client.ts): the organization and the time zone
    Object.assign(c.headers, { 'accept-language': 'en', 'x-jms-org': ORG_IDS.DEFAULT, 'x-tz': 'Europe/Paris' })
    const check = (r: { statusCode: number; body: string }) => { if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode} ${r.body.slice(0, 200)}`); return JSON.parse(r.body) as { count: number; results: unknown[] } }
    const badgeUrl = `/api/v1/tickets/tickets/?assignees__id=${me}&status=open&offset=0&limit=1&fields=id` // src/api/tickets.ts
    const linaBadgeUrl = `/api/v1/tickets/tickets/?assignees__id=${me}&status=open&offset=0&limit=15&display=1&draw=1`
    const pageUrl = `/api/v1/tickets/tickets/?assignees__id=${me}&offset=0&limit=15&order=-date_created`
    const b = check(await c.get(badgeUrl))
    const p = check(await c.get(pageUrl))
    console.log(`user bench-42: ${b.count} open assigned, ${p.count} assigned in all`)
    if (!b.count || p.results.length !== Math.min(15, p.count)) throw new Error('the seed did not assign tickets to the user')
    console.log(`load average (1, 5, 15 min) before timing: ${loadavg().map((x) => x.toFixed(2)).join(', ')}`)
    chargeBackendsOf(t.databaseUrl ? t.database.db : undefined)
    const badge = await time(50, async () => { check(await c.get(badgeUrl)) })
    const linaBadge = await time(50, async () => { check(await c.get(linaBadgeUrl)) })
    const page = await time(50, async () => { check(await c.get(pageUrl)) })
    const mine = await time(30, async () => { check(await c.get(`/api/v1/tickets/tickets/?applicant=${me}&offset=0&limit=15&order=-date_created`)) })
    console.log(`header badge (open tickets assigned to me) — budget ${BUDGET.badge}: ${fmt(badge)}`)
    console.log(`  … as lina asks it (a page of 15 with the count):          ${fmt(linaBadge)}`)
    console.log(`first page of assigned tickets, with process maps — budget ${BUDGET.page}: ${fmt(page)}`)
    console.log(`first page of my tickets:                                   ${fmt(mine)}`)
    console.log(`load average (1, 5, 15 min) at the end: ${loadavg().map((x) => x.toFixed(2)).join(', ')}`)
    const verdicts = [verdict('header badge', badge, BUDGET.badge), verdict('first page of assigned tickets', page, BUDGET.page)]
    for (const v of verdicts) console.log(v.line)
    const ok = verdicts.every((v) => v.ok)
    console.log(`budgets ${ok ? 'met' : 'MISSED'} (${label.split(',')[0]})`)
    return ok
  } finally {
    chargeBackendsOf(undefined)
    await t.close()
  }
}

await onBothDatabases(run)
