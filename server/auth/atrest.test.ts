import { describe, expect, it } from 'vitest'
import { createSealer, isSealed, SealedValueError } from './atrest.ts'

const KEY = 'k8Fq2-secret-key-of-the-server-0123456789'

describe('createSealer', () => {
  const sealer = createSealer(KEY)

  it('round-trips, including empty, CJK, emoji and long values', () => {
    for (const plain of ['', 'P@ssw0rd', '密码🔑', 'x'.repeat(100_000), '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n']) {
      const sealed = sealer.seal(plain)
      expect(sealed).toMatch(/^v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/=]+$/)
      expect(isSealed(sealed)).toBe(true)
      expect(sealer.open(sealed)).toBe(plain)
    }
  })

  it('uses a fresh IV each time', () => {
    expect(sealer.seal('same')).not.toBe(sealer.seal('same'))
  })

  it('opens with another sealer made from the same key', () => {
    expect(createSealer(KEY).open(sealer.seal('shared'))).toBe('shared')
    expect(createSealer(Buffer.from(KEY)).open(sealer.seal('bytes key'))).toBe('bytes key')
  })

  it('detects tampering of the ciphertext, the tag and the IV', () => {
    const sealed = sealer.seal('do not touch')
    const [v, iv, ct] = sealed.split(':') as [string, string, string]
    const data = Buffer.from(ct, 'base64')
    for (let i = 0; i < data.length; i++) {
      const t = Buffer.from(data)
      t[i]! ^= 0x01
      expect(() => sealer.open(`${v}:${iv}:${t.toString('base64')}`)).toThrow(SealedValueError)
    }
    const ivb = Buffer.from(iv, 'base64')
    ivb[0]! ^= 0x80
    expect(() => sealer.open(`${v}:${ivb.toString('base64')}:${ct}`)).toThrow(SealedValueError)
    expect(() => sealer.open(`${v}:${iv}:${data.subarray(0, data.length - 1).toString('base64')}`)).toThrow(SealedValueError)
  })

  it('refuses a value sealed with another key', () => {
    const sealed = createSealer('another-secret-key-of-some-other-server').seal('foreign')
    expect(() => sealer.open(sealed)).toThrow(/tampered, or another key/)
  })

  it('binds the optional context', () => {
    const sealed = sealer.seal('row secret', 'accounts.secret:1')
    expect(sealer.open(sealed, 'accounts.secret:1')).toBe('row secret')
    expect(() => sealer.open(sealed, 'accounts.secret:2')).toThrow(SealedValueError)
    expect(() => sealer.open(sealed)).toThrow(SealedValueError)
  })

  it('refuses malformed values', () => {
    for (const bad of ['', 'plain', 'v1:', 'v1::', 'v2:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==', 'v1:AAAA:AAAAAAAAAAAAAAAAAAAAAA==', 'v1:AAAAAAAAAAAAAAAA:AAAA', 'v1:!!:??', 'v1:a:b:c']) {
      expect(() => sealer.open(bad)).toThrow(SealedValueError)
    }
    expect(isSealed('plain')).toBe(false)
  })

  it('refuses a short SECRET_KEY', () => {
    expect(() => createSealer('')).toThrow(RangeError)
    expect(() => createSealer('short')).toThrow(RangeError)
  })
})
