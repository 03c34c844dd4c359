import { describe, expect, it } from 'vitest'
import { fieldMessages, groupSecret, isOtpCode, needsOtpBinding, passwordChecks, SYSTEM_ADMIN_ROLE } from './model.ts'

const user = { is_otp_secret_key_bound: false, mfa_force_enabled: false, system_roles: [] as { id: string }[] }
const admin = { ...user, system_roles: [{ id: SYSTEM_ADMIN_ROLE }] }

describe('needsOtpBinding', () => {
  it.each([
    ['not enforced', user, {}, false],
    ['forced on the profile', { ...user, mfa_force_enabled: true }, {}, true],
    ['already bound', { ...user, mfa_force_enabled: true, is_otp_secret_key_bound: true }, {}, false],
    ['all users (1)', user, { SECURITY_MFA_AUTH: 1 }, true],
    ['admins only (2), a user', user, { SECURITY_MFA_AUTH: 2 }, false],
    ['admins only (2), an admin', admin, { SECURITY_MFA_AUTH: 2 }, true],
  ])('%s', (_l, profile, settings, expected) => {
    expect(needsOtpBinding(profile, settings)).toBe(expected)
  })
})

describe('passwordChecks', () => {
  const rule = { SECURITY_PASSWORD_MIN_LENGTH: 8, SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH: 12, SECURITY_PASSWORD_UPPER_CASE: true, SECURITY_PASSWORD_NUMBER: true }
  it('lists only the active rules, with their state', () => {
    const checks = passwordChecks('abcdefgh1', rule, false)
    expect(checks.map((c) => [c.key, c.ok])).toEqual([['length', true], ['upper', false], ['number', true]])
  })
  it('uses the administrators\u2019 minimum length for admins', () => {
    expect(passwordChecks('Abcdefgh1', rule, true)[0]).toMatchObject({ key: 'length', ok: false })
  })
  it('knows special characters', () => {
    expect(passwordChecks('a!', { SECURITY_PASSWORD_SPECIAL_CHAR: true }, false)[0]!.ok).toBe(true)
    expect(passwordChecks('a b', { SECURITY_PASSWORD_SPECIAL_CHAR: true }, false)[0]!.ok).toBe(false)
  })
})

describe('helpers', () => {
  it('accepts exactly six digits', () => {
    expect(isOtpCode('123456')).toBe(true)
    expect(isOtpCode('12345')).toBe(false)
    expect(isOtpCode('12345a')).toBe(false)
  })
  it('groups a secret by four', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP')
  })
  it('flattens field errors', () => {
    expect(fieldMessages({ email: ['Enter a valid email address.'], new_password: ['Too short.', 'No digit.'], x: {} })).toEqual({
      email: 'Enter a valid email address.',
      new_password: 'Too short. No digit.',
    })
  })
})
