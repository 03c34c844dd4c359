/**
 * Web login (ours; JumpServer renders a form — see docs/api-auth.md):
 * `GET /core/auth/login/` serves the login page (or redirects a logged-in visitor to a safe `next`);
 * `POST /api/v1/authentication/login/` `{username, password (hybrid-encrypted), next?}`;
 * `POST /api/v1/authentication/login/mfa/` `{code, type?: 'otp'|'sms'}` for users with a second factor.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { countedFailure, findLoginUser, LoginFailure, loggedAttempt, type LoginUser, precheck, verifyCredentials } from './authenticate.ts'
import { completeWebLogin } from './complete.ts'
import { requireLoginCsrf } from './csrf.ts'
import { fieldsOf } from './fields.ts'
import { limitSettings } from './limits.ts'
import { writeLoginLog } from './login-log.ts'
import { AUTH_MESSAGES } from './messages.ts'
import { safeNext } from './next.ts'
import { checkUserOtp } from './otp-store.ts'
import { decryptRequired } from './secret.ts'
import { checkSmsCode, smsAvailable } from './sms.ts'
import { startLoginConfirm } from '../tickets/login-confirm.ts'

/** A password step older than this must start again. */
export const MFA_PENDING_MS = 5 * 60_000

export async function mfaMethods(req: FastifyRequest, user: Pick<LoginUser, 'otp_secret' | 'phone'>): Promise<string[]> {
  const methods: string[] = []
  if (user.otp_secret) methods.push('otp')
  if (await smsAvailable(req, user.phone)) methods.push('sms')
  return methods
}

async function login(req: FastifyRequest, reply: FastifyReply) {
  requireLoginCsrf(req)
  const f = fieldsOf(req)
  const username = f.string('username', { required: true, maxLength: 128 })!
  const password = f.string('password', { required: true, trim: false, maxLength: 8192 })!
  const next = f.string('next', { blank: true, maxLength: 2048 })
  f.done()
  const s = await limitSettings(req.ctx.db)
  const { user, passwordOk } = await loggedAttempt(req, { username, type: 'W' }, async () => {
    const { pairBlocked } = await precheck(req, username, s)
    const plain = decryptRequired(password, req.ctx.session?.data.privateKey)
    if (!plain.ok) throw new LoginFailure('decrypt_failed', AUTH_MESSAGES.decryptFailed, undefined, AUTH_MESSAGES.reasonDecrypt, 2)
    if (!pairBlocked) return { user: await verifyCredentials(req, { username, type: 'W' }, plain.value, s), passwordOk: true }
    // A blocked pair of a user with MFA (issue 36 point 8): whatever the password, the answer is the second step
    // (no oracle); the second step lets in only a right password with a right code. A wrong password still counts.
    try {
      return { user: await verifyCredentials(req, { username, type: 'W' }, plain.value, s), passwordOk: true }
    } catch (e) {
      if (!(e instanceof LoginFailure) || (e.code !== 'blocked' && e.code !== 'invalid_credentials')) throw e
      await writeLoginLog(req, { username, type: 'W', mfa: 1, status: false, reason: e.reason })
      return { user: (await findLoginUser(req, { username }))! as Awaited<ReturnType<typeof verifyCredentials>>, passwordOk: false }
    }
  })
  const target = safeNext(next)
  // A login ACL with review: the login waits for a reviewer (server/tickets/login-confirm.ts).
  if (user.review) return startLoginConfirm(req, user, user.review.reviewerIds, target)
  if (user.otp_secret) {
    // A session exists: the password decrypted with its key.
    const session = req.ctx.session!
    delete session.data.userId
    session.data.mfaPending = { userId: user.id, at: Date.now(), next: target, ...(passwordOk ? {} : { passwordOk: false }) }
    session.dirty = true
    return { mfa_required: true, methods: await mfaMethods(req, user) }
  }
  await completeWebLogin(req, reply, user, 0)
  return { ok: true, next: target }
}

async function loginMfa(req: FastifyRequest, reply: FastifyReply) {
  requireLoginCsrf(req)
  const f = fieldsOf(req)
  const code = f.string('code', { required: true, maxLength: 16 })!
  const type = f.choice('type', ['otp', 'sms'] as const) ?? 'otp'
  f.done()
  const session = req.ctx.session
  const pending = session?.data.mfaPending
  const user = pending && Date.now() - pending.at <= MFA_PENDING_MS ? await findLoginUser(req, { id: pending.userId }) : undefined
  if (!session || !pending || !user) {
    if (session && pending) {
      delete session.data.mfaPending
      session.dirty = true
    }
    throw new ApiError(400, { error: tr(req.ctx.lang, AUTH_MESSAGES.mfaExpired), code: 'mfa_expired' })
  }
  const s = await limitSettings(req.ctx.db)
  await loggedAttempt(req, { username: user.username, type: 'W' }, async () => {
    await precheck(req, user.username, s)
    const ok = pending.passwordOk !== false && (type === 'sms'
      ? (await smsAvailable(req, user.phone)) && (await checkSmsCode(req, user.id, code))
      : (await checkUserOtp(req.ctx.db, req.server.services.config, user.id, code)) === 'ok')
    if (!ok) throw await countedFailure(req, user.username, s, { text: AUTH_MESSAGES.mfaInvalid, code: 'mfa_invalid', reason: AUTH_MESSAGES.reasonMfa, mfa: 1 })
  })
  await completeWebLogin(req, reply, user, 1)
  return { ok: true, next: safeNext(pending.next) }
}

export function registerLogin(app: FastifyInstance): void {
  app.get('/core/auth/login/', async (req, reply) => {
    const next = (req.query as Record<string, unknown> | undefined)?.next
    if (req.ctx.user && req.ctx.authBy === 'session') return reply.redirect(safeNext(next))
    return app.serveLoginPage(req, reply)
  })
  app.get('/core/auth/login', async (req, reply) => {
    const q = req.url.indexOf('?')
    return reply.redirect(`/core/auth/login/${q >= 0 ? req.url.slice(q) : ''}`)
  })
  app.post('/api/v1/authentication/login/', login)
  app.post('/api/v1/authentication/login/mfa/', loginMfa)
}
