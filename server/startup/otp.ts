/**
 * OTP binding for the profile (improvement page and security settings of the user):
 * `GET …/profile/otp/setup/` → `{secret, otpauth_uri}` (pending in the session for 10 minutes),
 * `POST …/profile/otp/enable/` `{code}` → binds the seed (sealed at rest) and turns MFA on,
 * `POST …/profile/otp/disable/` `{code}` → unbinds (refused while MFA is forced for the user).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { fieldsOf } from '../auth/fields.ts'
import { checkUserOtp, otpWindow, sealOtpSecret } from '../auth/otp-store.ts'
import { generateSecret, otpauthUri, verifyTotp } from '../auth/totp.ts'
import { requireUser } from '../http/context.ts'
import { ApiError } from '../http/errors.ts'
import { newSession } from '../http/session.ts'
import { tr } from '../i18n.ts'
import { getSetting } from '../settings/store.ts'
import { STARTUP_MESSAGES } from './messages.ts'
import { isAdminBinding, loadUserRow, mfaForcedBySetting, serializeProfile, userBindings } from './profile-view.ts'

const SETUP_TTL_MS = 10 * 60_000

interface OtpSetup { secret: string; at: number }

const fail = (req: FastifyRequest, text: string, code: string) => new ApiError(400, { error: tr(req.ctx.lang, text), code })

function readCode(req: FastifyRequest): string {
  const f = fieldsOf(req)
  const code = f.string('code', { required: true, maxLength: 16 })
  f.done()
  return code!
}

export function registerOtpBinding(app: FastifyInstance): void {
  // A GET with an effect (a new pending seed): no automatic OPTIONS (server/engine/options.ts).
  app.get('/api/v1/users/profile/otp/setup/', { config: { options: false } }, async (req) => {
    const user = requireUser(req)
    const row = await loadUserRow(req, user.id)
    if (row.otp_secret) throw fail(req, STARTUP_MESSAGES.otpBound, 'otp_bound')
    req.ctx.session ??= newSession()
    const secret = generateSecret()
    req.ctx.session.data.otpSetup = { secret, at: Date.now() } satisfies OtpSetup
    req.ctx.session.dirty = true
    const issuer = String((await getSetting(req.ctx.db, 'OTP_ISSUER_NAME')) || 'JumpServer')
    return { secret, otpauth_uri: otpauthUri(secret, user.username, issuer) }
  })

  app.post('/api/v1/users/profile/otp/enable/', async (req) => {
    const user = requireUser(req)
    const code = readCode(req)
    const setup = req.ctx.session?.data.otpSetup as OtpSetup | undefined
    if (!setup || Date.now() - setup.at > SETUP_TTL_MS) throw fail(req, STARTUP_MESSAGES.otpNoSetup, 'otp_setup_expired')
    const r = verifyTotp(setup.secret, code, { window: await otpWindow(req.ctx.db) })
    if (!r.ok) throw new ApiError(400, { code: [tr(req.ctx.lang, STARTUP_MESSAGES.otpInvalid)] })
    const bound = await sql`update users set otp_secret = ${sealOtpSecret(req.server.services.config, user.id, setup.secret)},
      otp_last_counter = ${r.counter}, mfa_level = greatest(mfa_level, 1), date_updated = now()
      where id = ${user.id} and otp_secret = ''`.execute(req.ctx.db)
    delete req.ctx.session!.data.otpSetup
    req.ctx.session!.dirty = true
    if (Number(bound.numAffectedRows ?? 0) !== 1) throw fail(req, STARTUP_MESSAGES.otpBound, 'otp_bound')
    return serializeProfile(req, user.id)
  })

  app.post('/api/v1/users/profile/otp/disable/', async (req) => {
    const user = requireUser(req)
    const code = readCode(req)
    const row = await loadUserRow(req, user.id)
    if (!row.otp_secret) throw fail(req, STARTUP_MESSAGES.otpNotBound, 'otp_not_bound')
    const isAdmin = (await userBindings(req, user.id)).some((b) => isAdminBinding(b.role_id))
    if (row.mfa_level === 2 || mfaForcedBySetting(await getSetting(req.ctx.db, 'SECURITY_MFA_AUTH'), isAdmin)) {
      throw fail(req, STARTUP_MESSAGES.mfaForced, 'mfa_forced')
    }
    if ((await checkUserOtp(req.ctx.db, req.server.services.config, user.id, code)) !== 'ok') {
      throw new ApiError(400, { code: [tr(req.ctx.lang, STARTUP_MESSAGES.otpInvalid)] })
    }
    await sql`update users set otp_secret = '', mfa_level = 0, date_updated = now() where id = ${user.id}`.execute(req.ctx.db)
    return serializeProfile(req, user.id)
  })
}

