/**
 * `PUT /api/v1/users/profile/password/` `{old_password, new_password, new_password_again}` (each may be in the
 * hybrid wire format of contract §6). Rules: the security settings (admin minimum length for holders of
 * SystemAdmin), the old password must match, the new one must differ from the current and the previous
 * OLD_PASSWORD_HISTORY_LIMIT_COUNT - 1 passwords. One transaction: history row, new hash, change log.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { keepSession } from '../http/session.ts'
import { fieldsOf } from '../auth/fields.ts'
import { checkPasswordRules, hashPassword, type PasswordRuleFailure, type PasswordRules, verifyPassword } from '../auth/password.ts'
import { decryptOrPlain } from '../auth/secret.ts'
import { normalizeIp } from '../auth/ip-match.ts'
import { isUserBlocked, limitSettings, recordFailure, shownMinutes } from '../auth/limits.ts'
import { M } from '../auth/messages.ts'
import { requireUser } from '../http/context.ts'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ROLE_IDS } from '../rbac/catalog.ts'
import { allSettings } from '../settings/store.ts'
import { S } from './messages.ts'
import { loadUserRow, SOURCE_LABELS, userBindings } from './profile-view.ts'

const HISTORY_KEPT = 32

export const ruleMessage = (f: PasswordRuleFailure): [string, Record<string, number>?] => {
  switch (f.code) {
    case 'min_length': return [S.passwordMinLength, { n: f.n }]
    case 'upper_case': return [S.passwordUpper]
    case 'lower_case': return [S.passwordLower]
    case 'number': return [S.passwordNumber]
    case 'special_char': return [S.passwordSpecial]
  }
}

async function changePassword(req: FastifyRequest) {
  const user = requireUser(req)
  const { db } = req.ctx
  const key = req.ctx.session?.data.privateKey
  const f = fieldsOf(req)
  const secret = { required: true, trim: false, maxLength: 8192 } as const
  const [oldRaw, newRaw, againRaw] = [f.string('old_password', secret), f.string('new_password', secret), f.string('new_password_again', secret)]
  f.done()
  const row = await loadUserRow(req, user.id)
  if (row.source !== 'local') {
    throw new ApiError(400, { non_field_errors: [tr(req.ctx.lang, S.passwordNotLocal, { source: tr(req.ctx.lang, SOURCE_LABELS[row.source] ?? row.source) })] })
  }
  const [oldPw, newPw, again] = [oldRaw!, newRaw!, againRaw!].map((v) => decryptOrPlain(v, key)) as [string, string, string]
  // A wrong current password counts as a failed login (the login limits of server/auth/limits.ts), and a blocked
  // user cannot go on guessing here: otherwise this form would be an unlimited password oracle for a taken session.
  const limits = await limitSettings(db)
  if (await isUserBlocked(db, row.username)) {
    throw new ApiError(400, { old_password: [tr(req.ctx.lang, M.blocked, { m: shownMinutes(limits.userMinutes) })] })
  }
  if (!(await verifyPassword(oldPw, row.password_hash))) {
    const r = await recordFailure(db, row.username, req.ip, limits)
    if (r.blocked || r.remaining <= 0) throw new ApiError(400, { old_password: [tr(req.ctx.lang, M.blocked, { m: shownMinutes(limits.userMinutes) })] })
    f.error('old_password', S.oldPasswordWrong)
  }

  const settings = await allSettings(db)
  const rules = Object.fromEntries(['SECURITY_PASSWORD_MIN_LENGTH', 'SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH', 'SECURITY_PASSWORD_UPPER_CASE',
    'SECURITY_PASSWORD_LOWER_CASE', 'SECURITY_PASSWORD_NUMBER', 'SECURITY_PASSWORD_SPECIAL_CHAR'].map((k) => [k, settings.get(k)])) as PasswordRules
  const isAdmin = (await userBindings(req, user.id)).some((b) => b.role_id === ROLE_IDS.SystemAdmin)
  for (const failure of checkPasswordRules(newPw, rules, { isAdmin })) f.error('new_password', ...ruleMessage(failure))

  const limit = Math.max(0, Math.floor(Number(settings.get('OLD_PASSWORD_HISTORY_LIMIT_COUNT')) || 0))
  if (!f.errors.new_password && limit > 0) {
    const previous = (await sql<{ password_hash: string }>`select password_hash from password_history where user_id = ${user.id}
      order by date_created desc limit ${limit - 1}`.execute(db)).rows.map((r) => r.password_hash)
    for (const hash of [row.password_hash, ...previous]) {
      if (await verifyPassword(newPw, hash)) {
        f.error('new_password', S.passwordHistory, { n: limit })
        break
      }
    }
  }
  if (newPw !== again) f.error('new_password_again', S.passwordMismatch)
  f.done()

  const hash = await hashPassword(newPw)
  const who = `${row.name}(${row.username})`
  await db.transaction().execute(async (tx) => {
    // The change ends the user's other sessions and tokens (migration 007); this session stays.
    if (req.ctx.session && !req.ctx.session.isNew) await keepSession(tx, req.ctx.session.id)
    if (row.password_hash) {
      await sql`insert into password_history (id, user_id, password_hash) values (${randomUUID()}, ${user.id}, ${row.password_hash})`.execute(tx)
    }
    await sql`delete from password_history where user_id = ${user.id} and id not in (
      select id from password_history where user_id = ${user.id} order by date_created desc limit ${HISTORY_KEPT})`.execute(tx)
    await sql`update users set password_hash = ${hash}, need_update_password = false, date_password_last_updated = now(),
      updated_by = ${row.username}, date_updated = now() where id = ${user.id}`.execute(tx)
    await sql`insert into password_change_logs (id, "user", change_by, remote_addr)
      values (${randomUUID()}, ${who.slice(0, 128)}, ${who.slice(0, 128)}, ${normalizeIp(req.ip).slice(0, 128)})`.execute(tx)
  })
  return {}
}

export function registerPasswordChange(app: FastifyInstance): void {
  app.put('/api/v1/users/profile/password/', changePassword)
  app.patch('/api/v1/users/profile/password/', changePassword)
}
