/**
 * Audit benchmark (not a test): `npx tsx scripts/bench-audit.ts`.
 * Seeds 1,000,000 commands and 100,000 sessions (generate_series, in batches) and reports median and p95 of
 *   - the commands list: first page of 15, filtered by risk level and date range, searched, newest first (five
 *     searches in turn, as a user pages and re-sorts; and each search once, before any count of it is cached),
 *   - the sessions list: first page of 15, offline, date range, searched,
 *   - the audit dashboard figures (GET /api/v1/index/ with the audit dashboard's switches, 30 days),
 * on PGlite and, when BENCH_DATABASE_URL or DATABASE_URL is set, on PostgreSQL (a fresh database there).
 * Budgets (issue 12): commands page median < 100 ms, dashboard median < 300 ms.
 * BENCH_COMMANDS / BENCH_SESSIONS change the volumes.
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { sql } from 'kysely'
import { createTestServer, type TestClient, type TestServer } from '../server/testing.ts'
import { ORG_IDS } from '../server/rbac/catalog.ts'
import { chargeBackendsOf, fmt, load, onBothDatabases, time } from './bench-support.ts'

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 1_000_000)
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000)
const PAGE_BUDGET_MS = 100
const DASHBOARD_BUDGET_MS = 300


/** Sessions over the last 90 days (200 users, 2,000 assets), 10 commands each, 5 % dangerous. */
export async function seed(t: TestServer): Promise<number> {
  const t0 = performance.now()
  const db = t.database.db
  const batch = 20_000
  for (let from = 1; from <= SESSIONS; from += batch) {
    const to = Math.min(SESSIONS, from + batch - 1)
    await sql`insert into terminal_sessions (id, "user", asset, account, user_id, asset_id, account_id, protocol, login_from, remote_addr,
        is_finished, date_start, date_end, org_id)
      select ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'User ' || (i % 200) || '(user' || (i % 200) || ')',
        'host-' || (i % 2000) || '(10.0.' || (i % 250) || '.' || (i % 7) || ')', 'root(root)', 'u-' || (i % 200), 'a-' || (i % 2000), 'acc-1',
        case when i % 10 = 0 then 'rdp' else 'ssh' end, 'ST', '192.168.1.' || (i % 250), i % 100 <> 0,
        now() - ((${SESSIONS} - i)::float / ${SESSIONS} * interval '90 days'), now() - ((${SESSIONS} - i)::float / ${SESSIONS} * interval '90 days') + interval '10 minutes',
        ${ORG_IDS.DEFAULT}
      from generate_series(${from}::int, ${to}::int) as i`.execute(db)
  }
  const perSession = Math.max(1, Math.round(COMMANDS / SESSIONS))
  const cbatch = 100_000
  const inputs = ['ls -la', 'cd /var/log', 'tail -f syslog', 'cat /etc/hosts', 'ps aux', 'df -h', 'top -b -n 1', 'grep error app.log', 'vim config.yml', 'rm -rf /tmp/cache']
  for (let from = 0; from < COMMANDS; from += cbatch) {
    const to = Math.min(COMMANDS, from + cbatch) - 1
    await sql`insert into commands (id, "user", asset, account, input, output, session, risk_level, remote_addr, timestamp, org_id)
      select gen_random_uuid(), 'User ' || (s % 200) || '(user' || (s % 200) || ')', 'host-' || (s % 2000) || '(10.0.' || (s % 250) || '.' || (s % 7) || ')', 'root(root)',
        (${inputs}::text[])[1 + (j % 10)] || ' #' || (j % 997), 'output line ' || j, '00000000-0000-4000-8000-' || lpad(to_hex(s), 12, '0'),
        case when j % 20 = 0 then 5 else 0 end, '192.168.1.' || (s % 250),
        extract(epoch from now() - ((${SESSIONS} - s)::float / ${SESSIONS} * interval '90 days'))::int + (j % ${perSession}), ${ORG_IDS.DEFAULT}
      from (select j, 1 + (j / ${perSession}) % ${SESSIONS} as s from generate_series(${from}::int, ${to}::int) as j) x`.execute(db)
  }
  // The steady state autovacuum keeps: statistics and the visibility map (index-only counts).
  await sql`vacuum analyze`.execute(db)
  return performance.now() - t0
}


async function run(label: string): Promise<boolean> {
  console.log(`\n== ${label}`)
  const t = await createTestServer()
  try {
    const seedMs = await seed(t)
    const n = (await sql<{ c: number; s: number }>`select (select count(*)::int from commands) c, (select count(*)::int from terminal_sessions) s`.execute(t.database.db)).rows[0]!
    console.log(`seeded ${n.c.toLocaleString('en')} commands and ${n.s.toLocaleString('en')} sessions in ${(seedMs / 1000).toFixed(1)} s`)
    const c: TestClient = await t.as('admin')
    c.headers['accept-language'] = 'en'
    const check = (r: { statusCode: number; body: string }) => { if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode} ${r.body.slice(0, 200)}`) }
    chargeBackendsOf(t.databaseUrl ? t.database.db : undefined)
    // the floor: a list of one row (session, permissions, serialization; no volume)
    const floor = await time(30, async () => { check(await c.get('/api/v1/users/users/?offset=0&limit=15')) })
    const week = encodeURIComponent(new Date(Date.now() - 7 * 86_400_000).toISOString())
    const now = encodeURIComponent(new Date().toISOString())
    const terms = ['tail', 'grep error', 'host-12', 'vim', 'df']
    const commands = await time(30, async (i) => {
      check(await c.get(`/api/v1/terminal/commands/?offset=0&limit=15&order=-timestamp&date_from=${week}&date_to=${now}&search=${encodeURIComponent(terms[i % terms.length]!)}`))
    })
    // Each search asked for the first time: no count of it is cached yet (the per-day count cache, daycounts.ts).
    const cold = await time(30, async (i) => {
      check(await c.get(`/api/v1/terminal/commands/?offset=0&limit=15&order=-timestamp&date_from=${week}&date_to=${now}&search=${encodeURIComponent(`#${100 + i}`)}`))
    })
    const danger = await time(30, async () => {
      check(await c.get(`/api/v1/terminal/commands/?offset=0&limit=15&order=-timestamp&risk_level=5&date_from=${week}&date_to=${now}`))
    })
    const sessions = await time(30, async (i) => {
      check(await c.get(`/api/v1/terminal/sessions/?offset=0&limit=15&order=-date_start&is_finished=1&date_from=${week}&date_to=${now}&search=${encodeURIComponent(['User 12', 'host-3', '192.168.1.9'][i % 3]!)}`))
    })
    const sessionCommands = await time(30, async (i) => {
      check(await c.get(`/api/v1/terminal/commands/?offset=0&limit=15&session=00000000-0000-4000-8000-${(1 + (i * 997) % SESSIONS).toString(16).padStart(12, '0')}`))
    })
    const switches = 'total_count_user_login_logs=1&total_count_user_login_success_logs=1&total_count_commands=1&total_count_commands_danger=1&total_count_history_sessions=1&total_count_online_sessions=1&total_count_ftp_logs=1&dates_metrics=1&session_dates_metrics=1&dates_login_times_top10_users=1&dates_login_times_top10_assets=1&dates_commands_by_risk=1'
    const dash7 = await time(10, async () => { check(await c.get(`/api/v1/index/?days=7&${switches}`)) })
    const dash30 = await time(10, async () => { check(await c.get(`/api/v1/index/?days=30&${switches}`)) })
    console.log(`floor (users list of one row):          ${fmt(floor)}`)
    console.log(`commands page (15, week, search):       ${fmt(commands)}`)
    console.log(`  … each search the first time (cold):  ${fmt(cold)}`)
    console.log(`commands page (15, week, dangerous):    ${fmt(danger)}`)
    console.log(`commands of one session (15):           ${fmt(sessionCommands)}`)
    console.log(`sessions page (15, offline, week, search): ${fmt(sessions)}`)
    console.log(`audit dashboard, 7 days:                ${fmt(dash7)}`)
    console.log(`audit dashboard, 30 days:               ${fmt(dash30)}`)
    console.log(`(after the run: ${load()})`)
    const ok = commands.median < PAGE_BUDGET_MS && dash7.median < DASHBOARD_BUDGET_MS
    console.log(`budgets: commands page median < ${PAGE_BUDGET_MS} ms ${commands.median < PAGE_BUDGET_MS ? 'met' : 'MISSED'}; dashboard (7 days) median < ${DASHBOARD_BUDGET_MS} ms ${dash7.median < DASHBOARD_BUDGET_MS ? 'met' : 'MISSED'}`)
    return ok
  } finally {
    chargeBackendsOf(undefined)
    await t.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await onBothDatabases(run)
