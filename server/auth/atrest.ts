/**
 * Encryption of secrets at rest (account secrets, OTP seeds, settings passwords): AES-256-GCM under a key
 * derived with HKDF-SHA256 from the server's SECRET_KEY. Format: `v1:<b64 iv>:<b64 ciphertext+tag>`
 * (12-byte random IV, 16-byte tag). An optional context string (e.g. `accounts.secret:<id>`) is bound as
 * additional authenticated data, so a sealed value copied to another row does not open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16
const HKDF_SALT = 'bastion-console/at-rest'
const HKDF_INFO = 'aes-256-gcm v1'
const B64 = /^[A-Za-z0-9+/]*={0,2}$/
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Thrown by `open` for anything that is not a value sealed with this key (and context). */
export class SealedValueError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SealedValueError'
  }
}

export interface Sealer {
  seal(plain: string, context?: string): string
  /** @throws SealedValueError on a malformed, tampered or foreign value */
  open(sealed: string, context?: string): string
}

export function isSealed(value: string): boolean {
  return typeof value === 'string' && value.startsWith(`${VERSION}:`) && value.split(':').length === 3
}

export function createSealer(secretKey: string | Uint8Array): Sealer {
  const ikm = typeof secretKey === 'string' ? Buffer.from(secretKey, 'utf8') : Buffer.from(secretKey)
  if (ikm.length < 16) throw new RangeError('SECRET_KEY is too short (at least 16 bytes)')
  const key = Buffer.from(hkdfSync('sha256', ikm, HKDF_SALT, HKDF_INFO, 32))

  return {
    seal(plain: string, context = ''): string {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
      cipher.setAAD(Buffer.from(context, 'utf8'))
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()])
      return `${VERSION}:${iv.toString('base64')}:${ct.toString('base64')}`
    },

    open(sealed: string, context = ''): string {
      const parts = typeof sealed === 'string' ? sealed.split(':') : []
      if (parts.length !== 3 || parts[0] !== VERSION || !B64.test(parts[1]!) || !B64.test(parts[2]!)) {
        throw new SealedValueError('not a sealed value')
      }
      const iv = Buffer.from(parts[1]!, 'base64')
      const data = Buffer.from(parts[2]!, 'base64')
      if (iv.length !== IV_BYTES || data.length < TAG_BYTES) throw new SealedValueError('not a sealed value')
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
        decipher.setAAD(Buffer.from(context, 'utf8'))
        decipher.setAuthTag(data.subarray(data.length - TAG_BYTES))
        const out = Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()])
        return utf8.decode(out)
      } catch {
        throw new SealedValueError('sealed value does not authenticate (tampered, or another key)')
      }
    },
  }
}
