/**
 * The credential pipeline shared by the web login and the token endpoint, in JumpServer's order:
 * IP black list → username / IP blocks → user + password → active / not expired → login ACL hook.
 * Every failure is a `LoginFailure`; `loggedAttempt` writes the login log and turns it into a 400
 * `{error, code}` in the request language.
 */
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ipMatches } from './ip-match.ts'
import { activeBlock, type LimitSettings, recordFailure, shownMinutes } from './limits.ts'
import { type MfaFlag, writeLoginLog } from './login-log.ts'
import { AUTH_MESSAGES } from './messages.ts'
import { hashPassword, needsRehash, verifyPassword } from './password.ts'
import { ldapEnabled, ldapLogin } from '../ldap/login.ts'

export interface LoginUser {
  id: string
  username: string
  name: string
  password_hash: string
  is_active: boolean
  date_expired: Date | null
  otp_secret: string
  source: string
  phone: string | null
  mfa_level: number
}

export class LoginFailure extends Error {
  constructor(
    readonly code: string,
    readonly text: string,
    readonly vars: Record<string, string | number> | undefined,
    readonly reason: string,
    readonly mfa: MfaFlag,
  ) {
    super(text)
  }
}

export interface Attempt {
  username: string
  type: 'W' | 'T'
}

const USER_COLUMNS = sql`id, username, name, password_hash, is_active, date_expired, otp_secret, source, phone, mfa_level`

export async function findLoginUser(req: FastifyRequest, by: { username: string } | { id: string }): Promise<LoginUser | undefined> {
  const where = 'id' in by ? sql`id = ${by.id}` : sql`username = ${by.username}`
  return (await sql<LoginUser>`select ${USER_COLUMNS} from users where ${where}`.execute(req.ctx.db)).rows[0]
}

export const mfaFlag = (u: { otp_secret: string } | undefined): MfaFlag => (u ? (u.otp_secret ? 1 : 0) : 2)

/** Runs one attempt; a LoginFailure is logged and answered as 400 `{error, code}`. */
export async function loggedAttempt<T>(req: FastifyRequest, attempt: Attempt, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    if (!(e instanceof LoginFailure)) throw e
    await writeLoginLog(req, { username: attempt.username, type: attempt.type, mfa: e.mfa, status: false, reason: e.reason })
    throw new ApiError(400, { error: tr(req.ctx.lang, e.text, e.vars), code: e.code })
  }
}

export const blockedFailure = (s: LimitSettings, mfa: MfaFlag = 2) =>
  new LoginFailure('blocked', AUTH_MESSAGES.blocked, { m: shownMinutes(s.userMinutes) }, AUTH_MESSAGES.reasonBlocked, mfa)

/**
 * IP black list and active blocks (nothing is counted here). The address's block applies to usernames that do not
 * exist only; a blocked (user, address) pair is refused — unless the user has MFA: then `pairBlocked` tells the
 * caller to let only the right password and the right code in together (issue 36 point 8).
 */
export async function precheck(req: FastifyRequest, username: string, s: LimitSettings): Promise<{ pairBlocked: boolean }> {
  if (ipMatches(req.ip, s.blackList)) throw new LoginFailure('ip_not_allowed', AUTH_MESSAGES.ipNotAllowed, undefined, AUTH_MESSAGES.reasonIp, 2)
  const user = await findLoginUser(req, { username })
  const block = await activeBlock(req.ctx.db, username, req.ip, s, !!user)
  if (block === 'ip') throw new LoginFailure('ip_blocked', AUTH_MESSAGES.ipBlocked, { m: shownMinutes(s.ipMinutes) }, AUTH_MESSAGES.reasonBlocked, 2)
  if (block === 'user') {
    if (user?.otp_secret && user.is_active) return { pairBlocked: true }
    throw blockedFailure(s)
  }
  return { pairBlocked: false }
}

/** Counts a failed credential (or second factor) and builds the matching failure. */
export async function countedFailure(
  req: FastifyRequest, username: string, s: LimitSettings, kind: { text: string; code: string; reason: string; mfa: MfaFlag }, known = true,
): Promise<LoginFailure> {
  const r = await recordFailure(req.ctx.db, username, req.ip, s, known)
  const m = shownMinutes(s.userMinutes)
  if (r.blocked || r.remaining <= 0) return new LoginFailure('blocked', AUTH_MESSAGES.blocked, { m }, kind.reason, kind.mfa)
  return new LoginFailure(kind.code, kind.text, { n: r.remaining, m }, kind.reason, kind.mfa)
}

let dummyHash: Promise<string> | undefined

/** Username + password (plain) → the user, or a counted LoginFailure. Unknown users cost the same work. */
export async function verifyCredentials(req: FastifyRequest, attempt: Attempt, password: string, s: LimitSettings): Promise<LoginUser & { review?: { reviewerIds: string[] } }> {
  let user = await findLoginUser(req, { username: attempt.username })
  let good: boolean
  if ((!user || user.source === 'ldap') && (await ldapEnabled(req))) {
    // LDAP users (and unknown ones, created on success) are checked by the directory (server/ldap)
    const id = await ldapLogin(req, attempt.username, password, !!user)
    good = id !== undefined
    if (id) user = await findLoginUser(req, { id })
  } else {
    const real = user?.password_hash?.startsWith('$argon2') ? user.password_hash : undefined
    dummyHash ??= hashPassword(`dummy-${Math.random()}`)
    good = (await verifyPassword(password, real ?? (await dummyHash))) && real !== undefined
  }
  if (!user || !good) {
    throw await countedFailure(req, attempt.username, s, { text: AUTH_MESSAGES.invalidLogin, code: 'invalid_credentials', reason: AUTH_MESSAGES.reasonPassword, mfa: mfaFlag(user) }, !!user)
  }
  if (!user.is_active) throw new LoginFailure('inactive', AUTH_MESSAGES.inactive, undefined, AUTH_MESSAGES.reasonInvalid, mfaFlag(user))
  if (user.date_expired && user.date_expired.getTime() < Date.now()) {
    throw new LoginFailure('expired', AUTH_MESSAGES.expired, undefined, AUTH_MESSAGES.reasonInvalid, mfaFlag(user))
  }
  if (user.source !== 'ldap' && user.password_hash && needsRehash(user.password_hash)) {
    await sql`update users set password_hash = ${await hashPassword(password)} where id = ${user.id}`.execute(req.ctx.db)
  }
  const acl = await req.server.loginAclCheck(req, { userId: user.id, username: user.username, ip: req.ip, type: attempt.type })
  if (acl.action === 'reject') throw new LoginFailure('acl_rejected', acl.message ?? AUTH_MESSAGES.aclRejected, undefined, AUTH_MESSAGES.reasonAcl, mfaFlag(user))
  if (acl.action === 'review') return { ...user, review: { reviewerIds: acl.reviewerIds } }
  return user
}
