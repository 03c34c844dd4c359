import { hash } from '@node-rs/argon2'
import { describe, expect, it } from 'vitest'
import { checkPasswordRules, hashPassword, MAX_PASSWORD_LENGTH, needsRehash, verifyPassword } from './password.ts'

describe('hashPassword / verifyPassword', () => {
  it('hashes with argon2id and verifies', async () => {
    const h = await hashPassword('correct horse 密码 🔑')
    expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword('correct horse 密码 🔑', h)).toBe(true)
    expect(await verifyPassword('correct horse 密码', h)).toBe(false)
    expect(await verifyPassword('', h)).toBe(false)
    expect(needsRehash(h)).toBe(false)
  })

  it('salts: the same password hashes differently', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'))
  })

  it('never throws on malformed or foreign hashes', async () => {
    const good = await hashPassword('pw')
    const bad = [
      '',
      'plain',
      '$argon2id$',
      '$argon2id$v=19$m=19456,t=2,p=1$',
      good.slice(0, -5),
      good.replace('m=19456', 'm=x'),
      'pbkdf2_sha256$260000$salt$hash',
      '$2b$12$abcdefghijklmnopqrstuuOl7Rxsh8Ff3J4z3V5JrjeTqU9s1vKq',
      null,
      undefined,
      42 as unknown as string,
    ]
    for (const stored of bad) await expect(verifyPassword('pw', stored)).resolves.toBe(false)
    await expect(verifyPassword(undefined as unknown as string, good)).resolves.toBe(false)
    await expect(verifyPassword('x'.repeat(MAX_PASSWORD_LENGTH + 1), good)).resolves.toBe(false)
    expect(needsRehash('garbage')).toBe(true)
  })

  it('flags hashes made with other parameters for rehash', async () => {
    const old = await hash('pw', { memoryCost: 4096, timeCost: 3 })
    expect(await verifyPassword('pw', old)).toBe(true)
    expect(needsRehash(old)).toBe(true)
  })

  it('refuses absurdly long passwords when hashing', async () => {
    await expect(hashPassword('x'.repeat(MAX_PASSWORD_LENGTH + 1))).rejects.toThrow(RangeError)
  })
})

describe('checkPasswordRules', () => {
  const all = {
    SECURITY_PASSWORD_MIN_LENGTH: 8,
    SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH: 12,
    SECURITY_PASSWORD_UPPER_CASE: true,
    SECURITY_PASSWORD_LOWER_CASE: true,
    SECURITY_PASSWORD_NUMBER: true,
    SECURITY_PASSWORD_SPECIAL_CHAR: true,
  }

  it('defaults to JumpServer: min length 6, nothing else', () => {
    expect(checkPasswordRules('abcdef')).toEqual([])
    expect(checkPasswordRules('abcde')).toEqual([{ code: 'min_length', n: 6 }])
    expect(checkPasswordRules('abcde', { SECURITY_PASSWORD_MIN_LENGTH: undefined })).toEqual([{ code: 'min_length', n: 6 }])
  })

  it('reports every failed rule', () => {
    expect(checkPasswordRules('abc', all)).toEqual([{ code: 'min_length', n: 8 }, { code: 'upper_case' }, { code: 'number' }, { code: 'special_char' }])
    expect(checkPasswordRules('ABCDEFGH1', all)).toEqual([{ code: 'lower_case' }, { code: 'special_char' }])
    expect(checkPasswordRules('', all)).toHaveLength(5)
    expect(checkPasswordRules('Abcdef1!', all)).toEqual([])
  })

  it('uses the admin minimum for admins', () => {
    expect(checkPasswordRules('Abcdef1!', all, { isAdmin: true })).toEqual([{ code: 'min_length', n: 12 }])
    expect(checkPasswordRules('Abcdef1!xyzw', all, { isAdmin: true })).toEqual([])
    expect(checkPasswordRules('Abcdef1!', all, { isAdmin: false })).toEqual([])
  })

  it('accepts each special character of the rule and nothing else as special', () => {
    for (const c of "`~!@#$%^&*()-=_+[]{}|;:'\",.<>/?") {
      expect(checkPasswordRules(`Abcdef1${c}`, all)).toEqual([])
    }
    for (const c of [' ', '\\', '§', '€', '中', '🔑']) {
      expect(checkPasswordRules(`Abcdef1${c}`, all)).toEqual([{ code: 'special_char' }])
    }
  })

  it('counts code points, not UTF-16 units', () => {
    expect(checkPasswordRules('🔑🔑🔑🔑🔑', { SECURITY_PASSWORD_MIN_LENGTH: 6 })).toEqual([{ code: 'min_length', n: 6 }])
    expect(checkPasswordRules('密码密码密码', { SECURITY_PASSWORD_MIN_LENGTH: 6 })).toEqual([])
  })

  it('only ASCII letters and digits satisfy the class rules (as in JumpServer)', () => {
    expect(checkPasswordRules('ÄÖÜäöü١٢٣!', all).map((f) => f.code)).toEqual(['upper_case', 'lower_case', 'number'])
  })
})
