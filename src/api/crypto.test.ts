import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  encryptSecret,
  InvalidPublicKeyError,
  MissingPublicKeyError,
  parseRsaPublicKeyPem,
  randomKeyText,
  readPublicKeyCookie,
} from './crypto.ts'

let dir: string

function openssl(args: string[], input?: Buffer): Buffer {
  return execFileSync('openssl', args, { cwd: dir, input, stdio: ['pipe', 'pipe', 'pipe'] })
}

interface TestKey {
  keyFile: string
  spkiPem: string
  pkcs1Pem: string
  /** cookie as Django sends it: quoted base64 of the SPKI PEM */
  cookie: string
  bytes: number
}

function makeKey(bits: number): TestKey {
  const keyFile = join(dir, `key${bits}.pem`)
  openssl(['genrsa', '-out', keyFile, String(bits)])
  const spkiPem = openssl(['rsa', '-in', keyFile, '-pubout']).toString()
  const pkcs1Pem = openssl(['rsa', '-in', keyFile, '-RSAPublicKey_out']).toString()
  return { keyFile, spkiPem, pkcs1Pem, cookie: `"${Buffer.from(spkiPem).toString('base64')}"`, bytes: bits / 8 }
}

/** Decrypts `<rsa>:<aes>` with the OpenSSL CLI only (no code of ours on this path). */
function opensslDecrypt(value: string, key: TestKey): { keyText: string; plain: string } {
  const [rsaB64, aesB64, ...rest] = value.split(':')
  expect(rest).toEqual([])
  const rsa = Buffer.from(rsaB64!, 'base64')
  expect(rsa.length).toBe(key.bytes)
  writeFileSync(join(dir, 'k.bin'), rsa)
  // OpenSSL 3.2+ implicit rejection only changes the output for *invalid* padding; valid ciphertexts decrypt
  // normally, so the option (unknown to OpenSSL 3.0) is not needed here.
  const keyText = openssl(['pkeyutl', '-decrypt', '-inkey', key.keyFile, '-pkeyopt', 'rsa_padding_mode:pkcs1', '-in', 'k.bin']).toString('latin1')
  writeFileSync(join(dir, 'd.bin'), Buffer.from(aesB64!, 'base64'))
  const hexKey = Buffer.from(keyText, 'latin1').toString('hex')
  let data = openssl(['enc', '-d', '-aes-128-ecb', '-nopad', '-K', hexKey, '-in', 'd.bin'])
  let end = data.length
  while (end > 0 && data[end - 1] === 0) end--
  data = data.subarray(0, end)
  return { keyText, plain: new TextDecoder('utf-8', { fatal: true }).decode(data) }
}

const samples = [
  'a',
  'P@ssw0rd!',
  '0123456789abcdef', // exactly 16 bytes: no extra block
  '0123456789abcdef0123456789abcdef',
  '密码测试-パスワード', // CJK
  'key 🔑 with emoji 👩‍💻',
  'x'.repeat(5000) + ' long ' + '漢'.repeat(700),
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n',
  ':colon:in:value:',
]

let k1024: TestKey
let k2048: TestKey

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crypto-test-'))
  k1024 = makeKey(1024)
  k2048 = makeKey(2048)
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('encryptSecret → OpenSSL CLI decrypt', () => {
  it.each(samples)('2048-bit key round-trips %#', (plain) => {
    const { keyText, plain: out } = opensslDecrypt(encryptSecret(plain, k2048.cookie), k2048)
    expect(keyText).toMatch(/^[0-9a-z]{16}$/)
    expect(out).toBe(plain)
  })

  it.each(samples)('1024-bit key round-trips %#', (plain) => {
    expect(opensslDecrypt(encryptSecret(plain, k1024.cookie), k1024).plain).toBe(plain)
  })

  it('accepts a PKCS#1 "RSA PUBLIC KEY" PEM and an unquoted cookie', () => {
    const cookie = Buffer.from(k2048.pkcs1Pem).toString('base64')
    expect(opensslDecrypt(encryptSecret('pkcs1 key', cookie), k2048).plain).toBe('pkcs1 key')
  })

  it('accepts a percent-encoded cookie (raw document.cookie)', () => {
    const cookie = encodeURIComponent(k2048.cookie)
    expect(cookie).toContain('%')
    expect(opensslDecrypt(encryptSecret('pct', cookie), k2048).plain).toBe('pct')
  })

  it('pads with zeros to a 16-byte multiple and adds no block when already aligned', () => {
    const aesLen = (v: string) => Buffer.from(encryptSecret(v, k2048.cookie).split(':')[1]!, 'base64').length
    expect(aesLen('a')).toBe(16)
    expect(aesLen('0123456789abcdef')).toBe(16)
    expect(aesLen('0123456789abcdef0')).toBe(32)
    expect(aesLen('é'.repeat(8))).toBe(16) // 16 UTF-8 bytes
  })

  it('always emits a full-length RSA block, standard base64', () => {
    for (let i = 0; i < 40; i++) {
      const [rsa, aes] = encryptSecret('x', k1024.cookie).split(':')
      expect(rsa).toMatch(/^[A-Za-z0-9+/]+={0,2}$/)
      expect(aes).toMatch(/^[A-Za-z0-9+/]+={0,2}$/)
      expect(Buffer.from(rsa!, 'base64').length).toBe(128)
    }
  })

  it('is randomised: the same value encrypts differently each time', () => {
    expect(encryptSecret('same', k2048.cookie)).not.toBe(encryptSecret('same', k2048.cookie))
  })
})

describe('edge cases', () => {
  it('empty value → empty string, even without a key', () => {
    expect(encryptSecret('', undefined)).toBe('')
    expect(encryptSecret('', k2048.cookie)).toBe('')
  })

  it('missing key throws MissingPublicKeyError instead of sending plaintext', () => {
    for (const cookie of [undefined, null, '', '""']) {
      expect(() => encryptSecret('secret', cookie)).toThrow(MissingPublicKeyError)
    }
  })

  it('unusable keys throw InvalidPublicKeyError', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64')
    expect(() => encryptSecret('s', '"not base64 !!"')).toThrow(InvalidPublicKeyError)
    expect(() => encryptSecret('s', b64('hello'))).toThrow(InvalidPublicKeyError)
    expect(() => encryptSecret('s', b64('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----'))).toThrow(InvalidPublicKeyError)
    const truncated = k2048.spkiPem.replace(/\n[^\n]+\n-----END/, '\n-----END')
    expect(() => encryptSecret('s', b64(truncated))).toThrow(InvalidPublicKeyError)
    const ecPem = openssl(['ec', '-pubout'], openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout'])).toString()
    expect(() => encryptSecret('s', b64(ecPem))).toThrow(/rsaEncryption/)
    const small = join(dir, 'small.pem')
    openssl(['genrsa', '-out', small, '512'])
    expect(() => encryptSecret('s', b64(openssl(['rsa', '-in', small, '-pubout']).toString()))).toThrow(/too small/)
  })

  it('readPublicKeyCookie strips quotes and decodes to PEM', () => {
    expect(readPublicKeyCookie(k2048.cookie)).toBe(k2048.spkiPem)
    expect(readPublicKeyCookie(undefined)).toBeUndefined()
    expect(readPublicKeyCookie('""')).toBeUndefined()
  })

  it('parses SPKI and PKCS#1 PEMs to the same modulus', () => {
    const a = parseRsaPublicKeyPem(k2048.spkiPem)
    const b = parseRsaPublicKeyPem(k2048.pkcs1Pem)
    expect(a).toEqual(b)
    expect(a.e).toBe(65537n)
    expect(a.k).toBe(256)
    const modulus = openssl(['rsa', '-in', k2048.keyFile, '-noout', '-modulus']).toString()
    expect(BigInt('0x' + modulus.trim().replace('Modulus=', ''))).toBe(a.n)
  })
})

describe('AES key text', () => {
  it('is 16 chars of [0-9a-z], from getRandomValues, never Math.random', () => {
    const spy = vi.spyOn(Math, 'random')
    const counts = new Map<string, number>()
    const N = 3000
    for (let i = 0; i < N; i++) {
      const t = randomKeyText()
      expect(t).toMatch(/^[0-9a-z]{16}$/)
      for (const c of t) counts.set(c, (counts.get(c) ?? 0) + 1)
    }
    encryptSecret('x', k1024.cookie)
    expect(spy).not.toHaveBeenCalled()
    spy.mockRestore()
    // all 36 symbols appear with roughly uniform frequency (chi-square, 35 d.o.f.; p≈1e-6 bound ≈ 85)
    expect(counts.size).toBe(36)
    const expected = (N * 16) / 36
    let chi2 = 0
    for (const c of counts.values()) chi2 += (c - expected) ** 2 / expected
    expect(chi2).toBeLessThan(85)
  })
})
