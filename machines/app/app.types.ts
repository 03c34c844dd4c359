/**
 * Types of the root app machine. The machine is pure and knows the shapes it needs only (machines' own
 * `UserProfile`, `PublicSettings`); the app registers its richer types once with declaration
 * merging, as TanStack Router's `Register` does, so the snapshot the console reads is typed with them:
 *
 *     declare module '../../machines/app/app.types.ts' {
 *       interface AppRegister { profile: Profile; settings: PublicSettings; license: LicenseDetail }
 *     }
 */
import type { LoginReason, PublicSettings, StartupError } from '../startup/startup.types.ts'
import type { Org, UserProfile, ViewName } from '../view-org/view-org.types.ts'

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging (see above)
export interface AppRegister {}

type Registered<K extends string, Fallback> = AppRegister extends Record<K, infer T> ? T : Fallback

export type AppProfile = Registered<'profile', UserProfile>
export type AppSettings = Registered<'settings', PublicSettings>
/** The licence detail (xpack); the machine only stores it. */
export type AppLicense = Registered<'license', Readonly<Record<string, unknown>>>

export interface AppInput {
  /** Requested router path without the /ui base. */
  path: string
  /** Organization the server used for the start-up profile (the X-JMS-ORG cookie, else DEFAULT). */
  profileOrgId: string | null
}

export interface AppContext {
  path: string
  /** Organization the current profile (its perms) was read in. */
  profileOrgId: string | null
  /** Organization of the profile read under way. */
  targetOrgId: string | null
  settings: AppSettings
  hasValidLicense: boolean
  profile: AppProfile | null
  license: AppLicense | null
  ticketsCount: number
  /** Value of jms_session_expire when start-up passed. */
  sessionMark: string | null
  /** Start-up results the view/org child starts from. */
  initialView: ViewName | null
  lastView: ViewName | null
  currentOrg: Org | null
  previousOrg: Org | null
  failure: StartupError | null
  loginReason: LoginReason | null
}

export type AppEvent =
  | { type: 'SWITCH_VIEW'; view: ViewName }
  | { type: 'SWITCH_ORG'; org: Org }
  /** A successful non-profile answer (feeds the 30 s session refresh). */
  | { type: 'API_ACTIVITY'; url: string }
  /** Re-read the profile (after the profile was edited, or the organization changed). */
  | { type: 'RELOAD_PROFILE' }
  | { type: 'REFRESH_TICKETS' }
  /** From the children (see `childEvents`). */
  | { type: 'ORG_CHANGED'; org: Org | null }
  | { type: 'SESSION_EXPIRED' }
