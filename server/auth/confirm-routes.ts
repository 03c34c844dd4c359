/**
 * `GET|POST /api/v1/authentication/confirm/` and `POST /api/v1/authentication/mfa/select/` (alias
 * `…/mfa/send-code/`), contract §4.16. The guard itself is `requireConfirm` in confirm.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { notAuthenticated } from '../http/errors.ts'
import { ApiError } from '../http/errors.ts'
import { requireUser } from '../http/context.ts'
import { newSession } from '../http/session.ts'
import { tr } from '../i18n.ts'
import { findLoginUser } from './authenticate.ts'
import { CONFIRM_LEVEL, CONFIRM_TYPES, type ConfirmType, loadConfirmUser, pickBackend } from './confirm.ts'
import { FieldReader, fieldsOf } from './fields.ts'
import { clearConfirmFailures, isConfirmBlocked, limitSettings, shownMinutes } from './limits.ts'
import { MFA_PENDING_MS } from './login.ts'
import { AUTH_MESSAGES } from './messages.ts'
import { decryptOrPlain } from './secret.ts'
import { issueSmsCode, smsAvailable } from './sms.ts'

const errorBody = (req: FastifyRequest, text: string, vars?: Record<string, string | number>) =>
  new ApiError(400, { error: tr(req.ctx.lang, text, vars) })

async function getConfirm(req: FastifyRequest, reply: FastifyReply) {
  const user = requireUser(req)
  const f = new FieldReader(req.query as Record<string, unknown>, req.ctx.lang)
  const requested: ConfirmType = f.choice('confirm_type', CONFIRM_TYPES) ?? 'password'
  f.done()
  const u = await loadConfirmUser(req, user.id)
  const backend = await pickBackend(req, u, requested)
  if (!backend) return reply.status(404).send({ error: tr(req.ctx.lang, AUTH_MESSAGES.confirmUnavailable) })
  return { confirm_type: backend.type, content: await backend.content(req, u) }
}

async function postConfirm(req: FastifyRequest, reply: FastifyReply) {
  const user = requireUser(req)
  const f = fieldsOf(req)
  const requested: ConfirmType = f.choice('confirm_type', CONFIRM_TYPES) ?? 'password'
  const mfaType = f.string('mfa_type', { blank: true, maxLength: 32 })
  const needsSecret = requested !== 'relogin'
  const secret = f.string('secret_key', { required: needsSecret, blank: !needsSecret, trim: false, maxLength: 8192 }) ?? ''
  f.done()
  const u = await loadConfirmUser(req, user.id)
  const backend = await pickBackend(req, u, requested)
  if (!backend) return reply.status(404).send({ error: tr(req.ctx.lang, AUTH_MESSAGES.confirmUnavailable) })
  if (backend.type !== 'relogin' && !secret) throw new ApiError(400, { secret_key: [tr(req.ctx.lang, 'This field may not be blank.')] })
  const limits = await limitSettings(req.ctx.db)
  if (await isConfirmBlocked(req.ctx.db, u.username)) throw errorBody(req, AUTH_MESSAGES.confirmBlocked, { m: shownMinutes(limits.userMinutes) })
  const problem = await backend.verify(req, u, decryptOrPlain(secret, req.ctx.session?.data.privateKey), mfaType || undefined)
  if (problem) throw errorBody(req, problem.text, problem.vars)
  await clearConfirmFailures(req.ctx.db, u.username)
  req.ctx.session ??= newSession()
  req.ctx.session.data.confirm = { level: CONFIRM_LEVEL[backend.type], at: Date.now() }
  req.ctx.session.dirty = true
  return reply.type('application/json; charset=utf-8').send(JSON.stringify('ok'))
}

/** The user a code is for: the logged-in user, else the one half-way through a web login. */
async function codeRecipient(req: FastifyRequest) {
  if (req.ctx.user) return findLoginUser(req, { id: req.ctx.user.id })
  const pending = req.ctx.session?.data.mfaPending
  if (pending && Date.now() - pending.at <= MFA_PENDING_MS) return findLoginUser(req, { id: pending.userId })
  return undefined
}

async function sendCode(req: FastifyRequest, reply: FastifyReply) {
  const f = fieldsOf(req)
  const type = f.string('type', { required: true, maxLength: 32 })!
  f.done()
  const user = await codeRecipient(req)
  if (!user) throw notAuthenticated()
  if (type === 'otp' && user.otp_secret) return reply.status(201).send({ type, username: user.username })
  if (type !== 'sms' || !(await smsAvailable(req, user.phone))) throw errorBody(req, AUTH_MESSAGES.mfaTypeNotSupported, { type })
  req.ctx.session ??= newSession()
  try {
    const r = await issueSmsCode(req, { userId: user.id, username: user.username, phone: user.phone! })
    if (!r.sent) throw errorBody(req, AUTH_MESSAGES.smsWait, { n: r.wait })
  } catch (e) {
    if (e instanceof ApiError) throw e
    req.log.error({ err: e }, 'SMS backend failed')
    throw errorBody(req, AUTH_MESSAGES.smsSendFailed)
  }
  return reply.status(201).send({ type, username: user.username })
}

export function registerConfirm(app: FastifyInstance): void {
  app.get('/api/v1/authentication/confirm/', getConfirm)
  app.post('/api/v1/authentication/confirm/', postConfirm)
  app.post('/api/v1/authentication/mfa/select/', sendCode)
  app.post('/api/v1/authentication/mfa/send-code/', sendCode)
}
