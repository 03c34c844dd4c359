/**
 * RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30 s steps) with RFC 4648 base32 secrets — what JumpServer's
 * OTP MFA (pyotp) and every authenticator app use. `OTP_VALID_WINDOW` steps are accepted either side of
 * the current one; callers store the accepted counter and pass it back as `lastUsedCounter` so a code
 * can never be used twice.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
export const TOTP_DIGITS = 6
export const TOTP_PERIOD = 30

export function base32Encode(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let acc = 0
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += BASE32[(acc >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(acc << (5 - bits)) & 31]
  return out
}

/** Decodes base32, case-insensitive, ignoring spaces, dashes and `=` padding. Throws on other characters. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase()
  const out: number[] = []
  let bits = 0
  let acc = 0
  for (const ch of clean) {
    const v = BASE32.indexOf(ch)
    if (v < 0) throw new Error('invalid base32 secret')
    acc = ((acc << 5) | v) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** A new secret: 20 random bytes (160 bits, the RFC 4226 recommendation) → 32 base32 characters. */
export function generateSecret(): string {
  return base32Encode(randomBytes(20))
}

function secretBytes(secret: string | Uint8Array): Buffer {
  const key = typeof secret === 'string' ? base32Decode(secret) : Buffer.from(secret)
  if (key.length === 0) throw new Error('empty TOTP secret')
  return key
}

/** RFC 4226 HOTP value for one counter. */
export function hotp(secret: string | Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError('bad HOTP counter')
  const msg = Buffer.alloc(8)
  msg.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', secretBytes(secret)).update(msg).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const bin = mac.readUInt32BE(offset) & 0x7fffffff
  return String(bin % 10 ** digits).padStart(digits, '0')
}

/** Time step for a time in milliseconds (Date.now() scale). */
export function totpCounter(timeMs: number, period = TOTP_PERIOD): number {
  return Math.floor(timeMs / 1000 / period)
}

/**
 * The TOTP code at a time.
 * @param time milliseconds since the epoch (default now), or a Date
 */
export function totp(secret: string | Uint8Array, time: number | Date = Date.now(), opts: { digits?: number; period?: number } = {}): string {
  const ms = typeof time === 'number' ? time : time.getTime()
  return hotp(secret, totpCounter(ms, opts.period ?? TOTP_PERIOD), opts.digits ?? TOTP_DIGITS)
}

export interface VerifyTotpOptions {
  /** Steps accepted either side of the current one (setting OTP_VALID_WINDOW; default 1). */
  window?: number
  /** Current time in milliseconds (default Date.now()). */
  now?: number
  /** Counter of the last code this user had accepted: that step and older ones are refused. */
  lastUsedCounter?: number | null
}

export type VerifyTotpResult = { ok: true; counter: number } | { ok: false; reason: 'malformed' | 'mismatch' | 'reused'; counter?: number }

/**
 * Checks a 6-digit code. On success returns the matched counter, which the caller must store (as the new
 * `lastUsedCounter`) before accepting the login. Never throws for a bad code; throws for a bad secret.
 */
export function verifyTotp(secret: string | Uint8Array, code: string, opts: VerifyTotpOptions = {}): VerifyTotpResult {
  if (typeof code !== 'string' || !/^[0-9]{6}$/.test(code)) return { ok: false, reason: 'malformed' }
  const window = Math.max(0, Math.min(10, Math.floor(opts.window ?? 1)))
  const current = totpCounter(opts.now ?? Date.now())
  const key = secretBytes(secret)
  const given = Buffer.from(code)
  let fresh: number | undefined
  let used: number | undefined
  // Every step in the window is computed and compared in constant time, whatever matches.
  for (let c = current - window; c <= current + window; c++) {
    if (c < 0) continue
    const match = timingSafeEqual(Buffer.from(hotp(key, c)), given)
    if (!match) continue
    if (opts.lastUsedCounter != null && c <= opts.lastUsedCounter) used = c
    else fresh = c // the latest match, so a replay of a colliding code is refused too
  }
  if (fresh !== undefined) return { ok: true, counter: fresh }
  if (used !== undefined) return { ok: false, reason: 'reused', counter: used }
  return { ok: false, reason: 'mismatch' }
}

/** `otpauth://` URI for QR codes (Google Authenticator key-uri format). */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const params = new URLSearchParams({ secret: secret.replace(/[\s=]/g, '').toUpperCase(), issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_PERIOD) })
  return `otpauth://totp/${label}?${params.toString().replace(/\+/g, '%20')}`
}
