/**
 * Password hashing (argon2id via @node-rs/argon2) and the password rules of the security settings
 * (SECURITY_PASSWORD_MIN_LENGTH, SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH, SECURITY_PASSWORD_UPPER_CASE,
 * _LOWER_CASE, _NUMBER, _SPECIAL_CHAR), as JumpServer's `check_password_rules` applies them.
 */
import { type Algorithm, hash, type Options, parseOptions, verify } from '@node-rs/argon2'

/** argon2id, m = 19 MiB, t = 2, p = 1 (OWASP minimum; ~12 ms here). */
export const ARGON2_OPTIONS = {
  algorithm: 2 satisfies Algorithm.Argon2id, // const enum: the literal is used under isolatedModules
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const satisfies Options

/** Longest password accepted for hashing/verification, to bound the work per request. */
export const MAX_PASSWORD_LENGTH = 1024

export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== 'string') throw new TypeError('password must be a string')
  if (password.length > MAX_PASSWORD_LENGTH) throw new RangeError('password too long')
  return hash(password, ARGON2_OPTIONS)
}

/** True only when `stored` is a well-formed argon2 hash of `password`; never throws. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (typeof password !== 'string' || typeof stored !== 'string') return false
  if (password.length > MAX_PASSWORD_LENGTH || !stored.startsWith('$argon2')) return false
  try {
    return await verify(stored, password)
  } catch {
    return false
  }
}

/** True when a stored hash was made with other parameters than ARGON2_OPTIONS (rehash after login). */
export function needsRehash(stored: string): boolean {
  try {
    const p = parseOptions(stored)
    return (
      p.algorithm !== ARGON2_OPTIONS.algorithm ||
      p.memoryCost !== ARGON2_OPTIONS.memoryCost ||
      p.timeCost !== ARGON2_OPTIONS.timeCost ||
      p.parallelism !== ARGON2_OPTIONS.parallelism ||
      p.outputLen !== ARGON2_OPTIONS.outputLen
    )
  } catch {
    return true
  }
}

// ---------------------------------------------------------------------------------------------- rules

export interface PasswordRules {
  SECURITY_PASSWORD_MIN_LENGTH?: number
  SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH?: number
  SECURITY_PASSWORD_UPPER_CASE?: boolean
  SECURITY_PASSWORD_LOWER_CASE?: boolean
  SECURITY_PASSWORD_NUMBER?: boolean
  SECURITY_PASSWORD_SPECIAL_CHAR?: boolean
}

/** JumpServer defaults (settings/serializers/security.py): min length 6 for both, no class required. */
export const DEFAULT_PASSWORD_RULES: Required<PasswordRules> = {
  SECURITY_PASSWORD_MIN_LENGTH: 6,
  SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH: 6,
  SECURITY_PASSWORD_UPPER_CASE: false,
  SECURITY_PASSWORD_LOWER_CASE: false,
  SECURITY_PASSWORD_NUMBER: false,
  SECURITY_PASSWORD_SPECIAL_CHAR: false,
}

export type PasswordRuleFailure =
  | { code: 'min_length'; n: number }
  | { code: 'upper_case' }
  | { code: 'lower_case' }
  | { code: 'number' }
  | { code: 'special_char' }

/** The special characters of JumpServer's rule: ~!@#$%^&*()-=_+[]{}|;:'",.<>/? and backquote. */
export const SPECIAL_CHARS = "`~!@#$%^&*()-=_+[]{}|;:'\",.<>/?"

/**
 * Checks a password against the rules; returns every failed rule (empty array = acceptable).
 * Length counts Unicode code points (Python `len`). `isAdmin` (org/system admin) uses the admin minimum.
 */
export function checkPasswordRules(password: string, rules: PasswordRules = {}, opts: { isAdmin?: boolean } = {}): PasswordRuleFailure[] {
  const r = { ...DEFAULT_PASSWORD_RULES, ...definedOnly(rules) }
  const failures: PasswordRuleFailure[] = []
  const min = opts.isAdmin ? r.SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH : r.SECURITY_PASSWORD_MIN_LENGTH
  const n = Number.isFinite(min) ? Math.max(0, Math.floor(min)) : 0
  if ([...password].length < n) failures.push({ code: 'min_length', n })
  if (r.SECURITY_PASSWORD_UPPER_CASE && !/[A-Z]/.test(password)) failures.push({ code: 'upper_case' })
  if (r.SECURITY_PASSWORD_LOWER_CASE && !/[a-z]/.test(password)) failures.push({ code: 'lower_case' })
  if (r.SECURITY_PASSWORD_NUMBER && !/[0-9]/.test(password)) failures.push({ code: 'number' })
  if (r.SECURITY_PASSWORD_SPECIAL_CHAR && ![...password].some((c) => SPECIAL_CHARS.includes(c))) failures.push({ code: 'special_char' })
  return failures
}

function definedOnly(rules: PasswordRules): PasswordRules {
  return Object.fromEntries(Object.entries(rules).filter(([, v]) => v !== undefined && v !== null)) as PasswordRules
}
