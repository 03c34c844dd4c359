import { describe, expect, it } from 'vitest'
import { base32Decode, base32Encode, generateSecret, hotp, otpauthUri, totp, verifyTotp } from './totp.ts'

const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' // base32("12345678901234567890")

describe('base32', () => {
  it('encodes the RFC secret and round-trips arbitrary bytes', () => {
    expect(base32Encode(Buffer.from('12345678901234567890'))).toBe(RFC_SECRET)
    expect(base32Decode(RFC_SECRET).toString()).toBe('12345678901234567890')
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq').toString()).toBe('12345678901234567890')
    // RFC 4648 §10 vectors
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI')
    expect(base32Decode('MZXW6YTBOI======').toString()).toBe('foobar')
    expect(base32Encode(Buffer.from('f'))).toBe('MY')
    expect(() => base32Decode('ABC1')).toThrow()
  })

  it('generateSecret gives 20 random bytes as 32 base32 chars', () => {
    const a = generateSecret()
    expect(a).toMatch(/^[A-Z2-7]{32}$/)
    expect(base32Decode(a)).toHaveLength(20)
    expect(generateSecret()).not.toBe(a)
  })
})

describe('RFC test vectors', () => {
  it('RFC 4226 HOTP', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489']
    expected.forEach((code, counter) => expect(hotp(RFC_SECRET, counter)).toBe(code))
  })

  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('RFC 6238 SHA1 at T=%i', (t, code) => {
    expect(totp(RFC_SECRET, t * 1000, { digits: 8 })).toBe(code)
    expect(totp(RFC_SECRET, new Date(t * 1000))).toBe(code.slice(-6))
    expect(totp(Buffer.from('12345678901234567890'), t * 1000)).toBe(code.slice(-6))
    expect(verifyTotp(RFC_SECRET, code.slice(-6), { now: t * 1000 })).toEqual({ ok: true, counter: Math.floor(t / 30) })
  })
})

describe('verifyTotp', () => {
  const now = 1_700_000_000_000
  const step = 30_000

  it('accepts codes within the window only', () => {
    const counter = Math.floor(now / step)
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - step), { now })).toEqual({ ok: true, counter: counter - 1 })
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now + step), { now })).toEqual({ ok: true, counter: counter + 1 })
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - 2 * step), { now })).toMatchObject({ ok: false, reason: 'mismatch' })
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - 2 * step), { now, window: 2 }).ok).toBe(true)
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - step), { now, window: 0 }).ok).toBe(false)
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now), { now, window: 0 })).toEqual({ ok: true, counter })
  })

  it('refuses a code whose counter is <= lastUsedCounter', () => {
    const code = totp(RFC_SECRET, now)
    const first = verifyTotp(RFC_SECRET, code, { now })
    expect(first.ok).toBe(true)
    const counter = (first as { counter: number }).counter
    expect(verifyTotp(RFC_SECRET, code, { now, lastUsedCounter: counter })).toEqual({ ok: false, reason: 'reused', counter })
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - step), { now, lastUsedCounter: counter }).ok).toBe(false)
    // a later code is still fine
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now + step), { now, lastUsedCounter: counter })).toEqual({ ok: true, counter: counter + 1 })
    expect(verifyTotp(RFC_SECRET, code, { now, lastUsedCounter: null }).ok).toBe(true)
  })

  it('refuses malformed codes', () => {
    const code = totp(RFC_SECRET, now)
    for (const bad of ['', '12345', '1234567', code + ' ', ' ' + code, 'abcdef', '12 345', '１２３４５６', '-12345', '12345\n']) {
      expect(verifyTotp(RFC_SECRET, bad, { now })).toEqual({ ok: false, reason: 'malformed' })
    }
    expect(verifyTotp(RFC_SECRET, undefined as unknown as string, { now }).ok).toBe(false)
  })

  it('a wrong code fails', () => {
    const code = totp(RFC_SECRET, now)
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    expect(verifyTotp(RFC_SECRET, wrong, { now, window: 0 })).toEqual({ ok: false, reason: 'mismatch' })
  })
})

describe('otpauthUri', () => {
  it('builds the key-uri', () => {
    const uri = otpauthUri(RFC_SECRET, 'alice@example.com', 'Jump Server')
    expect(uri).toBe(
      'otpauth://totp/Jump%20Server:alice%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Jump%20Server&algorithm=SHA1&digits=6&period=30',
    )
    const u = new URL(uri)
    expect(u.searchParams.get('issuer')).toBe('Jump Server')
  })
})
