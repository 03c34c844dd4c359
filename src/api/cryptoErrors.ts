/**
 * The errors of src/api/crypto.ts apart from the cipher code, so the error catalogue (src/ui/common/errors.ts) names
 * them without bringing the ciphers into the first screen.
 */
/** Thrown by `encryptSecret` when there is no public key: callers decide (never send the plain value silently). */
export class MissingPublicKeyError extends Error {
  readonly code = 'missing_public_key'
  constructor() {
    super('No jms_public_key cookie: secret values cannot be encrypted')
    this.name = 'MissingPublicKeyError'
  }
}

/** Thrown when the cookie is present but is not a usable RSA public key. */
export class InvalidPublicKeyError extends Error {
  readonly code = 'invalid_public_key'
  constructor(detail: string) {
    super(`Invalid RSA public key: ${detail}`)
    this.name = 'InvalidPublicKeyError'
  }
}
