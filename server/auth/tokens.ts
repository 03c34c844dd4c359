/**
 * Bearer tokens (contract §1.8): `POST /api/v1/authentication/auth/` (alias `…/tokens/`)
 * `{username, password (plain or hybrid), code?}` → 201 `{token, keyword: 'Bearer', date_expired, user}`.
 * Same checks, failure counting and login logs (type T) as the web login; users with OTP must send `code`.
 * Tokens live in auth_tokens for the session age; server/http/context.ts authenticates them.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { formatDateTime } from '../http/datetime.ts'
import { serializeProfile } from '../startup/profile-view.ts'
import { countedFailure, LoginFailure, loggedAttempt, precheck, verifyCredentials } from './authenticate.ts'
import { recordSuccess } from './complete.ts'
import { fieldsOf } from './fields.ts'
import { limitSettings } from './limits.ts'
import { AUTH_MESSAGES } from './messages.ts'
import { checkUserOtp } from './otp-store.ts'
import { decryptOrPlain } from './secret.ts'

async function createToken(req: FastifyRequest, reply: FastifyReply) {
  const f = fieldsOf(req)
  const username = f.string('username', { required: true, maxLength: 128 })!
  const password = f.string('password', { required: true, trim: false, maxLength: 8192 })!
  const code = f.string('code', { blank: true, maxLength: 16 })
  f.done()
  const s = await limitSettings(req.ctx.db)
  const attempt = { username, type: 'T' as const }
  const user = await loggedAttempt(req, attempt, async () => {
    await precheck(req, username, s)
    const u = await verifyCredentials(req, attempt, decryptOrPlain(password, req.ctx.session?.data.privateKey), s)
    if (u.otp_secret) {
      if (!code) throw new LoginFailure('mfa_required', AUTH_MESSAGES.mfaRequired, undefined, AUTH_MESSAGES.reasonMfaUnset, 1)
      if ((await checkUserOtp(req.ctx.db, req.server.services.config, u.id, code)) !== 'ok') {
        throw await countedFailure(req, username, s, { text: AUTH_MESSAGES.mfaInvalid, code: 'mfa_invalid', reason: AUTH_MESSAGES.reasonMfa, mfa: 1 })
      }
    }
    return u
  })
  await recordSuccess(req, user, 'T', user.otp_secret ? 1 : 0)
  const token = randomBytes(36).toString('base64url')
  const expires = new Date(Date.now() + req.server.services.config.sessionAge * 1000)
  await sql`insert into auth_tokens (key, user_id, date_expired) values (${token}, ${user.id}, ${expires})`.execute(req.ctx.db)
  reply.status(201)
  return { token, keyword: 'Bearer', date_expired: formatDateTime(expires, req.ctx.tz), user: await serializeProfile(req, user.id) }
}

export function registerTokens(app: FastifyInstance): void {
  app.post('/api/v1/authentication/auth/', createToken)
  app.post('/api/v1/authentication/tokens/', createToken)
}
