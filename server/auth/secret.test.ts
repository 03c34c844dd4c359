import { execFileSync } from 'node:child_process'
import { constants, createPublicKey, publicEncrypt } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// The cross test: the console encoder against the server decoder (tests may import both layers).
import { encryptSecret } from '../../src/api/crypto.ts'
import { checkPkcs1Type2, decryptOrPlain, decryptRequired, decryptSecret, generateSessionKeyPair, type SessionKeyPair } from './secret.ts'

let dir: string
let k1024: SessionKeyPair
let k2048: SessionKeyPair
let other: SessionKeyPair

function openssl(args: string[]): Buffer {
  return execFileSync('openssl', args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
}

/** Builds a wire value with the OpenSSL CLI only, the way lina does (short base-36 key text). */
function opensslEncrypt(plain: string, keyText: string, pair: SessionKeyPair): string {
  writeFileSync(join(dir, 'pub.pem'), pair.publicKeyPem)
  writeFileSync(join(dir, 'key.txt'), keyText)
  const rsa = openssl(['pkeyutl', '-encrypt', '-pubin', '-inkey', 'pub.pem', '-pkeyopt', 'rsa_padding_mode:pkcs1', '-in', 'key.txt'])
  const keyBytes = Buffer.from(keyText, 'utf8')
  const aesKey = Buffer.alloc(keyBytes.length > 16 ? 32 : 16)
  keyBytes.copy(aesKey)
  const data = Buffer.from(plain, 'utf8')
  const padded = Buffer.alloc(Math.ceil(data.length / 16) * 16)
  data.copy(padded)
  writeFileSync(join(dir, 'data.bin'), padded)
  const cipherName = aesKey.length === 32 ? '-aes-256-ecb' : '-aes-128-ecb'
  const aes = openssl(['enc', cipherName, '-nopad', '-K', aesKey.toString('hex'), '-in', 'data.bin'])
  return `${rsa.toString('base64')}:${aes.toString('base64')}`
}

const samples = [
  'a',
  'P@ssw0rd!',
  '0123456789abcdef',
  '密码测试-パスワード',
  'key 🔑 with emoji 👩‍💻',
  'x'.repeat(4000) + '漢'.repeat(500),
  'with:colons:inside',
]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'secret-test-'))
  ;[k1024, k2048, other] = await Promise.all([generateSessionKeyPair(1024), generateSessionKeyPair(2048), generateSessionKeyPair(1024)])
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('generateSessionKeyPair', () => {
  it('returns PEMs and the base64 cookie value', () => {
    expect(k2048.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/)
    expect(k2048.privateKeyPem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/)
    expect(Buffer.from(k2048.publicKeyCookie, 'base64').toString()).toBe(k2048.publicKeyPem)
    expect(createPublicKey(k1024.publicKeyPem).asymmetricKeyDetails?.modulusLength).toBe(1024)
    expect(createPublicKey(k2048.publicKeyPem).asymmetricKeyDetails?.modulusLength).toBe(2048)
  })

  it('refuses weak sizes', async () => {
    await expect(generateSessionKeyPair(512)).rejects.toThrow(RangeError)
  })
})

describe('round trip with the console encoder (src/api/crypto.ts)', () => {
  for (const bits of [1024, 2048] as const) {
    it.each(samples)(`${bits}-bit %#`, (plain) => {
      const pair = bits === 1024 ? k1024 : k2048
      // Django sends the cookie quoted
      const wire = encryptSecret(plain, `"${pair.publicKeyCookie}"`)
      expect(decryptSecret(wire, pair.privateKeyPem)).toEqual({ ok: true, value: plain })
      expect(decryptRequired(wire, pair.privateKeyPem)).toEqual({ ok: true, value: plain })
      expect(decryptOrPlain(wire, pair.privateKeyPem)).toBe(plain)
    })
  }
})

describe('OpenSSL-made ciphertexts', () => {
  it.each([
    ['lina-style 11-char key', 'k3j5l2m9x0a'],
    ['16-char key', '0123456789abcdef'],
    ['20-char key (AES-256 after padding)', 'abcdefghij0123456789'],
  ])('%s', (_name, keyText) => {
    for (const pair of [k1024, k2048]) {
      for (const plain of ['hello', '0123456789abcdef', '密码🔑']) {
        expect(decryptRequired(opensslEncrypt(plain, keyText, pair), pair.privateKeyPem)).toEqual({ ok: true, value: plain })
      }
    }
  })

  it('accepts an RSA cipher one byte shorter than the modulus (leading zero lost)', () => {
    const keyText = 'shortcipher'
    let rsa: Buffer | undefined
    for (let i = 0; i < 5000 && !rsa; i++) {
      const c = publicEncrypt({ key: k1024.publicKeyPem, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(keyText))
      if (c[0] === 0) rsa = c.subarray(1)
    }
    expect(rsa?.length).toBe(127)
    const wire = opensslEncrypt('pass', keyText, k1024).split(':')[1]!
    expect(decryptSecret(`${rsa!.toString('base64')}:${wire}`, k1024.privateKeyPem)).toEqual({ ok: true, value: 'pass' })
  })
})

describe('failures never throw', () => {
  const garbage = [
    '',
    ':',
    'a:',
    ':b',
    'a:b:c',
    'plain',
    'not base64!:@@@@',
    'AAAA:AAAA',
    '\u0000:\u0000',
    `${'/'.repeat(172)}:AAAAAAAAAAAAAAAAAAAAAA==`, // cipher >= modulus
    `${Buffer.alloc(128, 1).toString('base64')}:${Buffer.alloc(16).toString('base64')}`,
    `${Buffer.alloc(300, 7).toString('base64')}:AAAA`,
    'x'.repeat(100_000) + ':' + 'y'.repeat(100_000),
  ]

  it.each(garbage.map((g, i) => [i, g] as const))('garbage #%i', (_i, value) => {
    for (const fn of [decryptSecret, decryptRequired]) {
      const r = fn(value, k1024.privateKeyPem)
      expect(r.ok).toBe(false)
    }
    expect(decryptOrPlain(value, k1024.privateKeyPem)).toBe(value)
  })

  it('tampered RSA part → rsa failure; tampered AES part → failure', () => {
    const plain = 'tamper me please'
    for (let i = 0; i < 20; i++) {
      const wire = encryptSecret(plain, k1024.publicKeyCookie)
      const [rsa, aes] = wire.split(':') as [string, string]
      const r1 = Buffer.from(rsa, 'base64')
      r1[5 + i]! ^= 0x40
      const res1 = decryptSecret(`${r1.toString('base64')}:${aes}`, k1024.privateKeyPem)
      expect(res1.ok && res1.value === plain).toBe(false)
      const a1 = Buffer.from(aes, 'base64')
      a1[i % 16]! ^= 0x01
      const res2 = decryptSecret(`${rsa}:${a1.toString('base64')}`, k1024.privateKeyPem)
      expect(res2.ok && res2.value === plain).toBe(false)
      const truncated = Buffer.from(aes, 'base64').subarray(0, 15).toString('base64')
      expect(decryptSecret(`${rsa}:${truncated}`, k1024.privateKeyPem)).toEqual({ ok: false, reason: 'aes' })
      expect(decryptOrPlain(`${r1.toString('base64')}:${aes}`, k1024.privateKeyPem)).toBe(`${r1.toString('base64')}:${aes}`)
    }
  })

  it('wrong key fails; lenient variant keeps the original', () => {
    const wire = encryptSecret('secret', k1024.publicKeyCookie)
    expect(decryptSecret(wire, other.privateKeyPem).ok).toBe(false)
    expect(decryptOrPlain(wire, other.privateKeyPem)).toBe(wire)
  })

  it('no key or an unusable key → no_key; lenient variant passes the value through', () => {
    const wire = encryptSecret('secret', k1024.publicKeyCookie)
    for (const key of [undefined, null, '', 'not a pem', k1024.publicKeyPem]) {
      expect(decryptSecret(wire, key)).toEqual({ ok: false, reason: 'no_key' })
      expect(decryptRequired(wire, key)).toEqual({ ok: false, reason: 'no_key' })
      expect(decryptOrPlain(wire, key)).toBe(wire)
    }
  })
})

describe('lenient vs strict', () => {
  it('plain values pass through decryptOrPlain and fail decryptRequired', () => {
    for (const plain of ['P@ssw0rd', 'user:pass', 'a:b:c', '']) {
      expect(decryptOrPlain(plain, k1024.privateKeyPem)).toBe(plain)
      expect(decryptOrPlain(plain, undefined)).toBe(plain)
      expect(decryptRequired(plain, k1024.privateKeyPem).ok).toBe(false)
    }
    expect(decryptRequired('plain', k1024.privateKeyPem)).toEqual({ ok: false, reason: 'format' })
  })

  it('only the lenient variant accepts non-canonical base64 (like Python b64decode)', () => {
    const wire = encryptSecret('hello', k1024.publicKeyCookie)
    const [rsa, aes] = wire.split(':') as [string, string]
    const wrapped = `${rsa.slice(0, 64)}\n${rsa.slice(64)}:${aes}`
    expect(decryptSecret(wrapped, k1024.privateKeyPem)).toEqual({ ok: true, value: 'hello' })
    expect(decryptRequired(wrapped, k1024.privateKeyPem)).toEqual({ ok: false, reason: 'format' })
  })
})

describe('checkPkcs1Type2', () => {
  const em = (bytes: number[]) => new Uint8Array(bytes)
  const ps = (n: number) => Array.from({ length: n }, (_, i) => (i % 255) + 1)
  it('accepts 00 02 PS(>=8) 00 M', () => {
    expect(checkPkcs1Type2(em([0, 2, ...ps(8), 0, 65, 66]))).toEqual({ good: 1, start: 11 })
    expect(checkPkcs1Type2(em([0, 2, ...ps(20), 0]))).toEqual({ good: 1, start: 23 })
  })
  it('rejects bad headers, short PS and a missing separator', () => {
    expect(checkPkcs1Type2(em([0, 1, ...ps(8), 0, 65])).good).toBe(0)
    expect(checkPkcs1Type2(em([1, 2, ...ps(8), 0, 65])).good).toBe(0)
    expect(checkPkcs1Type2(em([0, 2, ...ps(7), 0, 65, 66])).good).toBe(0)
    expect(checkPkcs1Type2(em([0, 2, ...ps(30)])).good).toBe(0)
    expect(checkPkcs1Type2(em([])).good).toBe(0)
  })
})
