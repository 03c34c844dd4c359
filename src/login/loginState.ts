/**
 * The login page's two-step form as a pure reducer: what the user typed, which step is shown, the notice
 * above the form and where focus goes next. Side effects (HTTP, navigation) live in `useLoginFlow`.
 */

export type Step = 'password' | 'mfa' | 'confirm'
export type InputName = 'username' | 'password' | 'code'

/**
 * What the alert above the form says. `text` is already translated (the server's message, or the API
 * client's generic one); when it is empty the page shows its own translated text for `kind`.
 */
export interface Notice {
  kind: 'server' | 'reload' | 'network' | 'failed' | 'mfaFormat' | 'ssoFailed' | 'ssoDenied' | 'ssoInactive' | 'ssoDisabled'
  text: string
}

export interface LoginState {
  step: Step
  username: string
  password: string
  code: string
  /** fields left empty at the last submit */
  missing: { username: boolean; password: boolean }
  busy: boolean
  /** the server accepted the login and the page is navigating away */
  leaving: boolean
  notice: Notice | null
  /** the input to focus; `focusSeq` changes every time focus should move, even to the same input */
  focus: InputName
  focusSeq: number
  /** the reviewers a held login waits for (step `confirm`) */
  reviewers: string[]
}

/** What a failed call reports (the shape of `AuthError` in src/api/auth.ts). */
export interface Failure {
  status: number
  code: string
  message: string
}

export type LoginAction =
  | { type: 'edit'; field: InputName; value: string }
  | { type: 'submit' }
  | { type: 'mfaRequired' }
  | { type: 'confirmRequired'; reviewers: string[] }
  | { type: 'done' }
  | { type: 'failed'; failure: Failure }
  | { type: 'back' }

export const initialLoginState: LoginState = {
  step: 'password',
  username: '',
  password: '',
  code: '',
  missing: { username: false, password: false },
  busy: false,
  leaving: false,
  notice: null,
  focus: 'username',
  focusSeq: 0,
  reviewers: [],
}

/** Codes after which only a fresh page (new session key, new CSRF token) can help. */
const RELOAD_CODES = new Set(['csrf_failed', 'missing_public_key', 'invalid_public_key', 'decrypt_failed'])
const NETWORK_CODES = new Set(['network_error', 'timeout'])

export const isOtpCode = (code: string): boolean => /^\d{6}$/.test(code.trim())

/** Why the current step cannot be sent as it is, or null when it can. */
export function blockedSubmit(state: LoginState): Pick<LoginState, 'missing' | 'notice' | 'focus'> | null {
  if (state.step === 'mfa') {
    return isOtpCode(state.code) ? null : { missing: state.missing, notice: { kind: 'mfaFormat', text: '' }, focus: 'code' }
  }
  const missing = { username: state.username.trim() === '', password: state.password === '' }
  if (!missing.username && !missing.password) return null
  return { missing, notice: null, focus: missing.username ? 'username' : 'password' }
}

/** A stale page gets the page's own advice to reload (the server's CSRF or key text means nothing to users). */
function noticeFor(f: Failure): Notice {
  if (RELOAD_CODES.has(f.code)) return { kind: 'reload', text: '' }
  if (NETWORK_CODES.has(f.code)) return { kind: 'network', text: f.message }
  return f.message ? { kind: 'server', text: f.message } : { kind: 'failed', text: '' }
}

const moveFocus = (s: LoginState, focus: InputName): Pick<LoginState, 'focus' | 'focusSeq'> => ({ focus, focusSeq: s.focusSeq + 1 })

function onFailure(s: LoginState, f: Failure): LoginState {
  const base = { ...s, busy: false, notice: noticeFor(f) }
  switch (f.code) {
    case 'invalid_credentials':
      return { ...base, password: '', ...moveFocus(s, 'password') }
    case 'mfa_invalid':
      return { ...base, code: '', ...moveFocus(s, 'code') }
    case 'mfa_expired':
      return { ...base, step: 'password', code: '', ...moveFocus(s, 'password') }
    case 'login_confirm_rejected':
    case 'login_confirm_closed':
    case 'login_confirm_none':
      return { ...base, step: 'password', password: '', reviewers: [], ...moveFocus(s, 'password') }
    default:
      return { ...base, ...moveFocus(s, s.step === 'mfa' ? 'code' : 'password') }
  }
}

export function loginReducer(s: LoginState, a: LoginAction): LoginState {
  switch (a.type) {
    case 'edit': {
      if (s.busy) return s
      const missing = a.field === 'code' ? s.missing : { ...s.missing, [a.field]: false }
      return { ...s, [a.field]: a.value, missing }
    }
    case 'submit': {
      if (s.busy) return s
      const blocked = blockedSubmit(s)
      if (blocked) return { ...s, ...blocked, ...moveFocus(s, blocked.focus) }
      return { ...s, busy: true, notice: null, missing: { username: false, password: false } }
    }
    case 'confirmRequired':
      return { ...s, step: 'confirm', busy: false, notice: null, reviewers: a.reviewers }
    case 'mfaRequired':
      return { ...s, step: 'mfa', busy: false, code: '', notice: null, ...moveFocus(s, 'code') }
    case 'done':
      return { ...s, busy: true, leaving: true, notice: null }
    case 'failed':
      return onFailure(s, a.failure)
    case 'back':
      if (s.busy && s.step !== 'confirm') return s
      return { ...s, step: 'password', code: '', busy: false, reviewers: [], notice: null, ...moveFocus(s, 'password') }
    default:
      return a satisfies never
  }
}
