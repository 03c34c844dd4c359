/**
 * SMS verification codes (MFA "sms" method and confirmation). Delivery goes through `app.smsBackend`: by default the
 * provider of the SMS settings (server/sms), or, while that provider has no key, the server log.
 */
import { randomInt, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { consumeSessionValue } from '../http/session.ts'
import { ApiError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { getSetting } from '../settings/store.ts'
import { sendCode, SmsError } from '../sms/providers.ts'

export interface SmsRecipient {
  userId: string
  username: string
  phone: string
}

export interface SmsBackend {
  name: string
  send(req: FastifyRequest, to: SmsRecipient, code: string): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    smsBackend: SmsBackend
  }
}

export const logSmsBackend: SmsBackend = {
  name: 'log',
  async send(req, to, code) {
    req.log.info(`SMS code for ${to.username}: ${code}`)
  },
}

/**
 * The default backend: the provider chosen in the SMS settings (server/sms/providers.ts) when its key is set, else
 * the log backend (a development aid). A provider's refusal is a 400 with its reason; no code is kept then.
 */
export const providerSmsBackend: SmsBackend = {
  name: 'provider',
  async send(req, to, code) {
    let sent: boolean
    try {
      sent = await sendCode(req.ctx.db, req.server.services.config, to.phone, code)
    } catch (e) {
      if (e instanceof SmsError) throw new ApiError(400, { error: tr(req.ctx.lang, SMS_SEND_FAILED, { reason: e.message }) })
      throw e
    }
    if (!sent) await logSmsBackend.send(req, to, code)
  },
}

export const SMS_SEND_FAILED = 'The SMS could not be sent: {reason}'
addMessages({ [SMS_SEND_FAILED]: ['短信发送失败：{reason}', 'SMS を送信できませんでした: {reason}'] })

export function installSmsBackend(app: FastifyInstance): void {
  if (!app.hasDecorator('smsBackend')) app.decorate('smsBackend', providerSmsBackend)
}

/** Seconds a user must wait between two codes. */
export const SMS_RESEND_SECONDS = 60

export async function smsAvailable(req: FastifyRequest, phone: string | null | undefined): Promise<boolean> {
  return !!phone && (await getSetting<boolean>(req.ctx.db, 'SMS_ENABLED')) === true
}

/** Generates and sends a 6-digit code; returns the seconds to wait instead when one was sent too recently. */
export async function issueSmsCode(req: FastifyRequest, to: SmsRecipient): Promise<{ sent: true } | { sent: false; wait: number }> {
  const session = req.ctx.session!
  const prev = session.data.smsCode
  const age = prev ? (Date.now() - prev.at) / 1000 : Infinity
  if (prev && session.data.smsCodeUser === to.userId && age < SMS_RESEND_SECONDS) {
    return { sent: false, wait: Math.ceil(SMS_RESEND_SECONDS - age) }
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  await req.server.smsBackend.send(req, to, code)
  session.data.smsCode = { code, at: Date.now() }
  session.data.smsCodeUser = to.userId
  session.dirty = true
  return { sent: true }
}

/** Checks (and consumes, when right) the session's code for this user within VERIFY_CODE_TTL seconds. */
export async function checkSmsCode(req: FastifyRequest, userId: string, code: unknown): Promise<boolean> {
  const session = req.ctx.session
  const stored = session?.data.smsCode
  if (!session || !stored || session.data.smsCodeUser !== userId || typeof code !== 'string') return false
  const ttl = Number(await getSetting(req.ctx.db, 'VERIFY_CODE_TTL')) || 60
  if (Date.now() - stored.at > Math.max(ttl, SMS_RESEND_SECONDS) * 1000) return false
  const a = Buffer.from(code.trim())
  const b = Buffer.from(stored.code)
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false
  // One use across every process: only the request whose compare-and-delete removes the stored code wins.
  if (!(await consumeSessionValue(req.ctx.db, session, 'smsCode', stored, ['smsCodeUser']))) return false
  delete session.data.smsCode
  delete session.data.smsCodeUser
  session.dirty = true
  return true
}
