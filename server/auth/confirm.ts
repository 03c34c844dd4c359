/**
 * User confirmation before sensitive actions (contract §4.16). Levels: relogin 1 < password 2 < mfa 3.
 * `requireConfirm(req, 'mfa')` is the guard other modules call from protected endpoints (secret views and
 * exports): unless the session holds a confirmation of at least that level, younger than its TTL (300 s;
 * SECURITY_MFA_VERIFY_TTL for mfa), it throws 400 `{code: <level>, detail: "This action require confirm
 * current user"}`. Nothing is enforced when SECURITY_VIEW_AUTH_NEED_MFA is false.
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { getSetting } from '../settings/store.ts'
import { limitSettings, recordConfirmFailure, shownMinutes } from './limits.ts'
import { AUTH_MESSAGES } from './messages.ts'
import { checkUserOtp } from './otp-store.ts'
import { verifyPassword } from './password.ts'
import { checkSmsCode, smsAvailable } from './sms.ts'

export const CONFIRM_LEVEL = { relogin: 1, password: 2, mfa: 3 } as const
export type ConfirmType = keyof typeof CONFIRM_LEVEL
export const CONFIRM_TYPES = ['relogin', 'password', 'mfa'] as const
/** Plain confirmations (relogin, password) stay valid this long. */
export const CONFIRM_TTL_SECONDS = 300
/** `relogin` succeeds only this soon after the login. */
export const RELOGIN_WINDOW_MS = 5 * 60_000

export async function confirmTtlSeconds(req: FastifyRequest, type: ConfirmType): Promise<number> {
  if (type !== 'mfa') return CONFIRM_TTL_SECONDS
  const ttl = Number(await getSetting(req.ctx.db, 'SECURITY_MFA_VERIFY_TTL'))
  return Number.isFinite(ttl) && ttl >= 0 ? ttl : 3600
}

/** The guard: throws 400 `{code, detail}` unless a fresh enough confirmation of level ≥ `type` exists. */
export async function requireConfirm(req: FastifyRequest, type: ConfirmType): Promise<void> {
  if ((await getSetting(req.ctx.db, 'SECURITY_VIEW_AUTH_NEED_MFA')) === false) return
  const c = req.ctx.session?.data.confirm
  const fresh = !!c && c.level >= CONFIRM_LEVEL[type] && Date.now() - c.at <= (await confirmTtlSeconds(req, type)) * 1000
  if (!fresh) throw new ApiError(400, { code: type, detail: AUTH_MESSAGES.confirmRequired })
}

// ------------------------------------------------------------------------------------------- backends

export interface ConfirmUser { id: string; username: string; source: string; otp_secret: string; phone: string | null; password_hash: string }

export async function loadConfirmUser(req: FastifyRequest, userId: string): Promise<ConfirmUser> {
  return (await sql<ConfirmUser>`select id, username, source, otp_secret, phone, password_hash from users where id = ${userId}`.execute(req.ctx.db)).rows[0]!
}

interface MfaOption { name: string; display_name: string; disabled: boolean; placeholder: string }

async function mfaOptions(req: FastifyRequest, u: ConfirmUser): Promise<MfaOption[]> {
  const lang = req.ctx.lang
  return [
    { name: 'otp', display_name: 'OTP', disabled: !u.otp_secret, placeholder: tr(lang, AUTH_MESSAGES.otpPlaceholder) },
    { name: 'sms', display_name: tr(lang, AUTH_MESSAGES.sms), disabled: !(await smsAvailable(req, u.phone)), placeholder: tr(lang, AUTH_MESSAGES.smsPlaceholder) },
  ]
}

export interface ConfirmBackend {
  type: ConfirmType
  available(req: FastifyRequest, u: ConfirmUser): Promise<boolean>
  content(req: FastifyRequest, u: ConfirmUser): Promise<unknown>
  /** undefined when verified, else the (English) error text and its variables. */
  verify(req: FastifyRequest, u: ConfirmUser, secret: string, mfaType?: string): Promise<{ text: string; vars?: Record<string, string> } | undefined>
}

/** Failed password and MFA confirmations count on their own counter (limits.ts), not towards the login block. */
async function counted(req: FastifyRequest, u: ConfirmUser, text: string): Promise<{ text: string; vars?: Record<string, string> }> {
  const s = await limitSettings(req.ctx.db)
  const r = await recordConfirmFailure(req.ctx.db, u.username, s)
  return r.blocked ? { text: AUTH_MESSAGES.confirmBlocked, vars: { m: String(shownMinutes(s.userMinutes)) } } : { text }
}

const mfaBackend: ConfirmBackend = {
  type: 'mfa',
  available: async (req, u) => (await mfaOptions(req, u)).some((o) => !o.disabled),
  content: mfaOptions,
  async verify(req, u, secret, mfaType) {
    const options = await mfaOptions(req, u)
    const chosen = options.find((o) => o.name === (mfaType || options.find((x) => !x.disabled)?.name))
    if (!chosen || chosen.disabled) return { text: AUTH_MESSAGES.mfaTypeNotSupported, vars: { type: String(mfaType) } }
    if (chosen.name === 'sms') return (await checkSmsCode(req, u.id, secret)) ? undefined : counted(req, u, AUTH_MESSAGES.smsInvalid)
    return (await checkUserOtp(req.ctx.db, req.server.services.config, u.id, secret)) === 'ok' ? undefined : counted(req, u, AUTH_MESSAGES.otpInvalid)
  },
}

const passwordBackend: ConfirmBackend = {
  type: 'password',
  available: async (_req, u) => u.source === 'local',
  content: async () => '',
  async verify(req, u, secret) {
    return (await verifyPassword(secret, u.password_hash)) ? undefined : counted(req, u, AUTH_MESSAGES.passwordIncorrect)
  },
}

const reloginBackend: ConfirmBackend = {
  type: 'relogin',
  available: async (_req, u) => u.source !== 'local',
  content: async () => '',
  async verify(req) {
    const at = req.ctx.session?.data.loginAt
    return typeof at === 'number' && Date.now() - at <= RELOGIN_WINDOW_MS ? undefined : { text: AUTH_MESSAGES.reloginExpired }
  },
}

const STRONGEST_FIRST: readonly ConfirmBackend[] = [mfaBackend, passwordBackend, reloginBackend]

/** The strongest method this user can do, from mfa down to the requested level. */
export async function pickBackend(req: FastifyRequest, u: ConfirmUser, requested: ConfirmType): Promise<ConfirmBackend | undefined> {
  for (const b of STRONGEST_FIRST) {
    if (CONFIRM_LEVEL[b.type] < CONFIRM_LEVEL[requested]) break
    if (await b.available(req, u)) return b
  }
  return undefined
}

