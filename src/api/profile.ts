import Cookies from 'js-cookie'
import type { Org, UserProfile } from '../../machines/index.ts'
import { ApiError, http, PROFILE_URL, request, silent } from './client.ts'
import { parseOrg } from './orgs.ts'

/** The signed-in user (contract §4.2), normalised: orgs and perms are always arrays. */
export interface Profile extends UserProfile {
  name: string
  email: string
  phone: string
  is_first_login: boolean
  need_update_password: boolean
  is_otp_secret_key_bound: boolean
  mfa_force_enabled: boolean
  mfa_level: number
  source: { value: string; label?: string }
  date_password_last_updated: string | null
  system_roles: { id: string; display_name?: string }[]
  console_orgs: Org[]
  audit_orgs: Org[]
  workbench_orgs: Org[]
  perms: string[]
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const orgs = (v: unknown): Org[] => (Array.isArray(v) ? v.flatMap((o) => { try { return [parseOrg(o)] } catch { return [] } }) : [])
const choiceValue = (v: unknown): unknown => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v)

/** Normalises the profile; an empty answer is refused (spec 000 §7: "Verification failed, please Login again."). */
export function parseProfile(raw: unknown): Profile {
  const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null
  if (!o || typeof o.id !== 'string' || typeof o.username !== 'string') {
    throw new ApiError(401, raw, 'Verification failed, please Login again.')
  }
  const source = o.source && typeof o.source === 'object' ? (o.source as { value?: unknown; label?: unknown }) : { value: o.source }
  return {
    id: o.id,
    username: o.username,
    name: str(o.name),
    email: str(o.email),
    phone: str(o.phone),
    is_first_login: o.is_first_login === true,
    need_update_password: o.need_update_password === true,
    is_otp_secret_key_bound: o.is_otp_secret_key_bound === true,
    mfa_force_enabled: o.mfa_force_enabled === true,
    mfa_level: Number(choiceValue(o.mfa_level) ?? 0) || 0,
    source: { value: str(source.value) || 'local', label: str(source.label) || undefined },
    date_password_last_updated: typeof o.date_password_last_updated === 'string' ? o.date_password_last_updated : null,
    system_roles: Array.isArray(o.system_roles) ? (o.system_roles as { id: string; display_name?: string }[]).filter((r) => typeof r?.id === 'string') : [],
    console_orgs: orgs(o.console_orgs),
    audit_orgs: orgs(o.audit_orgs),
    workbench_orgs: orgs(o.workbench_orgs),
    perms: Array.isArray(o.perms) ? o.perms.filter((p): p is string => typeof p === 'string') : [],
  }
}

/** The profile in the organization of the request (its `perms` are per organization). Quiet: the shell decides. */
export async function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  return parseProfile(await request('get', PROFILE_URL, silent({ signal })))
}

export interface ProfilePatch {
  name?: string
  email?: string
  phone?: string
  is_first_login?: boolean
}

/** PATCH the profile; field errors come back as an `ApiError` with `fieldErrors` (not toasted). */
export async function patchProfile(patch: ProfilePatch): Promise<Profile> {
  return parseProfile(await request('patch', PROFILE_URL, silent({ json: patch })))
}

const publicKey = () => Cookies.get('jms_public_key')

/** Changes the password (all three values encrypted, contract §6). */
export async function changePassword(values: { old_password: string; new_password: string; new_password_again: string }): Promise<void> {
  const key = publicKey()
  // The cipher code loads when a password is changed, not with the first screen.
  const { encryptSecret } = await import('./crypto.ts')
  await request('put', `${PROFILE_URL}password/`, silent({
    json: {
      old_password: encryptSecret(values.old_password, key),
      new_password: encryptSecret(values.new_password, key),
      new_password_again: encryptSecret(values.new_password_again, key),
    },
  }))
}

export interface OtpSetup {
  secret: string
  otpauth_uri: string
}

/** A new OTP secret to bind (not active until `enableOtp` succeeds). */
export async function fetchOtpSetup(): Promise<OtpSetup> {
  const raw = await request<Record<string, unknown>>('get', `${PROFILE_URL}otp/setup/`, silent())
  return { secret: str(raw?.secret), otpauth_uri: str(raw?.otpauth_uri) }
}

export async function enableOtp(code: string): Promise<void> {
  await request('post', `${PROFILE_URL}otp/enable/`, silent({ json: { code } }))
}

/** Ends the server session (`GET /core/auth/logout/`; used when the session mark is missing, spec 000 §4.1). */
export async function endServerSession(): Promise<void> {
  await http.get('/core/auth/logout/', { context: { silent: true }, throwHttpErrors: false, redirect: 'manual' }).catch(() => undefined)
}

/** Unbinds the authenticator app with a current code (refused while MFA is forced). */
export async function disableOtp(code: string): Promise<void> {
  await request('post', `${PROFILE_URL}otp/disable/`, silent({ json: { code } }))
}

/** Sets, replaces (a new OpenSSH public key line) or removes (`''`) the user's SSH public key. */
export async function setPublicKey(publicKey: string): Promise<Record<string, unknown>> {
  return request<Record<string, unknown>>('patch', PROFILE_URL, silent({ json: { public_key: publicKey } }))
}

/** The whole profile document as the server answers it (the My profile page shows more than the shell keeps). */
export async function fetchProfileDocument(): Promise<Record<string, unknown>> {
  return request<Record<string, unknown>>('get', PROFILE_URL, silent())
}

export const ACCESS_KEYS_URL = '/api/v1/authentication/access-keys/'
export const TEMP_TOKENS_URL = '/api/v1/authentication/temp-tokens/'
export const PREFERENCE_URL = '/api/v1/users/preference/'

/** A new API key: `{id, secret}`; the secret is in this answer only. Needs a fresh MFA confirmation for MFA users. */
export async function createAccessKey(): Promise<{ id: string; secret: string }> {
  const raw = await request<Record<string, unknown>>('post', ACCESS_KEYS_URL, silent({ json: {} }))
  return { id: str(raw?.id), secret: str(raw?.secret) }
}

export async function setAccessKeyActive(id: string, active: boolean): Promise<void> {
  await request('patch', `${ACCESS_KEYS_URL}${encodeURIComponent(id)}/`, silent({ json: { is_active: active } }))
}

/** A new temporary password: its secret (shown once) and when it expires. */
export async function createTempPassword(): Promise<{ id: string; secret: string; date_expired: string }> {
  const raw = await request<Record<string, unknown>>('post', TEMP_TOKENS_URL, silent({ json: {} }))
  return { id: str(raw?.id), secret: str(raw?.secret), date_expired: str(raw?.date_expired) }
}

export type Preferences = Record<string, Record<string, unknown>>

export async function fetchPreferences(category: string): Promise<Preferences> {
  return request<Preferences>('get', `${PREFERENCE_URL}?category=${encodeURIComponent(category)}`, silent())
}

export async function patchPreferences(category: string, values: Preferences): Promise<Preferences> {
  return request<Preferences>('patch', `${PREFERENCE_URL}?category=${encodeURIComponent(category)}`, silent({ json: values }))
}
