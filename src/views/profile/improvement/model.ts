/** Pure rules of the first-login page: what it must ask for, and the server's password rules as checks. */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { Profile } from '../../../api/profile.ts'
import type { PasswordRule, PublicSettings } from '../../../api/settings.ts'

export const SYSTEM_ADMIN_ROLE = '00000000-0000-0000-0000-000000000001'
export const OTP_LENGTH = 6

export const isSystemAdmin = (profile: Pick<Profile, 'system_roles'>) => profile.system_roles.some((r) => r.id === SYSTEM_ADMIN_ROLE)

/**
 * OTP must be bound when MFA is enforced for this user and none is bound yet: the profile's `mfa_force_enabled`,
 * or SECURITY_MFA_AUTH 1 (all users) / 2 (administrators) when the settings carry it.
 */
export function needsOtpBinding(profile: Pick<Profile, 'is_otp_secret_key_bound' | 'mfa_force_enabled' | 'system_roles'>, settings: PublicSettings): boolean {
  if (profile.is_otp_secret_key_bound) return false
  const level = Number(settings.SECURITY_MFA_AUTH ?? 0)
  return profile.mfa_force_enabled || level === 1 || (level === 2 && isSystemAdmin(profile))
}

export interface RuleCheck {
  key: string
  label: MessageDescriptor
  ok: boolean
}

/** One check per active rule of PASSWORD_RULE (administrators have their own minimum length). */
export function passwordChecks(password: string, rule: PasswordRule | undefined, isAdmin: boolean): RuleCheck[] {
  const r = rule ?? {}
  const min = Number((isAdmin ? r.SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH : r.SECURITY_PASSWORD_MIN_LENGTH) ?? r.SECURITY_PASSWORD_MIN_LENGTH ?? 0)
  const out: RuleCheck[] = []
  if (min > 0) out.push({ key: 'length', label: msg`At least ${min} characters`, ok: [...password].length >= min })
  if (r.SECURITY_PASSWORD_UPPER_CASE) out.push({ key: 'upper', label: msg`An upper-case letter`, ok: /[A-Z]/.test(password) })
  if (r.SECURITY_PASSWORD_LOWER_CASE) out.push({ key: 'lower', label: msg`A lower-case letter`, ok: /[a-z]/.test(password) })
  if (r.SECURITY_PASSWORD_NUMBER) out.push({ key: 'number', label: msg`A digit`, ok: /\d/.test(password) })
  if (r.SECURITY_PASSWORD_SPECIAL_CHAR) out.push({ key: 'special', label: msg`A special character`, ok: /[^A-Za-z0-9\s]/.test(password) })
  return out
}

export const isOtpCode = (code: string) => new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code)

/** `JBSWY3DP EHPK3PXP …`: groups of four for reading the secret aloud or typing it. */
export const groupSecret = (secret: string) => secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ')

/** Field errors of a 400 as text per field (arrays joined by a space; nested values flattened). */
export function fieldMessages(errors: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  const text = (v: unknown): string =>
    typeof v === 'string' ? v : Array.isArray(v) ? v.map(text).filter(Boolean).join(' ') : v && typeof v === 'object' ? Object.values(v).map(text).filter(Boolean).join(' ') : ''
  for (const [k, v] of Object.entries(errors ?? {})) {
    const t = text(v)
    if (t) out[k] = t
  }
  return out
}
