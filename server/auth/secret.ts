/**
 * Server side of the secret-field encryption of contract §6 (JumpServer 3.2.x wire format):
 *
 *     <base64 RSA-PKCS#1-v1.5(keyText)>:<base64 AES-ECB(keyText zero-padded)(utf8(plain) zero-padded)>
 *
 * Node 20 refuses `privateDecrypt` with RSA_PKCS1_PADDING (CVE-2023-46809), so the RSA step runs with
 * RSA_NO_PADDING and the type-2 padding is checked here, without data-dependent early exits. Whatever
 * fails (padding, key text, AES, UTF-8), the same amount of work is done, and callers must answer the
 * client identically for every `reason` (the reasons are for logs only) so that no padding oracle exists.
 */
import { constants, createDecipheriv, createPrivateKey, generateKeyPair, type KeyObject, privateDecrypt, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'

const generateKeyPairAsync = promisify(generateKeyPair)

export interface SessionKeyPair {
  /** PKCS#1 "RSA PRIVATE KEY" PEM (as JumpServer stores under session key `jms_private_key`) */
  privateKeyPem: string
  /** SubjectPublicKeyInfo "PUBLIC KEY" PEM (what JumpServer sends) */
  publicKeyPem: string
  /** base64 of `publicKeyPem`: the value of the `jms_public_key` cookie and session key */
  publicKeyCookie: string
}

/** A fresh per-session RSA key pair (contract §6; JumpServer 3.2 uses 1024 bits, 3.10 uses 2048). */
export async function generateSessionKeyPair(bits = 2048): Promise<SessionKeyPair> {
  if (!Number.isInteger(bits) || bits < 1024 || bits > 8192) throw new RangeError(`unsupported RSA modulus size ${bits}`)
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: bits,
    publicExponent: 65537,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  })
  return { privateKeyPem: privateKey, publicKeyPem: publicKey, publicKeyCookie: Buffer.from(publicKey, 'utf8').toString('base64') }
}

export type DecryptFailure = 'format' | 'rsa' | 'aes' | 'no_key'
export type DecryptResult = { ok: true; value: string } | { ok: false; reason: DecryptFailure }

type PrivateKeyInput = string | KeyObject | null | undefined

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** 1 when a === b, else 0 (for small non-negative integers), without a branch. */
function ctEq(a: number, b: number): number {
  return ((a ^ b) - 1) >>> 31
}

/** mask ? a : b, without a branch (mask is 0 or 1). */
function ctSelect(mask: number, a: number, b: number): number {
  return b ^ ((a ^ b) & -mask)
}

/**
 * Checks an RSAES-PKCS1-v1_5 encoded message EM = 00 02 PS 00 M (PS >= 8 nonzero bytes) with a
 * full scan of EM whatever its content. Returns good = 1/0 and the index where M starts.
 */
export function checkPkcs1Type2(em: Uint8Array): { good: number; start: number } {
  let good = ctEq(em[0] ?? 1, 0) & ctEq(em[1] ?? 0, 2)
  let lookingForZero = 1
  let zeroIndex = 0
  for (let i = 2; i < em.length; i++) {
    const isZero = ctEq(em[i]!, 0)
    zeroIndex = ctSelect(lookingForZero & isZero, i, zeroIndex)
    lookingForZero &= isZero ^ 1
  }
  good &= lookingForZero ^ 1
  // PS occupies indices 2..zeroIndex-1: at least 8 bytes means zeroIndex >= 10
  good &= ((zeroIndex - 10) >>> 31) ^ 1
  return { good, start: zeroIndex + 1 }
}

function loadKey(key: PrivateKeyInput): { key: KeyObject; k: number } | undefined {
  if (!key) return undefined
  try {
    const obj = typeof key === 'string' ? createPrivateKey(key) : key
    const bits = obj.asymmetricKeyType === 'rsa' ? obj.asymmetricKeyDetails?.modulusLength : undefined
    return bits ? { key: obj, k: Math.ceil(bits / 8) } : undefined
  } catch {
    return undefined
  }
}

function decodeBase64(text: string, strict: boolean): Buffer | undefined {
  if (strict && !STRICT_BASE64.test(text)) return undefined
  return Buffer.from(text, 'base64')
}

/** AES key per JumpServer `AESCrypto`: key text truncated to 32 chars, UTF-8, zero-padded to a 16-multiple. */
function aesKeyFromText(keyText: string): Buffer | undefined {
  const bytes = Buffer.from([...keyText].slice(0, 32).join(''), 'utf8')
  const len = Math.ceil(bytes.length / 16) * 16
  if (len !== 16 && len !== 32) return undefined
  const key = Buffer.alloc(len)
  bytes.copy(key)
  return key
}

function aesEcbDecrypt(key: Buffer, data: Buffer): string | undefined {
  if (data.length === 0 || data.length % 16 !== 0) return undefined
  try {
    const decipher = createDecipheriv(key.length === 32 ? 'aes-256-ecb' : 'aes-128-ecb', key, null)
    decipher.setAutoPadding(false)
    const out = Buffer.concat([decipher.update(data), decipher.final()])
    let end = out.length
    while (end > 0 && out[end - 1] === 0) end--
    return utf8.decode(out.subarray(0, end))
  } catch {
    return undefined
  }
}

function decrypt(value: string, privateKey: PrivateKeyInput, strict: boolean): DecryptResult {
  if (typeof value !== 'string') return { ok: false, reason: 'format' }
  const parts = value.split(':')
  if (parts.length !== 2 || !parts[0] || !parts[1]) return { ok: false, reason: 'format' }
  const key = loadKey(privateKey)
  if (!key) return { ok: false, reason: 'no_key' }
  let cipher = decodeBase64(parts[0], strict)
  const data = decodeBase64(parts[1], strict)
  if (!cipher || !data) return { ok: false, reason: 'format' }
  // JumpServer fix-up: a cipher one byte short (leading zero lost by the JS encoder) is left-padded.
  if (cipher.length === key.k - 1) cipher = Buffer.concat([Buffer.alloc(1), cipher])
  if (cipher.length !== key.k) return { ok: false, reason: 'rsa' }

  let em: Buffer
  try {
    em = privateDecrypt({ key: key.key, padding: constants.RSA_NO_PADDING }, cipher)
  } catch {
    return { ok: false, reason: 'rsa' } // cipher >= modulus: public information, not an oracle
  }
  if (em.length < key.k) em = Buffer.concat([Buffer.alloc(key.k - em.length), em])
  const { good, start } = checkPkcs1Type2(em)
  // Bad padding continues with a random key text so that both paths do the same work.
  const message = good ? em.subarray(start) : randomBytes(16).toString('hex').slice(0, 16)
  let keyText: string | undefined
  try {
    keyText = typeof message === 'string' ? message : utf8.decode(message)
  } catch {
    keyText = undefined
  }
  const aesKey = keyText ? aesKeyFromText(keyText) : undefined
  const plain = aesEcbDecrypt(aesKey ?? Buffer.alloc(16), data)
  if (!good || !keyText) return { ok: false, reason: 'rsa' }
  if (!aesKey || plain === undefined) return { ok: false, reason: 'aes' }
  return { ok: true, value: plain }
}

/**
 * Decrypts a `<rsa>:<aes>` value with the session private key. Never throws. Base64 is read leniently
 * (like Python's `b64decode`). A value that is not in the hybrid format gives `{ ok: false, reason: 'format' }`.
 */
export function decryptSecret(value: string, privateKeyPem: PrivateKeyInput): DecryptResult {
  return decrypt(value, privateKeyPem, false)
}

/**
 * JumpServer `decrypt_password` semantics for "encrypted" serializer fields: not exactly two non-empty
 * `:`-separated parts → plain text; no private key in the session → plain text; any failure → the original
 * value. So plain values always pass through unchanged.
 */
export function decryptOrPlain(value: string, privateKeyPem: PrivateKeyInput): string {
  const r = decrypt(value, privateKeyPem, false)
  return r.ok ? r.value : value
}

/**
 * Strict variant for endpoints that require encryption (login): the value must be in the hybrid format
 * with canonical standard base64 and must decrypt; otherwise `{ ok: false }` (answer 400 "encrypted value
 * does not decrypt", the same for every reason).
 */
export function decryptRequired(value: string, privateKeyPem: PrivateKeyInput): DecryptResult {
  return decrypt(value, privateKeyPem, true)
}
