/**
 * The text of a failure: the shared client's `ApiError` already carries it (the server's own words, else the
 * generic translated text of spec §8); anything else falls back to a generic text.
 */
import { t } from '@lingui/core/macro'
import { ApiError } from '../../api/client.ts'

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message
  if (error instanceof Error && error.message) return error.message
  return t`Request failed`
}
