/**
 * The one text of a failure, for every page and dialog: the shared client's `ApiError` already carries it (the
 * server's own words, else the translated generic text of spec 000 §8); a missing or unusable session key gets
 * its own advice; anything else (a programming error, a stray exception) the translated generic text — never an
 * untranslated technical message.
 */
import { t } from '@lingui/core/macro'
import { ApiError } from '../../api/client.ts'
import { InvalidPublicKeyError, MissingPublicKeyError } from '../../api/cryptoErrors.ts'

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message
  if (error instanceof MissingPublicKeyError || error instanceof InvalidPublicKeyError) {
    return t`This page has no usable encryption key. Reload the page and try again.`
  }
  return t`Something went wrong, please try again.`
}
