/** Types of the confirm machine (spec §4.2, contract §2.7 and api §4.16). */

export type ConfirmType = 'relogin' | 'password' | 'mfa'

/** One MFA method of `GET /api/v1/authentication/confirm/` (`otp`, `sms`, `otp_radius`, `mfa_custom`). */
export interface ConfirmMethod {
  name: string
  display_name: string
  disabled: boolean
  placeholder?: string
}

export interface ConfirmInput {
  /** The protected URL: a successful GET means the session is already confirmed. */
  url: string
  /** SMS resend countdown; default 60 (spec §4.2). */
  smsCountdownSeconds?: number
}

/**
 * Result of the `check` actor. The API layer resolves `{ confirmed: false, confirmType }` when the protected
 * URL answers with an error carrying `code` (e.g. 400 `{"code": "mfa"}`), and rejects for any other failure.
 */
export type ConfirmCheckResult = { confirmed: true } | { confirmed: false; confirmType: string }

/** Result of `getConfirmMethods` (`content` is `''` for password and relogin). */
export interface ConfirmMethodsResult {
  confirm_type: ConfirmType
  content: readonly ConfirmMethod[] | ''
}

/** Input of `submitConfirm` (`POST /api/v1/authentication/confirm/`). */
export interface SubmitConfirmInput {
  confirmType: ConfirmType
  /** The MFA method; null for password and relogin (the field is omitted). */
  mfaType: string | null
  /** The code or password; `''` for the silent relogin. */
  secret: string
}

/** Problems shown in the dialog; the UI translates them (the raw `error` goes through the API error text). */
export type ConfirmError =
  | { kind: 'mfa_invalid_format' }
  | { kind: 'secret_required' }
  | { kind: 'submit_failed'; error: unknown }
  | { kind: 'sms_send_failed'; error: unknown }

/** Why the confirmation could not be done at all. */
export type ConfirmFailure =
  | { kind: 'check_failed'; error: unknown }
  /** `GET /api/v1/authentication/confirm/` failed (404: no method available) — the reference's AuthMFAError. */
  | { kind: 'auth_mfa_error'; error: unknown }
  /** MFA is required but every method is disabled for this user. */
  | { kind: 'no_enabled_method' }

export type ConfirmOutput =
  | { status: 'confirmed' }
  | { status: 'cancelled' }
  /** The UI navigates to `/core/auth/logout/?next=<current full path>`. */
  | { status: 'relogin'; error: unknown }
  | { status: 'failed'; failure: ConfirmFailure }

export type ConfirmEvent =
  | { type: 'SELECT_METHOD'; method: string }
  | { type: 'SEND_CODE' }
  | { type: 'SUBMIT'; code: string }
  | { type: 'RELOGIN' }
  | { type: 'CANCEL' }

export interface ConfirmContext {
  url: string
  /** The level the protected URL asked for (its error `code`). */
  requestedType: string | null
  /** The method the server offers (may be stronger than requested). */
  confirmType: ConfirmType | null
  methods: readonly ConfirmMethod[]
  /** Selected method name: an MFA method, or `password`. */
  method: string | null
  error: ConfirmError | null
  failure: ConfirmFailure | null
  /** Error of the silent relogin, kept for the "need re-login" dialog. */
  reloginError: unknown
  smsCountdownSeconds: number
  /** Seconds before the SMS code can be sent again; 0 = can send. */
  smsCountdown: number
}

export const OTP_CODE_LENGTH = 6
export const SMS_COUNTDOWN_SECONDS = 60
