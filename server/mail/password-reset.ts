/**
 * The page behind a reset link (the mail of "reset password" and of a new user with the "email" password
 * strategy): `GET /core/auth/password/reset/?token=…` serves the login page, which shows the new-password form.
 * - `GET /api/v1/authentication/password/reset/?token=` → `{username, name, password_rules}` or 404 when the link is
 *   unknown or expired (1 hour).
 * - `POST /api/v1/authentication/password/reset/` `{token, new_password, new_password_again}` (passwords plain or
 *   hybrid-encrypted, contract §6; login CSRF header) → `{msg}`; the security settings' password rules and the
 *   history limit apply; the token is used up; the user's sessions end (the password trigger of migration 007).
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { requireLoginCsrf } from '../auth/csrf.ts'
import { fieldsOf } from '../auth/fields.ts'
import { normalizeIp } from '../auth/ip-match.ts'
import { checkPasswordRules, hashPassword, type PasswordRules, verifyPassword } from '../auth/password.ts'
import { decryptOrPlain } from '../auth/secret.ts'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ROLE_IDS } from '../rbac/catalog.ts'
import { allSettings } from '../settings/store.ts'
import { STARTUP_MESSAGES } from '../startup/messages.ts'
import { ruleMessage } from '../startup/password.ts'
import { MAIL_MESSAGES } from './messages.ts'

export const RESET_API = '/api/v1/authentication/password/reset/'
const RULE_KEYS = ['SECURITY_PASSWORD_MIN_LENGTH', 'SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH', 'SECURITY_PASSWORD_UPPER_CASE',
  'SECURITY_PASSWORD_LOWER_CASE', 'SECURITY_PASSWORD_NUMBER', 'SECURITY_PASSWORD_SPECIAL_CHAR']

interface TokenUser { id: string; username: string; name: string; password_hash: string; source: string }

async function userOfToken(req: FastifyRequest, token: unknown, status = 400): Promise<TokenUser> {
  const t = typeof token === 'string' && token.length <= 64 ? token : ''
  const row = t
    ? (await sql<TokenUser>`select u.id, u.username, u.name, u.password_hash, u.source from password_reset_tokens t
        join users u on u.id = t.user_id where t.token = ${t} and t.expires_at > now() and u.is_active`.execute(req.ctx.db)).rows[0]
    : undefined
  if (!row) throw new ApiError(status, { error: tr(req.ctx.lang, MAIL_MESSAGES.linkInvalid), code: 'reset_link_invalid' })
  return row
}

async function rulesOf(req: FastifyRequest): Promise<PasswordRules> {
  const s = await allSettings(req.ctx.db)
  return Object.fromEntries(RULE_KEYS.map((k) => [k, s.get(k)])) as PasswordRules
}

async function isAdmin(req: FastifyRequest, userId: string): Promise<boolean> {
  return (await sql`select 1 from role_bindings where user_id = ${userId} and role_id = ${ROLE_IDS.SystemAdmin}`.execute(req.ctx.db)).rows.length > 0
}

async function reset(req: FastifyRequest) {
  requireLoginCsrf(req)
  const f = fieldsOf(req)
  const secret = { required: true, trim: false, maxLength: 8192 } as const
  const token = f.string('token', { required: true, maxLength: 64 })
  const [newRaw, againRaw] = [f.string('new_password', secret), f.string('new_password_again', secret)]
  f.done()
  const user = await userOfToken(req, token)
  const key = req.ctx.session?.data.privateKey
  const [pw, again] = [decryptOrPlain(newRaw!, key), decryptOrPlain(againRaw!, key)]
  const admin = await isAdmin(req, user.id)
  for (const failure of checkPasswordRules(pw, await rulesOf(req), { isAdmin: admin })) f.error('new_password', ...ruleMessage(failure))
  const limit = Math.max(0, Math.floor(Number((await allSettings(req.ctx.db)).get('OLD_PASSWORD_HISTORY_LIMIT_COUNT')) || 0))
  if (!f.errors.new_password && limit > 0) {
    const previous = (await sql<{ password_hash: string }>`select password_hash from password_history where user_id = ${user.id}
      order by date_created desc limit ${limit - 1}`.execute(req.ctx.db)).rows.map((r) => r.password_hash)
    for (const hash of [user.password_hash, ...previous].filter(Boolean)) {
      if (await verifyPassword(pw, hash)) {
        f.error('new_password', STARTUP_MESSAGES.passwordHistory, { n: limit })
        break
      }
    }
  }
  if (pw !== again) f.error('new_password_again', STARTUP_MESSAGES.passwordMismatch)
  f.done()
  const hash = await hashPassword(pw)
  const who = `${user.name}(${user.username})`.slice(0, 128)
  await req.ctx.db.transaction().execute(async (tx) => {
    // used once: a second submit of the same link fails
    const used = await sql`delete from password_reset_tokens where token = ${token} and expires_at > now()`.execute(tx)
    if (!Number(used.numAffectedRows ?? 0n)) throw new ApiError(400, { error: tr(req.ctx.lang, MAIL_MESSAGES.linkInvalid), code: 'reset_link_invalid' })
    if (user.password_hash) {
      await sql`insert into password_history (id, user_id, password_hash) values (${randomUUID()}, ${user.id}, ${user.password_hash})`.execute(tx)
    }
    await sql`update users set password_hash = ${hash}, need_update_password = false, date_password_last_updated = now(),
      date_updated = now() where id = ${user.id}`.execute(tx)
    await sql`insert into password_change_logs (id, "user", change_by, remote_addr)
      values (${randomUUID()}, ${who}, ${who}, ${normalizeIp(req.ip).slice(0, 128)})`.execute(tx)
  })
  return { msg: tr(req.ctx.lang, MAIL_MESSAGES.resetDone) }
}

export function registerPasswordReset(app: FastifyInstance): void {
  app.get('/core/auth/password/reset/', async (req, reply) => app.serveLoginPage(req, reply))
  app.get(RESET_API, async (req) => {
    const user = await userOfToken(req, (req.query as Record<string, unknown> | undefined)?.token, 404)
    const rules = await rulesOf(req)
    if (await isAdmin(req, user.id)) rules.SECURITY_PASSWORD_MIN_LENGTH = Math.max(Number(rules.SECURITY_PASSWORD_MIN_LENGTH) || 0, Number(rules.SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH) || 0)
    return { username: user.username, name: user.name, password_rules: rules }
  })
  app.post(RESET_API, reset)
}
