/** Types of the start-up machine (spec §4.1, architecture "The actor system"). */
import type { OrgSelection, PersistedViewOrg, UserProfile, ViewName } from '../view-org/view-org.types.ts'

/** `GET /api/v1/settings/public/` (contract api §4.1); the keys the console reads, the rest passes through. */
export interface PublicSettings {
  XPACK_ENABLED?: boolean
  XPACK_LICENSE_IS_VALID?: boolean
  XPACK_LICENSE_INFO?: { corporation?: string }
  INTERFACE?: {
    login_title?: string
    favicon?: string
    logo_index?: string
    logo_logout?: string
    theme_info?: { colors?: Record<string, string> }
  }
  TICKETS_ENABLED?: boolean
  SECURITY_MFA_VERIFY_TTL?: number
  SECURITY_PASSWORD_EXPIRATION_TIME?: number
  SESSION_EXPIRE_AT_BROWSER_CLOSE?: boolean
  AUTH_TEMP_TOKEN?: boolean
  HELP_DOCUMENT_URL?: string
  HELP_SUPPORT_URL?: string
  [key: string]: unknown
}

export interface StartupInput {
  /** The requested router path, without the `/ui` base (e.g. `/console/users/users`, `/`). */
  path: string
}

/** Input of `buildRoutes`: what route filtering depends on (permissions, license, view). */
export interface BuildRoutesInput {
  profile: UserProfile
  publicSettings: PublicSettings
  view: ViewName
}

export type StartupError =
  | { kind: 'init_failed'; error: unknown }
  | { kind: 'public_settings_failed'; error: unknown }
  /** Cookie `jms_session_expire` missing: the server session was ended (`logout`) and the user must log in. */
  | { kind: 'no_session_mark' }
  | { kind: 'profile_failed'; error: unknown }
  /** The user has no organization in any view. */
  | { kind: 'no_organizations' }
  | { kind: 'routes_failed'; error: unknown }

/** Why the console sends the user to `/core/auth/login/` (100 ms after the failed call). */
export type LoginReason =
  | { kind: 'unauthorized'; status: number; during: 'public_settings' | 'profile' }
  /** The profile answer was empty ("Verification failed, please Login again."). */
  | { kind: 'profile_empty' }

export interface StartupReady {
  status: 'ready'
  publicSettings: PublicSettings
  /** `XPACK_ENABLED && XPACK_LICENSE_IS_VALID`. */
  hasValidLicense: boolean
  /** Value of `jms_session_expire` (`close` or `age`): input of the sessionMark machine. */
  sessionMark: string
  profile: UserProfile
  view: ViewName
  /** The persisted last view, for the viewOrg machine. */
  lastView: ViewName | null
  orgs: OrgSelection
  routes: unknown
  /** Where the router should go instead of the requested path (view not allowed, home, first login); null = stay. */
  redirectTo: string | null
}

export type StartupOutput =
  | StartupReady
  | { status: 'loginRequired'; reason: LoginReason }
  | { status: 'failed'; error: StartupError }

export interface StartupContext {
  path: string
  publicSettings: PublicSettings | null
  sessionMark: string | null
  profile: UserProfile | null
  persisted: Partial<PersistedViewOrg>
  view: ViewName | null
  orgs: OrgSelection | null
  routes: unknown
  redirectTo: string | null
  error: StartupError | null
  loginReason: LoginReason | null
}

export const LOGIN_REDIRECT_DELAY_MS = 100
export const FIRST_LOGIN_PATH = '/profile/improvement'
