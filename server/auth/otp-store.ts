/**
 * Users' TOTP seeds at rest (users.otp_secret, sealed with the server SECRET_KEY and bound to the user id)
 * and code verification with replay protection through users.otp_last_counter.
 */
import { sql } from 'kysely'
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import { getSetting } from '../settings/store.ts'
import { createSealer, type Sealer } from './atrest.ts'
import { verifyTotp } from './totp.ts'

const sealers = new Map<string, Sealer>()

export function sealerFor(config: ServerConfig): Sealer {
  let s = sealers.get(config.secretKey)
  if (!s) sealers.set(config.secretKey, (s = createSealer(config.secretKey)))
  return s
}

const context = (userId: string) => `users.otp_secret:${userId}`

export function sealOtpSecret(config: ServerConfig, userId: string, secret: string): string {
  return sealerFor(config).seal(secret, context(userId))
}

/** The plain seed, or undefined when none is bound (or it does not open with this key). */
export function openOtpSecret(config: ServerConfig, userId: string, sealed: string | null | undefined): string | undefined {
  if (!sealed) return undefined
  try {
    return sealerFor(config).open(sealed, context(userId))
  } catch {
    return undefined
  }
}

export type OtpCheck = 'ok' | 'invalid' | 'reused'

export async function otpWindow(db: DB): Promise<number> {
  const w = Number(await getSetting(db, 'OTP_VALID_WINDOW'))
  return Number.isFinite(w) && w >= 0 ? w : 2
}

/**
 * Checks `code` against a plain seed. On success the matched counter is stored only if it is newer than the
 * last one used (one atomic update), so a code is accepted once even under concurrent requests.
 */
export async function checkOtp(db: DB, userId: string, secret: string, code: unknown): Promise<OtpCheck> {
  const row = (await sql<{ c: number | string | bigint }>`select otp_last_counter as c from users where id = ${userId}`.execute(db)).rows[0]
  if (!row || typeof code !== 'string') return 'invalid'
  const last = Number(row.c)
  const r = verifyTotp(secret, code.trim(), { window: await otpWindow(db), lastUsedCounter: last > 0 ? last : null })
  if (!r.ok) return r.reason === 'reused' ? 'reused' : 'invalid'
  const upd = await sql`update users set otp_last_counter = ${r.counter} where id = ${userId} and otp_last_counter < ${r.counter}`.execute(db)
  return Number(upd.numAffectedRows ?? 0) === 1 ? 'ok' : 'reused'
}

/** Verifies a code against the user's bound seed. */
export async function checkUserOtp(db: DB, config: ServerConfig, userId: string, code: unknown): Promise<OtpCheck> {
  const row = (await sql<{ otp_secret: string }>`select otp_secret from users where id = ${userId}`.execute(db)).rows[0]
  const secret = openOtpSecret(config, userId, row?.otp_secret)
  if (!secret) return 'invalid'
  return checkOtp(db, userId, secret, code)
}
