/**
 * Client side of the secret-field encryption of contract §6 (JumpServer 3.2.x wire format):
 *
 *     <base64 RSA-PKCS#1-v1.5(keyText)>:<base64 AES-128-ECB-zero-padded(utf8(plain))>
 *
 * Byte-compatible with the reference console (lina `src/utils/crypto.js`), with its weaknesses fixed
 * (console-behaviour §6): the AES key text comes from `crypto.getRandomValues` (16 chars of [0-9a-z],
 * rejection-sampled) instead of `Math.random`, and a missing `jms_public_key` cookie is an error
 * (`MissingPublicKeyError`) instead of a silent plaintext fallback.
 *
 * Synchronous and WebCrypto-free: `crypto.subtle` is absent on plain-http origins and has neither
 * RSAES-PKCS1-v1_5 nor AES-ECB. RSA is done here with BigInt; AES with @noble/ciphers.
 * The wire format itself (ECB, zero padding, PKCS#1 v1.5) is fixed by the server and cannot be improved
 * from this side.
 */
import { ecb } from '@noble/ciphers/aes.js'

import { InvalidPublicKeyError, MissingPublicKeyError } from './cryptoErrors.ts'

export { InvalidPublicKeyError, MissingPublicKeyError }

const KEY_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'
const KEY_LENGTH = 16
/** Smallest modulus accepted; JumpServer 3.2 issues 1024-bit keys, later versions 2048. */
const MIN_MODULUS_BITS = 1024

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n)
  globalThis.crypto.getRandomValues(out)
  return out
}

/** 16 characters of [0-9a-z], uniform: bytes >= 252 (= 7 * 36) are rejected, so `b % 36` has no bias. */
export function randomKeyText(length = KEY_LENGTH): string {
  let text = ''
  while (text.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 252 && text.length < length) text += KEY_ALPHABET[b % 36]
    }
  }
  return text
}

// ---------------------------------------------------------------------------------------------- base64

function bytesToBase64(bytes: Uint8Array): string {
  let bin = ''
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return btoa(bin)
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64.replace(/\s+/g, ''))
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

// ---------------------------------------------------------------------------------------------- cookie

/**
 * Turns the `jms_public_key` cookie value into a PEM public key, or `undefined` when absent/empty.
 * Django quotes the value (base64 contains `/` and `=`), so every `"` is stripped; a percent-encoded
 * value (raw `document.cookie`) is decoded too, which is harmless since base64 never contains `%`.
 * Throws `InvalidPublicKeyError` when the value is not base64.
 */
export function readPublicKeyCookie(cookieValue: string | null | undefined): string | undefined {
  if (!cookieValue) return undefined
  let value = cookieValue
  if (value.includes('%')) {
    try {
      value = decodeURIComponent(value)
    } catch {
      throw new InvalidPublicKeyError('cookie is not valid percent-encoding')
    }
  }
  value = value.replace(/"/g, '').trim()
  if (!value) return undefined
  if (value.startsWith('-----BEGIN')) return value
  try {
    return atob(value.replace(/\s+/g, ''))
  } catch {
    throw new InvalidPublicKeyError('cookie is not base64')
  }
}

// ---------------------------------------------------------------------------------------------- DER / PEM

export interface RsaPublicKey {
  n: bigint
  e: bigint
  /** modulus length in bytes */
  k: number
}

/** Minimal DER reader: only definite lengths, which is all DER allows. */
class Der {
  pos = 0
  constructor(
    readonly buf: Uint8Array,
    readonly end = buf.length,
  ) {}

  /** Reads one TLV with the expected tag and returns its content as [start, end). */
  read(tag: number): [number, number] {
    const at = this.pos
    if (at + 2 > this.end || this.buf[at] !== tag) throw new InvalidPublicKeyError(`expected DER tag 0x${tag.toString(16)}`)
    let len = this.buf[at + 1]!
    let p = at + 2
    if (len & 0x80) {
      const count = len & 0x7f
      if (count < 1 || count > 4 || p + count > this.end) throw new InvalidPublicKeyError('bad DER length')
      len = 0
      for (let i = 0; i < count; i++) len = len * 256 + this.buf[p++]!
    }
    if (p + len > this.end) throw new InvalidPublicKeyError('truncated DER')
    this.pos = p + len
    return [p, p + len]
  }

  sub(tag: number): Der {
    const [s, e] = this.read(tag)
    const d = new Der(this.buf, e)
    d.pos = s
    return d
  }

  integer(): bigint {
    const [s, e] = this.read(0x02)
    if (s === e || (this.buf[s]! & 0x80) !== 0) throw new InvalidPublicKeyError('expected a positive INTEGER')
    return bytesToBigInt(this.buf.subarray(s, e))
  }
}

// OID 1.2.840.113549.1.1.1 (rsaEncryption)
const RSA_ENCRYPTION_OID = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]

function readRsaPublicKey(seq: Der): RsaPublicKey {
  const n = seq.integer()
  const e = seq.integer()
  const bits = n.toString(2).length
  if (bits < MIN_MODULUS_BITS) throw new InvalidPublicKeyError(`modulus of ${bits} bits is too small`)
  if (e < 3n || e % 2n === 0n || e >= n) throw new InvalidPublicKeyError('bad public exponent')
  return { n, e, k: Math.ceil(bits / 8) }
}

/** Parses a PEM public key: SubjectPublicKeyInfo ("PUBLIC KEY") or PKCS#1 ("RSA PUBLIC KEY"). */
export function parseRsaPublicKeyPem(pem: string): RsaPublicKey {
  const m = /-----BEGIN (RSA )?PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END \1PUBLIC KEY-----/.exec(pem)
  if (!m) throw new InvalidPublicKeyError('not a PEM public key')
  let der: Uint8Array
  try {
    der = base64ToBytes(m[2]!)
  } catch {
    throw new InvalidPublicKeyError('PEM body is not base64')
  }
  const top = new Der(der)
  if (m[1]) return readRsaPublicKey(top.sub(0x30))
  const spki = top.sub(0x30)
  const alg = spki.sub(0x30)
  const [os, oe] = alg.read(0x06)
  const oid = der.subarray(os, oe)
  if (oid.length !== RSA_ENCRYPTION_OID.length || RSA_ENCRYPTION_OID.some((b, i) => oid[i] !== b)) {
    throw new InvalidPublicKeyError('not an rsaEncryption key')
  }
  const bits = spki.sub(0x03)
  if (bits.buf[bits.pos] !== 0) throw new InvalidPublicKeyError('BIT STRING with unused bits')
  bits.pos++
  return readRsaPublicKey(bits.sub(0x30))
}

// ---------------------------------------------------------------------------------------------- RSA

function bytesToBigInt(bytes: Uint8Array): bigint {
  let hex = ''
  for (const b of bytes) hex += b.toString(16).padStart(2, '0')
  return hex ? BigInt('0x' + hex) : 0n
}

function bigIntToBytes(x: bigint, length: number): Uint8Array {
  const hex = x.toString(16).padStart(length * 2, '0')
  if (hex.length > length * 2) throw new RangeError('integer too large')
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n
  base %= mod
  while (exp > 0n) {
    if (exp & 1n) result = (result * base) % mod
    base = (base * base) % mod
    exp >>= 1n
  }
  return result
}

/** RSAES-PKCS1-v1_5 encryption (RFC 8017 §7.2.1): EM = 00 02 PS(nonzero random, >= 8) 00 M. */
export function rsaPkcs1v15Encrypt(key: RsaPublicKey, message: Uint8Array): Uint8Array {
  const { k } = key
  if (message.length > k - 11) throw new RangeError('message too long for the RSA modulus')
  const em = new Uint8Array(k)
  em[1] = 0x02
  const psEnd = k - message.length - 1
  let i = 2
  while (i < psEnd) {
    for (const b of randomBytes(psEnd - i + 16)) {
      if (b !== 0 && i < psEnd) em[i++] = b
    }
  }
  em[psEnd] = 0x00
  em.set(message, psEnd + 1)
  return bigIntToBytes(modPow(bytesToBigInt(em), key.e, key.n), k)
}

// ---------------------------------------------------------------------------------------------- AES

/** AES-ECB over the UTF-8 text zero-padded to a 16-byte multiple (no extra block when already aligned). */
function aesEcbZeroPad(keyText: string, plain: string): Uint8Array {
  const key = new TextEncoder().encode(keyText)
  const data = new TextEncoder().encode(plain)
  const padded = new Uint8Array(Math.ceil(data.length / 16) * 16)
  padded.set(data)
  return ecb(key, { disablePadding: true }).encrypt(padded)
}

// ---------------------------------------------------------------------------------------------- API

/**
 * Encrypts one secret value for the server (contract §6). `''` stays `''`.
 * @param publicKeyCookie the raw `jms_public_key` cookie value (quoted base64 of a PEM public key)
 * @throws MissingPublicKeyError when there is no key; InvalidPublicKeyError when the key is unusable
 */
export function encryptSecret(plain: string, publicKeyCookie: string | null | undefined): string {
  if (plain === '') return ''
  const pem = readPublicKeyCookie(publicKeyCookie)
  if (!pem) throw new MissingPublicKeyError()
  const key = parseRsaPublicKeyPem(pem)
  const keyText = randomKeyText()
  const rsa = rsaPkcs1v15Encrypt(key, new TextEncoder().encode(keyText))
  return `${bytesToBase64(rsa)}:${bytesToBase64(aesEcbZeroPad(keyText, plain))}`
}
