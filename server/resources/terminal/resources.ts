/**
 * The terminal module's resources (contract §5.5, §5.8): terminals, sessions, commands, and the audit logs the
 * console reads (FTP, login, password change). Components write sessions, commands and FTP logs through the
 * same URLs (engine create/update with the SystemComponent role's add/change permissions); auditors read.
 * Component-only routes (registration, heartbeat, tasks, replays) are in components.ts.
 */
import { sql } from 'kysely'
import type { FieldDef, ResourceDef } from '../../engine/types.ts'
import { jsonObject, type Values } from '../../http/body.ts'
import { isUuid, normUuid } from '../../engine/parse.ts'
import { tr } from '../../i18n.ts'
import { ApiError } from '../../http/errors.ts'
import { idField } from '../common.ts'
import './messages.ts'

/** A terminal reporting within this many seconds is alive (JumpServer: two heartbeats of 30 s, plus slack). */
export const ALIVE_SECONDS = 120

const str = (name: string, label: string, max: number, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'string', label, max_length: max, required: false, allow_blank: true, default: '', ...extra })

export const PROTOCOLS = ['ssh', 'sftp', 'rdp', 'vnc', 'telnet', 'mysql', 'mariadb', 'oracle', 'postgresql', 'sqlserver', 'db2', 'dameng', 'clickhouse', 'redis', 'mongodb', 'k8s', 'http', 'chatgpt']

export const terminals: ResourceDef<'terminals', { is_alive: boolean }> = {
  name: 'terminal.terminal',
  app: 'terminal',
  model: 'terminal',
  verboseName: 'Terminal',
  path: '/api/v1/terminal/terminals/',
  table: 'terminals',
  systemPerms: true,
  verbs: ['list', 'retrieve', 'update', 'destroy', 'export'],
  scope: () => sql`not t.is_deleted`,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128 },
    { name: 'type', type: 'string', label: 'Type', read_only: true },
    { name: 'remote_addr', type: 'string', label: 'Remote addr', read_only: true },
    { name: 'session_online', type: 'integer', label: 'Session online', read_only: true,
      expr: '(select count(*) from terminal_sessions s where s.terminal_id = t.id and not s.is_finished)' },
    str('command_storage', 'Command storage', 128, { default: 'default' }),
    str('replay_storage', 'Replay storage', 128, { default: 'default' }),
    { name: 'is_active', type: 'boolean', label: 'Is active', read_only: true, expr: 'coalesce((select u.is_active from users u where u.id = t.user_id), false)' },
    { name: 'is_alive', type: 'boolean', label: 'Is alive', read_only: true,
      expr: `coalesce(t.date_stat > now() - interval '${ALIVE_SECONDS} seconds', false)` },
    { name: 'load', type: 'labeled_choice', label: 'Load status', read_only: true, column: false,
      choices: [{ value: 'critical', label: 'Critical' }, { value: 'high', label: 'High' }, { value: 'normal', label: 'Normal' }, { value: 'offline', label: 'Offline' }],
      get: (row, ctx) => { const v = loadOf(row); return { value: v, label: tr(ctx.lang, LOADS[v]!) } } },
    { name: 'stat', type: 'json', label: 'Stat', read_only: true },
    { name: 'date_stat', type: 'datetime', label: 'Datetime', read_only: true },
    { name: 'date_created', type: 'datetime', label: 'Date created', read_only: true },
    { name: 'comment', type: 'text', label: 'Comment', allow_blank: true, default: '' },
  ],
  search: ['name', 'remote_addr'],
  filters: ['name', 'remote_addr', 'type'],
  ordering: { fields: ['name', 'type', 'date_created'], default: ['name'] },
  sizes: { mini: ['id', 'name'] },
  hooks: {
    // A terminal with online sessions is not deleted (JumpServer's "have_online_session"); deleting marks it
    // deleted and disables its service account, as JumpServer does.
    beforeDelete: async (tx, row) => {
      const r = await sql<{ n: number }>`select count(*)::int as n from terminal_sessions where terminal_id = ${row.id} and not is_finished`.execute(tx)
      if ((r.rows[0]?.n ?? 0) > 0) {
        throw new ApiError(400, { detail: 'Have online sessions', code: 'have_online_session' })
      }
    },
    destroy: async (tx, row) => {
      await sql`update terminals set is_deleted = true where id = ${row.id}`.execute(tx)
      if (row.user_id) {
        await sql`update users set is_active = false where id = ${row.user_id} and is_service_account`.execute(tx)
        await sql`update access_keys set is_active = false where user_id = ${row.user_id}`.execute(tx)
      }
    },
  },
}

const LOADS: Record<string, string> = { critical: 'Critical', high: 'High', normal: 'Normal', offline: 'Offline' }

/** JumpServer's ComputeLoadUtil thresholds: `[normal up to, high up to]`; above (or below 0) is critical. */
const LOAD_THRESHOLDS: Array<[key: string, normal: number, high: number]> = [['cpu_load', 5, 20], ['memory_used', 85, 95], ['disk_used', 80, 99]]

/**
 * JumpServer's Terminal.load (ComputeLoadUtil.compute_load): offline without a recent heartbeat; else the worst of
 * cpu load (normal up to 5, high up to 20), memory used % (85, 95) and disk used % (80, 99), each kept to one
 * decimal place as JumpServer's Status does; a missing value counts as 0.
 */
export function loadOf(row: { is_alive: boolean; stat: unknown }): 'critical' | 'high' | 'normal' | 'offline' {
  if (!row.is_alive) return 'offline'
  const s = (row.stat ?? {}) as Record<string, unknown>
  let worst: 'critical' | 'high' | 'normal' = 'normal'
  for (const [key, normal, high] of LOAD_THRESHOLDS) {
    const raw = typeof s[key] === 'number' ? (s[key] as number) : 0
    const v = Math.round(raw * 10) / 10
    if (!(v >= 0 && v <= high)) return 'critical'
    if (v > normal) worst = 'high'
  }
  return worst
}

const SESSION_TYPES = [{ value: 'normal', label: 'Normal' }, { value: 'tunnel', label: 'Tunnel' }, { value: 'command', label: 'Command' }]
const LOGIN_FROM = [{ value: 'ST', label: 'SSH Terminal' }, { value: 'RT', label: 'RDP Terminal' }, { value: 'WT', label: 'Web Terminal' }, { value: 'DT', label: 'DB Terminal' }]

export const sessions: ResourceDef<'terminal_sessions'> = {
  name: 'terminal.session',
  app: 'terminal',
  model: 'session',
  verboseName: 'Session',
  path: '/api/v1/terminal/sessions/',
  table: 'terminal_sessions',
  orgScoped: true,
  noAudit: true,
  verbs: ['list', 'retrieve', 'create', 'update', 'export'],
  fields: [
    // Writable on create, as in JumpServer (a UUID primary key with a default): a component names the session id
    // it uses for its replay and commands; an update never changes it (hooks.columns).
    { name: 'id', type: 'uuid', label: 'ID', required: false, unique: true },
    str('user', 'User', 128, { required: true, allow_blank: false, default: undefined }),
    str('asset', 'Asset', 128, { required: true, allow_blank: false, default: undefined }),
    str('user_id', 'User ID', 36),
    str('asset_id', 'Asset ID', 36),
    str('account', 'Account', 128),
    str('account_id', 'Account ID', 36),
    { name: 'protocol', type: 'choice', label: 'Protocol', default: 'ssh', choices: PROTOCOLS.map((p) => ({ value: p, label: p })) },
    { name: 'type', type: 'labeled_choice', label: 'Type', default: 'normal', choices: SESSION_TYPES },
    { name: 'login_from', type: 'labeled_choice', label: 'Login from', default: 'ST', choices: LOGIN_FROM },
    str('remote_addr', 'Remote addr', 128),
    { name: 'is_success', type: 'boolean', label: 'Is success', default: true },
    { name: 'is_finished', type: 'boolean', label: 'Is finished', default: false },
    { name: 'has_replay', type: 'boolean', label: 'Has replay', read_only: true },
    { name: 'has_command', type: 'boolean', label: 'Has command', read_only: true,
      expr: 'exists(select 1 from commands c where c.session = t.id::text)' },
    { name: 'terminal', type: 'fk', label: 'Terminal', read_only: true, relation: { resource: 'terminal.terminal', unscoped: true } },
    { name: 'date_start', type: 'datetime', label: 'Date start', read_only: true },
    { name: 'date_end', type: 'datetime', label: 'Date end', allow_null: true, required: false },
    { name: 'comment', type: 'text', label: 'Comment', allow_blank: true, default: '' },
    { name: 'can_replay', type: 'boolean', label: 'Can replay', read_only: true, column: false, get: (row) => !!row.has_replay },
    // Joinable (monitor, share) while a built-in terminal process holds it live (server/terminal/live.ts); a file
    // transfer (SFTP) session is held live too, but has no screen.
    { name: 'can_join', type: 'boolean', label: 'Can join', read_only: true, column: false,
      expr: `t.protocol <> 'sftp' and exists(select 1 from terminal_live_sessions l where l.session_id = t.id)` },
    { name: 'can_terminate', type: 'boolean', label: 'Can terminate', read_only: true, column: false,
      get: (row) => !row.is_finished && !!row.terminal_id },
    { name: 'command_amount', type: 'integer', label: 'Command amount', read_only: true,
      expr: '(select count(*) from commands c where c.session = t.id::text)' },
  ],
  search: ['user', 'asset', 'account', 'remote_addr'],
  filters: ['user', 'user_id', 'asset', 'asset_id', 'account', 'account_id', 'protocol', 'type', 'login_from', 'remote_addr', 'is_finished', 'is_success',
    { name: 'terminal', apply: (v) => (isUuid(v) ? sql`t.terminal_id = ${normUuid(v)}` : sql`false`) }],
  dateRange: 'date_start',
  ordering: { fields: ['date_start', 'date_end', 'user', 'asset', 'account', 'protocol', 'login_from', 'remote_addr', 'command_amount'], default: ['-date_start'] },
  hooks: {
    columns: async (values, ctx, info) => {
      if (info.op !== 'create') {
        const out: Values = { id: info.existing!.id }
        // Finishing without an end date: now (koko sends date_end; lion does not always).
        if (values.is_finished === true && !info.existing?.date_end && values.date_end === undefined) out.date_end = new Date()
        return out
      }
      const out: Values = {}
      const body = jsonObject(info.req?.body)
      if (body && typeof body.date_start === 'string' && Number.isFinite(Date.parse(body.date_start))) out.date_start = new Date(body.date_start)
      if (ctx.user) {
        const r = await sql<{ id: string }>`select id from terminals where user_id = ${ctx.user.id} and not is_deleted`.execute(info.tx)
        if (r.rows[0]) out.terminal_id = r.rows[0].id
      }
      return out
    },
  },
}

export const RISK_LEVELS = [{ value: 0, label: 'Ordinary' }, { value: 5, label: 'Dangerous' }]

export const commands: ResourceDef<'commands'> = {
  name: 'terminal.command',
  app: 'terminal',
  model: 'command',
  verboseName: 'Command',
  path: '/api/v1/terminal/commands/',
  table: 'commands',
  orgScoped: true,
  // The session's organization decides (issue 36 point 10): in ROOT a component's command goes to its session's
  // organization; elsewhere a session of another organization is a 400 on `session`.
  parent: { field: 'session', table: 'terminal_sessions' },
  noAudit: true,
  verbs: ['list', 'retrieve', 'create', 'export'],
  fields: [
    idField(),
    str('user', 'User', 64, { required: true, allow_blank: false, default: undefined }),
    str('asset', 'Asset', 128, { required: true, allow_blank: false, default: undefined }),
    str('account', 'Account', 64),
    str('input', 'Input', 128, { required: true, allow_blank: false, default: undefined }),
    str('output', 'Output', 10240),
    str('session', 'Session', 36, { required: true, allow_blank: false, default: undefined }),
    { name: 'risk_level', type: 'labeled_choice', label: 'Risk level', default: 0, choices: RISK_LEVELS },
    str('remote_addr', 'Remote addr', 128),
    { name: 'timestamp', type: 'integer', label: 'Timestamp', required: true, min_value: 0 },
    { name: 'timestamp_display', type: 'string', label: 'Datetime', read_only: true, column: false,
      get: (row, ctx) => displayTimestamp(Number(row.timestamp), ctx.tz) },
  ],
  search: ['input', 'user', 'asset', 'account'],
  searchColumn: 'search_text',
  filters: ['user', 'asset', 'account', 'session', 'risk_level', 'remote_addr',
    { name: 'input', apply: (v) => sql`t.input ilike ${`%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` }],
  dateRange: 'datetime',
  ordering: { fields: ['timestamp', 'risk_level', 'user', 'asset'], default: ['-timestamp'] },
}

function displayTimestamp(ts: number, tz: string): string {
  if (!Number.isFinite(ts)) return ''
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).formatToParts(new Date(ts * 1000))
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? ''
  return `${p('year')}/${p('month')}/${p('day')} ${p('hour') === '24' ? '00' : p('hour')}:${p('minute')}:${p('second')}`
}

const FTP_OPERATES = ['mkdir', 'rmdir', 'delete', 'upload', 'rename', 'symlink', 'download']
  .map((v) => ({ value: v, label: v === 'symlink' ? 'Symlink' : v[0]!.toUpperCase() + v.slice(1) }))

export const ftpLogs: ResourceDef<'ftp_logs'> = {
  name: 'audits.ftplog',
  app: 'audits',
  model: 'ftplog',
  verboseName: 'FTP log',
  path: '/api/v1/audits/ftp-logs/',
  table: 'ftp_logs',
  orgScoped: true,
  noAudit: true,
  verbs: ['list', 'retrieve', 'create', 'export'],
  // Components post FTP logs: JumpServer lets them with the add permission, which no role but components and
  // administrators hold (the catalogue has view/download only: add falls back to the terminal's).
  perms: { add: 'terminal.add_session' },
  fields: [
    idField(),
    str('user', 'User', 128, { required: true, allow_blank: false, default: undefined }),
    str('remote_addr', 'Remote addr', 128),
    str('asset', 'Asset', 1024, { required: true, allow_blank: false, default: undefined }),
    str('account', 'Account', 128),
    { name: 'operate', type: 'labeled_choice', label: 'Operate', required: true, choices: FTP_OPERATES },
    str('filename', 'Filename', 1024),
    { name: 'is_success', type: 'boolean', label: 'Is success', default: true },
    str('session', 'Session', 36),
    { name: 'date_start', type: 'datetime', label: 'Date start', read_only: true },
  ],
  search: ['user', 'asset', 'account', 'filename'],
  filters: ['user', 'asset', 'account', 'filename', 'operate', 'is_success', 'session', 'remote_addr'],
  dateRange: 'date_start',
  ordering: { fields: ['date_start', 'user', 'asset', 'operate'], default: ['-date_start'] },
}

export const LOGIN_TYPES = [{ value: 'W', label: 'Web' }, { value: 'T', label: 'Terminal' }, { value: 'U', label: 'Unknown' }]

export const loginLogs: ResourceDef<'login_logs'> = {
  name: 'audits.userloginlog',
  app: 'audits',
  model: 'userloginlog',
  verboseName: 'User login log',
  path: '/api/v1/audits/login-logs/',
  table: 'login_logs',
  noAudit: true,
  verbs: ['list', 'retrieve', 'export'],
  fields: [
    idField(),
    { name: 'username', type: 'string', label: 'Username', read_only: true },
    { name: 'type', type: 'labeled_choice', label: 'Type', read_only: true, choices: LOGIN_TYPES },
    { name: 'ip', type: 'string', label: 'Login IP', read_only: true },
    { name: 'city', type: 'string', label: 'Login city', read_only: true },
    { name: 'user_agent', type: 'string', label: 'User agent', read_only: true },
    { name: 'mfa', type: 'labeled_choice', label: 'MFA', read_only: true, choices: [{ value: 0, label: 'Disabled' }, { value: 1, label: 'Enabled' }, { value: 2, label: '-' }] },
    { name: 'reason', type: 'string', label: 'Reason', read_only: true },
    { name: 'reason_display', type: 'string', label: 'Reason display', read_only: true, column: false,
      get: (row, ctx) => tr(ctx.lang, String(row.reason ?? '')) },
    { name: 'backend', type: 'string', label: 'Authentication backend', read_only: true },
    { name: 'backend_display', type: 'string', label: 'Authentication backend', read_only: true, column: false, get: (row) => backendDisplay(String(row.backend ?? '')) },
    { name: 'status', type: 'labeled_choice', label: 'Status', read_only: true, choices: [{ value: true, label: 'Success' }, { value: false, label: 'Failed' }] },
    { name: 'datetime', type: 'datetime', label: 'Datetime', read_only: true },
  ],
  search: ['username', 'ip', 'city'],
  filters: ['username', 'ip', 'city', 'type', 'status', 'mfa'],
  dateRange: 'datetime',
  ordering: { fields: ['datetime', 'username', 'ip', 'type', 'status'], default: ['-datetime'] },
}

function backendDisplay(b: string): string {
  const names: Record<string, string> = { password: 'Password', publickey: 'SSH Key', ldap: 'LDAP', oidc: 'OIDC', cas: 'CAS', saml2: 'SAML2', radius: 'Radius', access_key: 'Access key' }
  return names[b] ?? b
}

export const passwordChangeLogs: ResourceDef<'password_change_logs'> = {
  name: 'audits.passwordchangelog',
  app: 'audits',
  model: 'passwordchangelog',
  verboseName: 'Password change log',
  path: '/api/v1/audits/password-change-logs/',
  table: 'password_change_logs',
  noAudit: true,
  verbs: ['list', 'retrieve', 'export'],
  fields: [
    idField(),
    { name: 'user', type: 'string', label: 'User', read_only: true },
    { name: 'change_by', type: 'string', label: 'Change by', read_only: true },
    { name: 'remote_addr', type: 'string', label: 'Remote addr', read_only: true },
    { name: 'datetime', type: 'datetime', label: 'Datetime', read_only: true },
  ],
  search: ['user', 'change_by', 'remote_addr'],
  filters: ['user', 'change_by', 'remote_addr'],
  dateRange: 'datetime',
  ordering: { fields: ['datetime', 'user', 'change_by'], default: ['-datetime'] },
}
