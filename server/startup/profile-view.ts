/**
 * The profile document of contract §4.2, for `GET /api/v1/users/profile/` and the token endpoint's `user`.
 * Permissions and role lists are for the request's organization (`req.ctx.orgId`).
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { isUserBlocked } from '../auth/limits.ts'
import { formatDateTime } from '../http/datetime.ts'
import { notFound } from '../http/errors.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { BUILTIN_ROLES, ROLE_IDS } from '../rbac/catalog.ts'
import { effectivePerms, orgListsFor, type OrgRef } from '../rbac/perms.ts'
import { allSettings } from '../settings/store.ts'
import { requestLicense } from './license.ts'
import { STARTUP_MESSAGES } from './messages.ts'
import { phoneValue } from './phone.ts'
import { md5Fingerprint, parseSshPublicKey } from './ssh-key.ts'

export interface UserRow {
  id: string
  name: string
  username: string
  email: string
  password_hash: string
  public_key: string
  wechat: string
  phone: string | null
  mfa_level: number
  otp_secret: string
  source: string
  wecom_id: string | null
  dingtalk_id: string | null
  feishu_id: string | null
  comment: string
  date_expired: Date | null
  date_joined: Date
  last_login: Date | null
  date_updated: Date
  date_password_last_updated: Date | null
  is_service_account: boolean
  is_active: boolean
  need_update_password: boolean
  is_first_login: boolean
  created_by: string
  updated_by: string
}

export const MFA_LABELS: Record<number, string> = { 0: STARTUP_MESSAGES.mfaDisable, 1: STARTUP_MESSAGES.mfaEnable, 2: STARTUP_MESSAGES.mfaForce }
export const SOURCE_LABELS: Record<string, string> = {
  local: STARTUP_MESSAGES.local, ldap: 'LDAP/AD', openid: 'OpenID', radius: 'Radius', cas: 'CAS', saml2: 'SAML2', oauth2: 'OAuth2', custom: STARTUP_MESSAGES.custom,
}

export async function loadUserRow(req: FastifyRequest, userId: string): Promise<UserRow> {
  const u = (await sql<UserRow>`select * from users where id = ${userId}`.execute(req.ctx.db)).rows[0]
  if (!u) throw notFound('User')
  return u
}

interface BindingRow { role_id: string; scope: string; org_id: string | null; name: string; builtin: boolean }

function roleDisplay(lang: Lang, b: BindingRow): string {
  const builtin = b.builtin ? BUILTIN_ROLES.find((r) => r.id === b.role_id) : undefined
  return builtin ? builtin.display[lang] : b.name
}

/** SECURITY_MFA_AUTH: 0 off, 1 every user, 2 administrators (JumpServer `mfa_force_enabled`). */
export function mfaForcedBySetting(setting: unknown, isAdmin: boolean): boolean {
  const level = setting === true ? 1 : Number(setting)
  return level === 1 || (level === 2 && isAdmin)
}

export const isAdminBinding = (roleId: string) => roleId === ROLE_IDS.SystemAdmin || roleId === ROLE_IDS.OrgAdmin

export async function userBindings(req: FastifyRequest, userId: string): Promise<BindingRow[]> {
  return (await sql<BindingRow>`select rb.role_id, rb.scope, rb.org_id, r.name, r.builtin
    from role_bindings rb join roles r on r.id = rb.role_id where rb.user_id = ${userId}
    order by r.builtin desc, r.name`.execute(req.ctx.db)).rows
}

export async function serializeProfile(req: FastifyRequest, userId: string): Promise<Record<string, unknown>> {
  const { db, lang, tz, orgId } = req.ctx
  const [u, settings, license, bindings] = await Promise.all([
    loadUserRow(req, userId), allSettings(db), requestLicense(req), userBindings(req, userId),
  ])
  const rootName = String(settings.get('GLOBAL_ORG_DISPLAY_NAME') || '') || 'GLOBAL'
  const [lists, perms, groups, blocked] = await Promise.all([
    orgListsFor(db, userId, { licensed: license.valid, rootName }),
    effectivePerms(db, userId, orgId),
    req.server.startupHooks.userGroups(db, userId, orgId),
    isUserBlocked(db, u.username),
  ])
  const dt = (d: Date | null) => formatDateTime(d, tz)
  const isExpired = !!u.date_expired && u.date_expired.getTime() < Date.now()
  const forced = mfaForcedBySetting(settings.get('SECURITY_MFA_AUTH'), bindings.some((b) => isAdminBinding(b.role_id))) || u.mfa_level === 2
  const key = parseSshPublicKey(u.public_key)
  const seen = new Set<string>()
  const once = (b: BindingRow) => !seen.has(`${b.scope}:${b.role_id}`) && !!seen.add(`${b.scope}:${b.role_id}`)
  const orgs = (list: OrgRef[]) => list.map((o) => (o.is_root && o.name === 'All organizations' ? { ...o, name: tr(lang, STARTUP_MESSAGES.allOrgs) } : o))
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    email: u.email,
    wechat: u.wechat,
    phone: phoneValue(u.phone),
    mfa_level: { value: u.mfa_level, label: tr(lang, MFA_LABELS[u.mfa_level] ?? String(u.mfa_level)) },
    source: { value: u.source, label: tr(lang, SOURCE_LABELS[u.source] ?? u.source) },
    wecom_id: u.wecom_id,
    dingtalk_id: u.dingtalk_id,
    feishu_id: u.feishu_id,
    created_by: u.created_by,
    updated_by: u.updated_by,
    comment: u.comment,
    date_expired: dt(u.date_expired),
    date_joined: dt(u.date_joined),
    last_login: dt(u.last_login),
    date_updated: dt(u.date_updated),
    is_service_account: u.is_service_account,
    is_valid: u.is_active && !isExpired,
    is_expired: isExpired,
    is_active: u.is_active,
    is_otp_secret_key_bound: u.otp_secret !== '',
    can_public_key_auth: settings.get('TERMINAL_PUBLIC_KEY_AUTH') !== false,
    mfa_enabled: forced || u.mfa_level > 0,
    need_update_password: u.need_update_password,
    mfa_force_enabled: forced,
    is_first_login: u.is_first_login,
    date_password_last_updated: dt(u.date_password_last_updated),
    avatar_url: bindings.some((b) => b.role_id === ROLE_IDS.SystemAdmin) ? '/static/img/avatar/admin.png' : '/static/img/avatar/user.png',
    groups,
    system_roles: bindings.filter((b) => b.scope === 'system' && once(b)).map((b) => ({ id: b.role_id, display_name: roleDisplay(lang, b) })),
    org_roles: bindings.filter((b) => b.scope === 'org' && b.org_id === orgId && once(b))
      .map((b) => ({ id: b.role_id, display_name: roleDisplay(lang, b), name: b.name })),
    login_blocked: blocked,
    password_strategy: { value: 'email', label: tr(lang, STARTUP_MESSAGES.strategyEmail) },
    public_key_comment: key?.comment ?? '',
    public_key_hash_md5: key ? md5Fingerprint(key.blob) : '',
    guide_url: String(settings.get('USER_GUIDE_URL') ?? ''),
    receive_backends: ['site_msg', 'email'],
    console_orgs: orgs(lists.console_orgs),
    audit_orgs: orgs(lists.audit_orgs),
    workbench_orgs: orgs(lists.workbench_orgs),
    perms: [...perms].sort(),
  }
}
