/** Why a confirmation could not be done, in words. */
import { t } from '@lingui/core/macro'
import type { ConfirmFailure } from '../../../machines/confirm/confirm.types.ts'
import { describeError } from '../common/errors.ts'

export function confirmFailureText(failure: ConfirmFailure): string {
  switch (failure.kind) {
    case 'check_failed':
    case 'auth_mfa_error':
      return describeError(failure.error)
    case 'no_enabled_method':
      return t`No verification method is available for your account. Set up MFA in your profile.`
    default:
      return failure satisfies never
  }
}
