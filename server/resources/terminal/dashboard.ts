/**
 * `GET /api/v1/index/?<switches>` — the figures of the console and audit dashboards (JumpServer's IndexApi;
 * the switches the reference console sends: `total_count_*`, `dates_metrics`, `session_dates_metrics`,
 * `dates_login_times_top10_users|assets`, `dates_login_record_top10_sessions`, `days`, `all`, `total_count`).
 * Only the figures asked for are computed. Organization: sessions, commands and FTP logs of the current org
 * (ROOT: all); login and password-change logs of the org's members.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import { countDated } from '../../engine/daycounts.ts'
import { requirePerm } from '../../http/context.ts'
import { formatDateTime } from '../../http/datetime.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { commands } from './resources.ts'

type Q = Record<string, unknown>
const DAY_MS = 86_400_000

/** Local calendar day (YYYY-MM-DD) of an instant in a zone. */
function localDay(d: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d)
}

export async function registerDashboard(app: FastifyInstance): Promise<void> {
  for (const url of ['/api/v1/index/', '/api/v1/index']) app.get(url, (req) => indexAnswer(req))
}

async function tableExists(req: FastifyRequest, name: string): Promise<boolean> {
  const r = await sql<{ t: string | null }>`select to_regclass(${name})::text as t`.execute(req.ctx.db)
  return !!r.rows[0]?.t
}

export async function indexAnswer(req: FastifyRequest): Promise<Record<string, unknown>> {
  await requirePerm(req, 'rbac.view_audit|rbac.view_console')
  const q = (req.query ?? {}) as Q
  const on = (k: string) => { const v = q[k]; return typeof v === 'string' && v !== '' && v !== '0' && v !== 'false' }
  const all = on('all')
  const total = (k: string) => all || on('total_count') || on(k)
  const ctx = req.ctx
  const db = ctx.db
  const tz = ctx.tz
  const rawDays = Number(typeof q.days === 'string' ? q.days.trim() : '1')
  const days = Number.isInteger(rawDays) && rawDays >= 1 ? Math.min(rawDays, 366) : 1
  const now = new Date()
  // days = 1: since local midnight; otherwise the last `days` × 24 h (JumpServer's days_to_datetime).
  const since = days === 1 ? new Date(`${localDay(now, tz)}T00:00:00${offsetOf(now, tz)}`) : new Date(now.getTime() - days * DAY_MS)
  const root = ctx.orgId === ORG_IDS.ROOT
  const org = (alias = 't'): RawBuilder<unknown> => (root ? sql`true` : sql`${sql.ref(`${alias}.org_id`)} = ${ctx.orgId}`)
  const members = root ? sql`true` : sql`username in (select u.username from users u where ${ctx.orgId}::uuid = any(u.org_ids))`
  const memberNames = root ? sql`true` : sql`"user" in (select u.name || '(' || u.username || ')' from users u where ${ctx.orgId}::uuid = any(u.org_ids))`
  const count = async (q: RawBuilder<unknown>) => Number((await (q as RawBuilder<{ n: number }>).execute(db)).rows[0]?.n ?? 0)
  const data: Record<string, unknown> = {}

  if (total('total_count_users')) {
    data.total_count_users = await count(root ? sql`select count(*)::int n from users where not is_service_account`
      : sql`select count(*)::int n from users where ${ctx.orgId}::uuid = any(org_ids) and not is_service_account`)
  }
  const hasAssets = await tableExists(req, 'assets')
  const assetCount = async (extra: RawBuilder<unknown>) => (hasAssets ? count(sql`select count(*)::int n from assets t where ${org()} and ${extra}`).catch(() => 0) : 0)
  if (total('total_count_assets')) data.total_count_assets = await assetCount(sql`true`)
  if (total('total_count_users_this_week')) {
    const monday = new Date(now.getTime() - ((now.getDay() + 6) % 7) * DAY_MS)
    data.total_count_users_this_week = await count(sql`select count(*)::int n from users where date_joined >= ${new Date(`${localDay(monday, tz)}T00:00:00${offsetOf(monday, tz)}`)}
      and not is_service_account and ${root ? sql`true` : sql`${ctx.orgId}::uuid = any(org_ids)`}`)
  }
  if (total('total_count_assets_this_week')) data.total_count_assets_this_week = await assetCount(sql`t.date_created >= now() - interval '7 days'`)
  if (total('total_count_login_users')) data.total_count_login_users = await count(sql`select count(distinct username)::int n from login_logs where datetime >= ${since} and ${members}`)
  const today = new Date(`${localDay(now, tz)}T00:00:00${offsetOf(now, tz)}`)
  if (total('total_count_today_active_assets')) data.total_count_today_active_assets = await count(sql`select count(distinct asset_id)::int n from terminal_sessions t where date_start >= ${today} and ${org()}`)
  if (total('total_count_online_users')) data.total_count_online_users = await count(sql`select count(distinct user_id)::int n from terminal_sessions t where not is_finished and ${org()}`)
  if (total('total_count_online_sessions')) data.total_count_online_sessions = await count(sql`select count(*)::int n from terminal_sessions t where not is_finished and ${org()}`)
  if (total('total_count_today_failed_sessions')) data.total_count_today_failed_sessions = await count(sql`select count(*)::int n from terminal_sessions t where date_start >= ${today} and not is_success and ${org()}`)
  if (total('total_count_user_login_logs')) data.total_count_user_login_logs = await count(sql`select count(*)::int n from login_logs where datetime >= ${since} and ${members}`)
  if (total('total_count_user_login_success_logs')) data.total_count_user_login_success_logs = await count(sql`select count(*)::int n from login_logs where datetime >= ${since} and status and ${members}`)
  if (total('total_count_operate_logs')) data.total_count_operate_logs = await count(sql`select count(*)::int n from operate_logs t where datetime >= ${since} and ${org()}`)
  if (total('total_count_change_password_logs')) data.total_count_change_password_logs = await count(sql`select count(*)::int n from password_change_logs where datetime >= ${since} and ${memberNames}`)
  // Commands are counted on the generated datetime: (org_id, datetime) and the dangerous commands' index answer
  // these without reading the table.
  // The total over the period: closed days from the per-day count cache (daycounts.ts), the rest live.
  const commandsTotal = async () => (await countDated(db, commands, [org()], { from: since }))
    ?? count(sql`select count(*)::int n from commands t where datetime >= ${since} and ${org()}`)
  const commandsDanger = () => count(sql`select count(*)::int n from commands t where datetime >= ${since} and risk_level = 5 and ${org()}`)
  if (total('total_count_commands')) data.total_count_commands = await commandsTotal()
  if (total('total_count_commands_danger')) data.total_count_commands_danger = await commandsDanger()
  if (total('total_count_history_sessions')) data.total_count_history_sessions = await count(sql`select count(*)::int n from terminal_sessions t where date_start >= ${since} and is_finished and ${org()}`)
  if (total('total_count_ftp_logs')) data.total_count_ftp_logs = await count(sql`select count(*)::int n from ftp_logs t where date_start >= ${since} and ${org()}`)
  // Job logs: the executions of background tasks (automations, imports, clean-ups, …) published in the period —
  // this server's job records until the job centre's own executions exist; they belong to no organization.
  const jobs = (extra: RawBuilder<unknown>) => count(sql`select count(*)::int n from task_executions where date_published >= ${since} and ${extra}`)
  if (total('total_count_job_logs')) data.total_count_job_logs = await jobs(sql`true`)
  if (total('total_count_job_logs_running')) data.total_count_job_logs_running = await jobs(sql`state = 'RUNNING'`)
  if (total('total_count_job_logs_failed')) data.total_count_job_logs_failed = await jobs(sql`state = 'FAILURE'`)
  if (total('total_count_type_to_assets_amount')) data.total_count_type_to_assets_amount = []

  // Per-day series over the last `days` local days (oldest first), labelled MM-DD.
  const dates: string[] = []
  for (let i = days - 1; i >= 0; i--) dates.push(localDay(new Date(now.getTime() - i * DAY_MS), tz))
  const from = new Date(`${dates[0]}T00:00:00${offsetOf(new Date(now.getTime() - (days - 1) * DAY_MS), tz)}`)
  const series = async (q: RawBuilder<unknown>) => {
    const r = await (q as RawBuilder<{ d: string; n: number }>).execute(db)
    const by = new Map(r.rows.map((x) => [String(x.d), Number(x.n)]))
    return dates.map((d) => by.get(d) ?? 0)
  }
  const dayOf = (col: string) => sql`to_char(${sql.ref(col)} at time zone ${tz}, 'YYYY-MM-DD')`
  if (all || on('dates_metrics') || on('session_dates_metrics')) data.dates_metrics_date = dates.map((d) => d.slice(5))
  const sessionSeries = all || on('session_dates_metrics')
  const activeSeries = all || on('dates_metrics')
  if (sessionSeries || activeSeries) {
    // Sessions, active users and active assets per day: one pass over the period's sessions.
    const r = await sql<{ d: string; n: number; u: number; a: number }>`select to_char(x.d, 'YYYY-MM-DD') d, x.n, x.u, x.a from (
        select (date_start at time zone ${tz})::date d, count(*)::int n, count(distinct user_id)::int u, count(distinct asset_id)::int a
        from terminal_sessions t where date_start >= ${from} and ${org()} group by 1) x`.execute(db)
    const by = new Map(r.rows.map((x) => [String(x.d), x]))
    const per = (k: 'n' | 'u' | 'a') => dates.map((d) => Number(by.get(d)?.[k] ?? 0))
    if (sessionSeries) data.dates_metrics_total_count_session = per('n')
    if (activeSeries) {
      data.dates_metrics_total_count_active_users = per('u')
      data.dates_metrics_total_count_active_assets = per('a')
    }
  }
  if (activeSeries) {
    data.dates_metrics_total_count_login = await series(sql`select ${dayOf('datetime')} d, count(*)::int n from login_logs where datetime >= ${from} and ${members} group by 1`)
  }
  if (all || on('dates_login_times_top10_assets')) {
    const r = await sql<{ asset: string; total: number; last: Date }>`select asset, count(*)::int total, max(date_start) last from terminal_sessions t
      where date_start >= ${since} and ${org()} group by asset order by total desc, asset limit 10`.execute(db)
    data.dates_login_times_top10_assets = r.rows.map((x) => ({ asset: x.asset, total: x.total, last: formatDateTime(x.last, tz) }))
  }
  if (all || on('dates_login_times_top10_users')) {
    const r = await sql<{ user_id: string; user: string; total: number; last: Date }>`select user_id, max("user") as "user", count(*)::int total, max(date_start) last
      from terminal_sessions t where date_start >= ${since} and ${org()} group by user_id order by total desc, 2 limit 10`.execute(db)
    data.dates_login_times_top10_users = r.rows.map((x) => ({ user_id: x.user_id, user: x.user, total: x.total, last: formatDateTime(x.last, tz) }))
  }
  if (all || on('dates_login_record_top10_sessions')) {
    const r = await sql<{ user: string; asset: string; is_finished: boolean; date_start: Date }>`select "user", asset, is_finished, date_start
      from terminal_sessions t where date_start >= ${since} and ${org()} order by date_start desc limit 10`.execute(db)
    data.dates_login_record_top10_sessions = r.rows.map((x) => ({ user: x.user, asset: x.asset, is_finished: x.is_finished, date_start: formatDateTime(x.date_start, tz), timesince: timesince(x.date_start, now) }))
  }
  if (all || on('dates_commands_by_risk')) {
    // Our addition for the audit dashboard's "commands by risk" chart.
    const allCommands = typeof data.total_count_commands === 'number' ? data.total_count_commands : await commandsTotal()
    const danger = typeof data.total_count_commands_danger === 'number' ? data.total_count_commands_danger : await commandsDanger()
    data.dates_commands_by_risk = [{ risk_level: 0, total: allCommands - danger }, { risk_level: 5, total: danger }]
  }
  return data
}

/** `+08:00` style offset of a zone at an instant. */
function offsetOf(d: Date, tz: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT'
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name)
  return m ? `${m[1]}:${m[2] ?? '00'}` : '+00:00'
}

function timesince(d: Date, now: Date): string {
  const s = Math.max(0, Math.floor((now.getTime() - d.getTime()) / 1000))
  if (s < 60) return `${s} seconds`
  if (s < 3600) return `${Math.floor(s / 60)} minutes`
  if (s < 86400) return `${Math.floor(s / 3600)} hours`
  return `${Math.floor(s / 86400)} days`
}
