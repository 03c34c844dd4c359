/**
 * Users `/api/v1/users/users/` (contract §4.11, §5.1). In an organization the list holds that org's members
 * (users with an org role binding there); in ROOT every user. New users join the current organization.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { checkPasswordRules, hashPassword, type PasswordRules } from '../../auth/password.ts'
import type { DB, RowOf } from '../../db/connection.ts'
import type { Action, Ctx, FieldDef, FilterDef, LoadArgs, ResourceDef, StoredRow } from '../../engine/types.ts'
import { ApiError } from '../../http/errors.ts'
import { tr } from '../../i18n.ts'
import { BUILTIN_ROLES, ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { assertCanManage } from '../../rbac/manage.ts'
import { keepSession } from '../../http/session.ts'
import { allSettings } from '../../settings/store.ts'
import { normalizePhone, phoneValue } from '../../startup/phone.ts'
import { parseSshPublicKey } from '../../startup/ssh-key.ts'
import { mfaForcedBySetting } from '../../startup/profile-view.ts'
import { commentField, createdBy, holds, idField, isActive, memberCond, updatedBy } from '../common.ts'
import { userActions } from './actions.ts'
import { createResetLink } from './reset.ts'
import { sendUserCreatedMail } from '../../mail/mails.ts'
import { mailConfigured } from '../../mail/sender.ts'
import { defaultExpiry } from '../../engine/expiry.ts'
import './messages.ts'

export const MFA_CHOICES = [{ value: 0, label: 'Disable' }, { value: 1, label: 'Enable' }, { value: 2, label: 'Force enable' }]
export const SOURCE_CHOICES = [
  { value: 'local', label: 'Local' }, { value: 'ldap', label: 'LDAP/AD' }, { value: 'openid', label: 'OpenID' },
  { value: 'radius', label: 'Radius' }, { value: 'cas', label: 'CAS' }, { value: 'saml2', label: 'SAML2' },
  { value: 'oauth2', label: 'OAuth2' }, { value: 'custom', label: 'Custom' },
]
const STRATEGY_CHOICES = [
  { value: 'email', label: 'Reset link will be generated and sent to the user' },
  { value: 'custom', label: 'Set password' },
]
const PASSWORD_RULE_KEYS = ['SECURITY_PASSWORD_MIN_LENGTH', 'SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH', 'SECURITY_PASSWORD_UPPER_CASE',
  'SECURITY_PASSWORD_LOWER_CASE', 'SECURITY_PASSWORD_NUMBER', 'SECURITY_PASSWORD_SPECIAL_CHAR'] as const
const RULE_TEXT: Record<string, string> = {
  min_length: 'Password must be at least {n} characters long',
  upper_case: 'Password must contain an uppercase letter',
  lower_case: 'Password must contain a lowercase letter',
  number: 'Password must contain a digit',
  special_char: 'Password must contain a special character',
}
/** JumpServer's default expiry: `now + timedelta(days=365 * 70)` — whole days, so the time of day stays (defect: 365.25 made it 12 h off). */
const WRITE_ACTIONS = new Set<Action>(['create', 'bulk_create', 'update', 'partial_update', 'bulk_update', 'partial_bulk_update', 'import'])

/** Role fields are dropped when the caller lacks the binding permission for the action (view / add). */
const rolePerm = (model: 'systemrolebinding' | 'orgrolebinding') => async (ctx: Ctx, action: Action) =>
  (model === 'systemrolebinding' || ctx.orgId !== ORG_IDS.ROOT) && holds(ctx, `rbac.${WRITE_ACTIONS.has(action) ? 'add' : 'view'}_${model}`)

const adminIds = async (db: DB, ids: unknown[]): Promise<Set<string>> => new Set((await sql<{ user_id: string }>`
  select distinct user_id from role_bindings where user_id = any(${ids}::uuid[]) and role_id = any(${[ROLE_IDS.SystemAdmin, ROLE_IDS.OrgAdmin]}::uuid[])`.execute(db)).rows.map((r) => r.user_id))

/** Admin user ids among a page's rows, computed once per page for both MFA fields. */
const adminsOfPage = new WeakMap<object[], Promise<Set<string>>>()

async function mfaLoad(ids: unknown[], { db, rows }: LoadArgs<Pick<RowOf<'users'>, 'id' | 'mfa_level'>>, enabled: boolean): Promise<Map<unknown, unknown>> {
  const setting = (await allSettings(db)).get('SECURITY_MFA_AUTH')
  let pending = adminsOfPage.get(rows)
  if (!pending) adminsOfPage.set(rows, (pending = ids.length ? adminIds(db, ids) : Promise.resolve(new Set<string>())))
  const admins = await pending
  return new Map(rows.map((r) => {
    const forced = r.mfa_level === 2 || mfaForcedBySetting(setting, admins.has(r.id))
    return [r.id, enabled ? forced || r.mfa_level > 0 : forced]
  }))
}

const roleFilter = (name: 'system_roles' | 'org_roles'): FilterDef => ({
  name,
  apply: (value, ctx) => {
    const byDisplay = BUILTIN_ROLES.filter((r) => Object.values(r.display).includes(value) || r.name === value).map((r) => r.id)
    const isId = /^[0-9a-f-]{36}$/i.test(value)
    const roleCond = isId ? sql`rb.role_id = ${value.toLowerCase()}` : sql`(rb.role_id = any(${byDisplay}::uuid[]) or rb.role_id in (select id from roles where name = ${value}))`
    const bindCond = name === 'system_roles' ? sql`rb.scope = 'system'` : ctx.orgId === ORG_IDS.ROOT ? sql`rb.scope = 'org'` : sql`rb.scope = 'org' and rb.org_id = ${ctx.orgId}`
    return sql`exists (select 1 from role_bindings rb where rb.user_id = t.id and ${bindCond} and ${roleCond})`
  },
})

export const USER_FIELDS: Array<FieldDef<StoredRow<'users'>>> = [
  idField(),
  { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128 },
  {
    name: 'username', type: 'string', label: 'Username', required: true, max_length: 128, unique: true,
    // A username is typed at SSH and RDP prompts and in `user@asset` strings: no spaces (issue 17).
    validate: (v: string, ctx) => (/\s/.test(String(v ?? '')) ? tr(ctx.lang, 'Username cannot contain spaces') : undefined),
  },
  { name: 'email', type: 'email', label: 'Email', required: true, max_length: 128, unique: true },
  {
    name: 'password', type: 'string', label: 'Password', write_only: true, encrypted: true, secret: true, column: false,
    max_length: 1024, allow_blank: true,
    toColumns: async (v: string) => (v ? { password_hash: await hashPassword(v), date_password_last_updated: new Date() } : {}),
  },
  {
    name: 'public_key', type: 'text', label: 'Public key', write_only: true, allow_blank: true,
    validate: (v: string, ctx) => (v && !parseSshPublicKey(v) ? tr(ctx.lang, 'Not a valid ssh public key') : undefined),
  },
  { name: 'wechat', type: 'string', label: 'Wechat', max_length: 128, allow_blank: true },
  {
    name: 'phone', type: 'string', label: 'Phone', column: 'phone', max_length: 128, allow_blank: true, allow_null: true,
    get: (row) => phoneValue(row.phone),
    parse: (raw, ctx) => {
      if (typeof raw === 'string' && [...raw].length > 128) return { error: tr(ctx.lang, 'Ensure this field has no more than {n} characters.', { n: 128 }) }
      const n = raw && typeof raw === 'object' && !Array.isArray(raw) && !('phone' in raw) ? { ok: false as const } : normalizePhone(raw)
      return n.ok ? { value: n.value } : { error: tr(ctx.lang, 'Enter a valid phone number.') }
    },
  },
  { name: 'mfa_level', type: 'labeled_choice', label: 'MFA', choices: MFA_CHOICES, default: 0 },
  { name: 'source', type: 'labeled_choice', label: 'Source', choices: SOURCE_CHOICES, default: 'local' },
  { name: 'wecom_id', type: 'string', label: 'WeCom', read_only: true },
  { name: 'dingtalk_id', type: 'string', label: 'DingTalk', read_only: true },
  { name: 'feishu_id', type: 'string', label: 'FeiShu', read_only: true },
  createdBy,
  updatedBy,
  commentField,
  {
    name: 'groups', type: 'm2m', label: 'Groups', default: [],
    relation: { resource: 'users.usergroup', through: { table: 'user_group_members', from: 'user_id', to: 'usergroup_id' } },
  },
  {
    name: 'system_roles', type: 'm2m', label: 'System roles', default: [ROLE_IDS.User], visible: rolePerm('systemrolebinding'),
    relation: {
      resource: 'rbac.systemrole', attrs: ['id', 'display_name'],
      through: {
        table: 'role_bindings', from: 'user_id', to: 'role_id', where: () => sql`th.scope = 'system'`,
        values: () => ({ id: randomUUID(), scope: 'system', org_id: null }),
      },
    },
  },
  {
    name: 'org_roles', type: 'm2m', label: 'Org roles', default: [ROLE_IDS.OrgUser], visible: rolePerm('orgrolebinding'),
    relation: {
      resource: 'rbac.orgrole', attrs: ['id', 'display_name', 'name'],
      through: {
        table: 'role_bindings', from: 'user_id', to: 'role_id', where: (ctx) => sql`th.scope = 'org' and th.org_id = ${ctx.orgId}`,
        values: (ctx) => ({ id: randomUUID(), scope: 'org', org_id: ctx.orgId }),
      },
    },
  },
  { name: 'password_strategy', type: 'labeled_choice', label: 'Password strategy', write_only: true, column: false, choices: STRATEGY_CHOICES, default: 'email' },
  { name: 'date_expired', type: 'datetime', label: 'Date expired', allow_null: true, default: () => defaultExpiry() },
  { name: 'date_joined', type: 'datetime', label: 'Date joined', read_only: true },
  { name: 'last_login', type: 'datetime', label: 'Last login', read_only: true },
  { name: 'date_updated', type: 'datetime', label: 'Date updated', read_only: true },
  { name: 'date_password_last_updated', type: 'datetime', label: 'Date password last updated', read_only: true },
  { name: 'is_service_account', type: 'boolean', label: 'Is service account', default: false },
  { name: 'is_valid', type: 'boolean', label: 'Is valid', read_only: true, expr: '(t.is_active and (t.date_expired is null or t.date_expired > now()))' },
  { name: 'is_expired', type: 'boolean', label: 'Is expired', read_only: true, expr: '(t.date_expired is not null and t.date_expired <= now())' },
  isActive,
  { name: 'is_otp_secret_key_bound', type: 'boolean', label: 'Is OTP bound', read_only: true, expr: `(t.otp_secret <> '')` },
  { name: 'can_public_key_auth', type: 'boolean', label: 'Can public key authentication', read_only: true, expr: `(t.public_key <> '')` },
  { name: 'mfa_enabled', type: 'boolean', label: 'MFA enabled', read_only: true, load: (ids, a) => mfaLoad(ids, a, true) },
  { name: 'mfa_force_enabled', type: 'boolean', label: 'MFA force enabled', read_only: true, load: (ids, a) => mfaLoad(ids, a, false) },
  { name: 'need_update_password', type: 'boolean', label: 'Need update password', default: false },
  { name: 'is_first_login', type: 'boolean', label: 'Is first login', read_only: true },
  {
    name: 'login_blocked', type: 'boolean', label: 'Login blocked', read_only: true,
    expr: `exists (select 1 from login_failures lf where lf.username = lower(btrim(t.username)) and lf.blocked_until > now())`,
  },
  { name: 'avatar_url', type: 'string', label: 'Avatar url', read_only: true, column: false, get: () => '/static/img/avatar/user.png' },
]

async function passwordErrors(db: DB, password: string, isAdmin: boolean, ctx: Ctx): Promise<string[]> {
  const settings = await allSettings(db)
  const rules = Object.fromEntries(PASSWORD_RULE_KEYS.map((k) => [k, settings.get(k)])) as PasswordRules
  return checkPasswordRules(password, rules, { isAdmin }).map((f) => tr(ctx.lang, RULE_TEXT[f.code]!, f.code === 'min_length' ? { n: f.n } : undefined))
}

export const users: ResourceDef<'users'> = {
  name: 'users.user',
  app: 'users',
  model: 'user',
  verboseName: 'User',
  path: '/api/v1/users/users/',
  table: 'users',
  fields: USER_FIELDS,
  scope: (ctx) => memberCond(ctx),
  search: ['username', 'email', 'name'],
  filters: ['id', 'username', 'email', 'name', 'source', 'is_active', 'groups', roleFilter('system_roles'), roleFilter('org_roles')],
  ordering: { default: ['name'] },
  sizes: {
    mini: ['id', 'name', 'username'],
    small: ['id', 'name', 'username', 'email', 'wechat', 'phone', 'mfa_level', 'source', 'comment', 'is_active', 'is_valid', 'is_expired',
      'date_expired', 'date_joined', 'last_login', 'created_by', 'need_update_password', 'mfa_enabled', 'is_service_account', 'login_blocked'],
  },
  unexport: ['avatar_url'],
  bulkDelete: 'filtered',
  systemPermFor: ['delete'],
  display: (r) => `${r.name}(${r.username})`,
  hooks: {
    async validate(values, ctx, info) {
      // An org admin never changes a system admin/auditor or a member of an organization they do not manage.
      if (info.existing) await assertCanManage(ctx.db, ctx, [String(info.existing.id)])
      const errors: Record<string, string[]> = {}
      if (info.op === 'create') {
        if (values.password_strategy === 'custom') {
          if (!values.password) errors.password = [tr(ctx.lang, 'This field is required.')]
        } else delete values.password
      }
      if (values.password) {
        const roles = [...(values.system_roles as string[] | undefined ?? []), ...(values.org_roles as string[] | undefined ?? [])]
        let isAdmin = roles.includes(ROLE_IDS.SystemAdmin) || roles.includes(ROLE_IDS.OrgAdmin)
        if (!isAdmin && info.existing) isAdmin = (await adminIds(ctx.db, [info.existing.id])).size > 0
        const e = await passwordErrors(ctx.db, values.password as string, isAdmin, ctx)
        if (e.length) errors.password = e
      }
      return Object.keys(errors).length ? errors : undefined
    },
    async afterSave(tx, id, values, ctx, info) {
      if (info.op !== 'create') return
      // Defaults when the role fields were hidden (no binding permission) or left empty.
      const has = await sql<{ scope: string }>`select scope from role_bindings where user_id = ${id}
        and (scope = 'system' or org_id = ${ctx.orgId})`.execute(tx)
      if (!has.rows.some((r) => r.scope === 'system')) {
        await sql`insert into role_bindings (id, user_id, role_id, scope) values (${randomUUID()}, ${id}, ${ROLE_IDS.User}, 'system')`.execute(tx)
      }
      if (ctx.orgId !== ORG_IDS.ROOT && !has.rows.some((r) => r.scope === 'org')) {
        await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (${randomUUID()}, ${id}, ${ROLE_IDS.OrgUser}, 'org', ${ctx.orgId})`.execute(tx)
      }
    },
    async afterCommit(id, values, ctx, info) {
      if (info.op !== 'create') return
      // The "email" strategy: a link that sets the first password, mailed with the account-created mail when a
      // mail server is configured (a failed send is logged: the user exists, an admin can reset the password).
      const link = values.password_strategy !== 'custom' ? await createResetLink(ctx.db, String(id), info.req) : undefined
      if (!info.req || !(await mailConfigured(ctx.db)) || !values.email) return
      const user = { username: String(values.username), name: String(values.name ?? ''), email: String(values.email) }
      const { req } = info
      // in the background (as JumpServer's Celery mail): a slow mail server never holds up the answer
      void sendUserCreatedMail(ctx.db, req.server.services.config, ctx.lang, user, link).catch((e: unknown) => {
        req.log.warn({ userId: id, err: e instanceof Error ? e.message : String(e) }, 'account-created mail not sent')
      })
    },
    async columns(_values, ctx, info) {
      // A password change or a disable ends the user's other sessions (trigger of migration 007): keep this one.
      if (ctx.session && !ctx.session.isNew) await keepSession(info.tx, ctx.session.id)
      return {}
    },
    async beforeDelete(tx, row, ctx) {
      await assertCanManage(tx, ctx, [String(row.id)])
      if (row.username === 'admin') throw new ApiError(403, { detail: tr(ctx.lang, 'The admin user cannot be deleted'), code: 'permission_denied' })
      if (row.id === ctx.user?.id) throw new ApiError(403, { detail: tr(ctx.lang, 'Cannot delete yourself'), code: 'permission_denied' })
    },
  },
  actions: userActions,
}
