/**
 * Session sharing (JumpServer 3.2's SessionSharingViewSet and SessionJoinRecordsViewSet, migration 033): a
 * component shares a session with a verify code (`/session-sharings/`), records each attempt to join it
 * (`/session-join-records/`, refused attempts kept with their reason) and finishes a record when the joiner
 * leaves. lina's session detail lists the records (`?session=<id>`). docs/terminal.md.
 */
import { randomInt } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../../db/connection.ts'
import type { ActionDef, Ctx, FieldDef, ResourceApi, ResourceDef } from '../../engine/types.ts'
import { isUuid, normUuid } from '../../engine/parse.ts'
import { ApiError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { getSetting } from '../../settings/store.ts'
import { createdBy, dateCreated, dateUpdated, idField } from '../common.ts'

addMessages({
  'Session sharing': ['会话分享', 'セッション共有'],
  'Session join record': ['会话加入记录', 'セッション参加記録'],
  'Creator': ['创建者', '作成者'],
  'Verify code': ['验证码', '検証コード'],
  'Expired time (min)': ['过期时间 (分)', '期限切れ時間 (分)'],
  'Users display': ['用户名称', 'ユーザー名'],
  'Action permission': ['操作权限', 'アクションパーミッション'],
  'Read Only': ['只读', '読み取り専用'],
  'Writable': ['读写', '書き込み可能'],
  'Joiner': ['加入者', '参加者'],
  'Date left': ['结束日期', '退出日時'],
  'Link not active': ['链接失效', 'リンクがアクティブでない'],
  'Link expired': ['链接过期', 'リンク期限切れ'],
  'User not allowed to join': ['该用户无权加入会话', 'ユーザーはセッションに参加できません'],
  'Invalid verification code': ['验证码不正确', '検証コードが無効'],
  'Secure session sharing settings is disabled': ['未开启会话共享', '安全なセッション共有設定が無効になっています'],
})

const ACTION_PERMISSIONS = [{ value: 'readonly', label: 'Read Only' }, { value: 'writable', label: 'Writable' }]
const LOGIN_FROM = [{ value: 'ST', label: 'SSH Terminal' }, { value: 'RT', label: 'RDP Terminal' }, { value: 'WT', label: 'Web Terminal' }, { value: 'DT', label: 'DB Terminal' }]

/** JumpServer's random_string(4): letters and digits, at least one lower, one upper and one digit. */
function verifyCode(): string {
  const sets = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789']
  const all = sets.join('')
  for (;;) {
    const code = Array.from({ length: 4 }, () => all[randomInt(all.length)]).join('')
    if (sets.every((s) => [...code].some((c) => s.includes(c)))) return code
  }
}

/** The organization of a visible row of `table` named by `body[field]` (a component in ROOT sees every one). */
async function orgOfRow(db: DB, table: 'terminal_sessions' | 'session_sharings', raw: unknown): Promise<string | undefined> {
  if (!isUuid(raw)) return undefined
  const r = await sql<{ org_id: string }>`select org_id from ${sql.table(table)} where id = ${normUuid(raw)}`.execute(db)
  return r.rows[0]?.org_id
}

const sessionField = (extra: Partial<FieldDef> = {}): FieldDef => ({
  name: 'session', type: 'pk', label: 'Session', required: true, relation: { resource: 'terminal.session', attrs: ['id', 'user'] }, ...extra,
})

/** Sharing creation is refused while the Security setting "Session share" is off (JumpServer's dispatch: 405). */
async function createSharing(req: FastifyRequest, reply: FastifyReply, api: ResourceApi): Promise<unknown> {
  if (!(await getSetting(req.ctx.db, 'SECURITY_SESSION_SHARE'))) {
    throw new ApiError(405, { detail: tr(req.ctx.lang, 'Secure session sharing settings is disabled'), code: 'method_not_allowed' })
  }
  return reply.status(201).send(await api.create(req, req.body))
}

export const sessionSharings: ResourceDef<'session_sharings'> = {
  name: 'terminal.sessionsharing',
  app: 'terminal',
  model: 'sessionsharing',
  verboseName: 'Session sharing',
  path: '/api/v1/terminal/session-sharings/',
  table: 'session_sharings',
  orgScoped: true,
  noAudit: true,
  // Each user lists the sharings of their own sessions (JumpServer: `creator = request.user`).
  scope: (ctx) => (ctx.user ? sql`t.creator_id = ${ctx.user.id}` : sql`false`),
  ownObjects: true,
  verbs: ['list', 'retrieve', 'create'],
  perms: { add: 'terminal.add_supersessionsharing' },
  parent: { field: 'session', table: 'terminal_sessions' },
  fields: [
    idField(),
    { name: 'verify_code', type: 'string', label: 'Verify code', read_only: true },
    { name: 'is_active', type: 'boolean', label: 'Active', default: true },
    { name: 'expired_time', type: 'integer', label: 'Expired time (min)', default: 0 },
    createdBy, dateCreated, dateUpdated,
    {
      name: 'users', type: 'list', label: 'User', required: true, allow_null: true, write_only: true, column: false,
      child: { name: 'user', type: 'string', label: 'User', max_length: 36 },
      toColumns: (v) => ({ users: Array.isArray(v) ? v.map(String).join(',') : '' }),
    },
    { name: 'users_display', type: 'list', label: 'Users display', read_only: true, child: { name: 'user', type: 'string', label: 'User' },
      expr: `array(select u.name || '(' || u.username || ')' from users u where u.id::text = any(string_to_array(t.users, ',')) order by u.username)` },
    { name: 'action_permission', type: 'labeled_choice', label: 'Action permission', write_only: true, choices: ACTION_PERMISSIONS, default: 'writable' },
    sessionField(),
    { name: 'creator', type: 'pk', label: 'Creator', read_only: true, relation: { resource: 'users.user', attrs: ['id', 'name'], unscoped: true } },
  ],
  search: ['verify_code', 'created_by'],
  filters: ['session', 'creator', 'is_active', 'expired_time'],
  ordering: { fields: ['date_created', 'expired_time'], default: ['-date_created'] },
  hooks: {
    create: createSharing,
    // The creator is the session's user (JumpServer's serializer); a session naming no user of ours has none (its
    // sharings are then listed to nobody, and still joinable).
    columns: async (values, _ctx, info) => {
      if (info.op !== 'create') return {}
      const s = (await sql<{ user: string; user_id: string }>`select "user", user_id from terminal_sessions where id = ${values.session}`.execute(info.tx)).rows[0]!
      const owner = isUuid(s.user_id)
        ? (await sql<{ id: string }>`select id from users where id = ${normUuid(s.user_id)}`.execute(info.tx)).rows[0]?.id
        : undefined
      return { verify_code: verifyCode(), creator_id: owner ?? null, created_by: s.user ? s.user.slice(0, 32) : undefined }
    },
  },
}

/** Why the joiner may not join (JumpServer's SessionJoinRecord.can_join), or undefined. */
async function joinRefusal(db: DB, recordId: string, lang: Ctx['lang']): Promise<string | undefined> {
  const r = (await sql<{ is_active: boolean; expired: boolean; users: string; joiner_id: string | null; code_ok: boolean }>`
    select s.is_active, now() > s.date_created + make_interval(mins => s.expired_time) as expired, s.users, r.joiner_id,
      r.verify_code = s.verify_code as code_ok
    from session_join_records r join session_sharings s on s.id = r.sharing_id where r.id = ${recordId}`.execute(db)).rows[0]
  if (!r) return undefined
  if (!r.is_active) return tr(lang, 'Link not active')
  if (r.expired) return tr(lang, 'Link expired')
  if (r.users && !r.users.split(',').includes(String(r.joiner_id))) return tr(lang, 'User not allowed to join')
  if (!r.code_ok) return tr(lang, 'Invalid verification code')
  return undefined
}

/**
 * `POST …/session-join-records/`: the record is kept either way; a refused join is stored unsuccessful with its
 * reason and answered `400 {"error": reason}` (JumpServer's create); bad input gets the usual field errors.
 */
async function createRecord(req: FastifyRequest, reply: FastifyReply, api: ResourceApi): Promise<unknown> {
  const made = await api.create(req, req.body)
  const reason = await joinRefusal(req.ctx.db, String(made.id), req.ctx.lang)
  if (!reason) return reply.status(201).send(made)
  await sql`update session_join_records set is_success = false, reason = ${reason.slice(0, 1024)}, date_updated = now() where id = ${made.id}`.execute(req.ctx.db)
  return reply.status(400).send({ error: reason })
}

/** `PATCH …/session-join-records/<id>/finished/` (terminal.change_sessionjoinrecord): the joiner left → `{msg: "ok"}`. */
const finished: ActionDef = {
  path: 'finished', detail: true, method: 'PATCH', perm: 'terminal.change_sessionjoinrecord',
  async handler(req, _reply, api, id) {
    const row = await api.getObject(req, id!)
    if (!row.is_finished) {
      await sql`update session_join_records set is_finished = true, date_left = now(), date_updated = now() where id = ${row.id} and not is_finished`.execute(req.ctx.db)
    }
    return { msg: 'ok' }
  },
}

export const sessionJoinRecords: ResourceDef<'session_join_records'> = {
  name: 'terminal.sessionjoinrecord',
  app: 'terminal',
  model: 'sessionjoinrecord',
  verboseName: 'Session join record',
  path: '/api/v1/terminal/session-join-records/',
  table: 'session_join_records',
  orgScoped: true,
  noAudit: true,
  verbs: ['list', 'retrieve', 'create', 'update', 'export'],
  // The record's organization and session are its sharing's (JumpServer's serializer).
  parent: { field: 'sharing', table: 'session_sharings' },
  fields: [
    idField(),
    { name: 'joiner_display', type: 'string', label: 'Joiner', read_only: true,
      expr: `(select u.name || '(' || u.username || ')' from users u where u.id = t.joiner_id)` },
    { name: 'verify_code', type: 'string', label: 'Verify code', required: true, max_length: 16, allow_blank: false },
    { name: 'date_joined', type: 'datetime', label: 'Date joined', read_only: true },
    { name: 'date_left', type: 'datetime', label: 'Date left', allow_null: true },
    { name: 'remote_addr', type: 'string', label: 'Remote addr', required: true, allow_null: true, max_length: 128 },
    { name: 'login_from', type: 'labeled_choice', label: 'Login from', choices: LOGIN_FROM, default: 'WT' },
    { name: 'is_success', type: 'boolean', label: 'Is success', default: true },
    { name: 'reason', type: 'string', label: 'Reason', max_length: 1024, allow_null: true, default: '-' },
    { name: 'is_finished', type: 'boolean', label: 'Is finished', default: false },
    createdBy, dateCreated, dateUpdated,
    { name: 'action_permission', type: 'labeled_choice', label: 'Action permission', read_only: true, choices: ACTION_PERMISSIONS,
      expr: '(select s.action_permission from session_sharings s where s.id = t.sharing_id)' },
    sessionField({ required: false, read_only: true }),
    // Any sharing (a component creates records for sharings it made for another user's session).
    { name: 'sharing', type: 'pk', label: 'Session sharing', required: true, relation: { resource: 'terminal.sessionsharing', attrs: ['id', 'verify_code'], unscoped: true } },
    { name: 'joiner', type: 'pk', label: 'Joiner', required: true, relation: { resource: 'users.user', attrs: ['id', 'name'], unscoped: true } },
  ],
  search: ['verify_code', 'remote_addr', 'reason'],
  filters: ['session', 'sharing', 'joiner', 'login_from', 'is_success', 'is_finished', 'remote_addr'],
  ordering: { fields: ['date_joined', 'date_left', 'is_success', 'is_finished', 'login_from'], default: ['-date_joined'] },
  hooks: {
    create: createRecord,
    // The sharing must belong to the current organization (the relation is unscoped to reach other users' sharings).
    validate: async (values, ctx) => {
      if (values.sharing === undefined || ctx.orgId === ORG_IDS.ROOT) return undefined
      const org = await orgOfRow(ctx.db, 'session_sharings', values.sharing)
      return org === ctx.orgId ? undefined : { sharing: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(values.sharing) })] }
    },
    columns: async (values, _ctx, info) => {
      if (info.op !== 'create') return {}
      const s = (await sql<{ session_id: string }>`select session_id from session_sharings where id = ${values.sharing}`.execute(info.tx)).rows[0]!
      return { session_id: s.session_id }
    },
  },
  actions: [finished],
}
