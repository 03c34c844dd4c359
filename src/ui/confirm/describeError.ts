/**
 * The text a dialog shows for a failed call: the client's `ApiError` already carries it (the server's own text,
 * else the translated generic one of spec 000 §8); a missing session key gets its own advice.
 */
import { t } from '@lingui/core/macro'
import { ApiError } from '../../api/client.ts'
import { InvalidPublicKeyError, MissingPublicKeyError } from '../../api/crypto.ts'

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message
  if (error instanceof MissingPublicKeyError || error instanceof InvalidPublicKeyError) {
    return t`This page has no usable encryption key. Reload the page and try again.`
  }
  return t`Something went wrong, please try again.`
}
