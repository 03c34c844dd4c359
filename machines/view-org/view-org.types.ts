/** Views, organizations and the slice of the user profile the view and organization rules read. */

export const VIEW_NAMES = ['console', 'audit', 'workbench', 'tickets', 'settings', 'profile'] as const
export type ViewName = (typeof VIEW_NAMES)[number]

/** An organization as the profile and `/api/v1/orgs/orgs/current/` return it. */
export interface Org {
  id: string
  name: string
  is_default?: boolean
  is_root?: boolean
}

/** The fields of `GET /api/v1/users/profile/` the machines read (contract §4.2). The API layer may pass more. */
export interface UserProfile {
  id: string
  username: string
  name?: string
  /** `app_label.codename` strings, valid in the current organization. */
  perms: readonly string[]
  console_orgs: readonly Org[]
  audit_orgs: readonly Org[]
  workbench_orgs: readonly Org[]
  is_first_login?: boolean
  system_roles?: readonly { id: string; display_name?: string }[]
  source?: { value: string; label?: string }
  date_password_last_updated?: string | null
}

export interface ViewRuleOptions {
  /**
   * License state (`XPACK_ENABLED && XPACK_LICENSE_IS_VALID`). The tickets route tree is license-only
   * (contract §3), so when this is `false` the tickets view is not offered. Omitted: not checked.
   */
  hasValidLicense?: boolean
}

/** What the organization rules decide for one view. */
export interface OrgSelection {
  /** Organizations of the view: console and tickets → console orgs, audit → audit, workbench → workbench. */
  usingOrgs: readonly Org[]
  /** The organization requests run in (`X-JMS-ORG`); null when the view has no organization at all. */
  currentOrg: Org | null
  /** The organization to return to from the system organization. */
  previousOrg: Org | null
}

/** What is remembered per username (localStorage `jms_current_org_<username>`, `PRE_ORG_<username>`, `PreView`). */
export interface PersistedViewOrg {
  currentOrg: Org | null
  previousOrg: Org | null
  /** Last view chosen in the view switcher (console, audit, workbench or tickets); settings/profile are not kept. */
  lastView: ViewName | null
}

/** Payload of the `persist` action. */
export interface PersistViewOrgPayload extends PersistedViewOrg {
  username: string
}

export const ROOT_ORG_ID = '00000000-0000-0000-0000-000000000000'
export const DEFAULT_ORG_ID = '00000000-0000-0000-0000-000000000002'
export const SYSTEM_ORG_ID = '00000000-0000-0000-0000-000000000004'
/** The settings view works in this organization (spec §3: fixed id ending in 4, name SystemSetting). */
export const SYSTEM_ORG: Org = Object.freeze({ id: SYSTEM_ORG_ID, name: 'SystemSetting', is_default: false, is_root: false })

export const PERM_VIEW_TICKETS = 'tickets.view_ticket'
export const PERM_VIEW_SETTINGS = 'settings.view_setting'
