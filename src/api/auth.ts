/**
 * Login-page endpoints (docs/login.md): public settings before login, the password step and the MFA step.
 * Everything the page needs comes back parsed; every failure becomes an `AuthError` with a stable `code`.
 */
import Cookies from 'js-cookie'
import { http, toApiError } from './client.ts'
import { encryptSecret, InvalidPublicKeyError, MissingPublicKeyError } from './crypto.ts'

export const OPEN_SETTINGS_URL = '/api/v1/settings/public/open/'
export const LOGIN_URL = '/api/v1/authentication/login/'
export const LOGIN_MFA_URL = '/api/v1/authentication/login/mfa/'
export const PUBLIC_KEY_COOKIE = 'jms_public_key'

/**
 * A normalised failure: HTTP status (0 when there was no answer), a code, and the text to show ('' only for
 * the key errors found before sending). Codes: the server's own (invalid_credentials, blocked, csrf_failed, …),
 * else network_error, timeout, missing_public_key, invalid_public_key, bad_response or http_<status>.
 */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'AuthError'
  }
}

export interface LoginBranding {
  title: string
  logo: string
  favicon: string
  loginImage: string
}

/** A single sign-on button of the login page: the server's URL that starts it. */
export interface LoginMethod {
  name: string
  title: string
  url: string
}

export interface OpenSettings {
  xpackEnabled: boolean
  branding: LoginBranding
  /** enabled single sign-on methods (`LOGIN_METHODS`, ours) */
  methods: LoginMethod[]
}

export type LoginOutcome =
  | { kind: 'done'; next: string }
  | { kind: 'mfa'; methods: string[] }
  /** a login ACL holds the login for a reviewer (docs/tickets.md): poll `loginConfirmStatus` */
  | { kind: 'confirm'; reviewers: string[] }

export const LOGIN_CONFIRM_URL = '/api/v1/authentication/login-confirm-ticket/status/'

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/**
 * Turns anything thrown while calling the server into an `AuthError`: the client's `toApiError` does the
 * reading (server text, else the generic translated message); the code is the body's `code`, else
 * `network_error` / `timeout` / `http_<status>`. A missing or broken public key never reaches the network.
 */
export async function toAuthError(error: unknown): Promise<AuthError> {
  if (error instanceof AuthError) return error
  if (error instanceof MissingPublicKeyError) return new AuthError(0, 'missing_public_key', '')
  if (error instanceof InvalidPublicKeyError) return new AuthError(0, 'invalid_public_key', '')
  const api = await toApiError(error)
  const fallback = api.kind === 'network' ? 'network_error' : api.kind === 'timeout' ? 'timeout' : `http_${api.status}`
  return new AuthError(api.status, api.code || fallback, api.message)
}

async function call<T>(run: () => Promise<unknown>, parse: (body: unknown) => T | undefined): Promise<T> {
  let body: unknown
  try {
    body = await run()
  } catch (e) {
    throw await toAuthError(e)
  }
  const parsed = parse(body)
  if (parsed === undefined) throw new AuthError(200, 'bad_response', '')
  return parsed
}

/** Parses `GET /api/v1/settings/public/open/`; missing keys become ''. */
export function parseOpenSettings(body: unknown): OpenSettings | undefined {
  if (!isObject(body)) return undefined
  const face = isObject(body.INTERFACE) ? body.INTERFACE : {}
  return {
    xpackEnabled: body.XPACK_ENABLED === true,
    branding: {
      title: str(face.login_title),
      logo: str(face.logo_logout),
      favicon: str(face.favicon),
      loginImage: str(face.login_image),
    },
    methods: (Array.isArray(body.LOGIN_METHODS) ? body.LOGIN_METHODS : [])
      .filter((m): m is Json => isObject(m) && typeof m.url === 'string' && m.url.startsWith('/') && !m.url.startsWith('//'))
      .map((m) => ({ name: str(m.name), title: str(m.title), url: str(m.url) })),
  }
}

/** Parses the answer of the password or the MFA step. */
export function parseLoginAnswer(body: unknown): LoginOutcome | undefined {
  if (!isObject(body)) return undefined
  if (body.mfa_required === true) {
    const methods = Array.isArray(body.methods) ? body.methods.filter((m): m is string => typeof m === 'string') : []
    return { kind: 'mfa', methods: methods.length ? methods : ['otp'] }
  }
  if (body.ok === true) return { kind: 'done', next: str(body.next) || '/ui/' }
  if (body.confirm_required === true || body.state === 'pending') {
    return { kind: 'confirm', reviewers: Array.isArray(body.reviewers) ? body.reviewers.filter((r): r is string => typeof r === 'string') : [] }
  }
  return undefined
}

/** The held login's state: still waiting (`confirm`), done, or the second factor; a rejection throws. */
export function loginConfirmStatus(): Promise<LoginOutcome> {
  return call(() => http.get(LOGIN_CONFIRM_URL).json(), parseLoginAnswer)
}

/** Gives up waiting: the server closes the ticket. */
export async function cancelLoginConfirm(): Promise<void> {
  try {
    await http.delete(LOGIN_CONFIRM_URL)
  } catch (e) {
    throw await toAuthError(e)
  }
}

export function fetchOpenSettings(): Promise<OpenSettings> {
  return call(() => http.get(OPEN_SETTINGS_URL).json(), parseOpenSettings)
}

export interface Credentials {
  username: string
  password: string
  /** the login page's `?next=`, passed through; the server keeps only same-site paths */
  next?: string
}

/**
 * Step one. The password is encrypted with the session's public key (contract §6); without the key cookie
 * nothing is sent and the call fails with `missing_public_key`.
 */
export function login({ username, password, next }: Credentials): Promise<LoginOutcome> {
  return call(() => {
    const encrypted = encryptSecret(password, Cookies.get(PUBLIC_KEY_COOKIE))
    const json: Json = { username, password: encrypted }
    if (next) json.next = next
    return http.post(LOGIN_URL, { json }).json()
  }, parseLoginAnswer)
}

/** Step two: the one-time code. Only a final answer counts as success. */
export function loginMfa(code: string): Promise<{ kind: 'done'; next: string }> {
  return call(
    () => http.post(LOGIN_MFA_URL, { json: { code } }).json(),
    (body) => {
      const outcome = parseLoginAnswer(body)
      return outcome?.kind === 'done' ? outcome : undefined
    },
  )
}

export const PASSWORD_RESET_URL = '/api/v1/authentication/password/reset/'

export interface ResetInfo {
  username: string
  name: string
  /** the password rules of the security settings (keys SECURITY_PASSWORD_*) */
  rules: Record<string, unknown>
}

/** A refused reset: the server's text, and its field errors (`new_password`, `new_password_again`) when any. */
export class ResetError extends Error {
  constructor(message: string, readonly fields: Record<string, string>, readonly code = '') {
    super(message)
    this.name = 'ResetError'
  }
}

async function toResetError(e: unknown): Promise<ResetError> {
  const api = await toApiError(e)
  const fields: Record<string, string> = {}
  if (isObject(api.data)) {
    for (const k of ['new_password', 'new_password_again']) {
      const v = api.data[k]
      if (Array.isArray(v)) fields[k] = v.filter((x): x is string => typeof x === 'string').join(' ')
    }
  }
  return new ResetError(api.message, fields, api.code ?? '')
}

/** Who the reset link of `token` is for (refused when unknown or expired). */
export async function fetchResetInfo(token: string): Promise<ResetInfo> {
  try {
    const body = await http.get(PASSWORD_RESET_URL, { searchParams: { token } }).json()
    const b = isObject(body) ? body : {}
    return { username: str(b.username), name: str(b.name), rules: isObject(b.password_rules) ? b.password_rules : {} }
  } catch (e) {
    throw await toResetError(e)
  }
}

/** Sets the new password of the link's user (both values encrypted with the page's public key). */
export async function resetPassword(token: string, password: string, again: string): Promise<string> {
  const key = Cookies.get(PUBLIC_KEY_COOKIE)
  try {
    const body = await http.post(PASSWORD_RESET_URL, {
      json: { token, new_password: encryptSecret(password, key), new_password_again: encryptSecret(again, key) },
    }).json()
    return isObject(body) ? str(body.msg) : ''
  } catch (e) {
    throw await toResetError(e)
  }
}
