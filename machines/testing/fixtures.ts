/** Test fixtures shared by the machine tests. */
import type { Org, UserProfile } from '../view-org/view-org.types.ts'

export const ORG_DEFAULT: Org = { id: '00000000-0000-0000-0000-000000000002', name: 'DEFAULT', is_default: true, is_root: false }
export const ORG_A: Org = { id: 'aaaaaaaa-0000-0000-0000-00000000000a', name: 'Org A', is_default: false, is_root: false }
export const ORG_B: Org = { id: 'bbbbbbbb-0000-0000-0000-00000000000b', name: 'Org B', is_default: false, is_root: false }
export const ORG_ROOT: Org = { id: '00000000-0000-0000-0000-000000000000', name: 'GLOBAL', is_default: false, is_root: true }
/** An organization the user is not a member of. */
export const ORG_STRANGER: Org = { id: 'cccccccc-0000-0000-0000-00000000000c', name: 'Stranger', is_default: false, is_root: false }

/** An administrator: console orgs DEFAULT + A, audit org A, workbench DEFAULT, tickets and settings perms. */
export function adminProfile(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    id: 'u-admin',
    username: 'admin',
    name: 'Administrator',
    perms: ['tickets.view_ticket', 'settings.view_setting', 'users.view_user'],
    console_orgs: [ORG_DEFAULT, ORG_A],
    audit_orgs: [ORG_A],
    workbench_orgs: [ORG_DEFAULT],
    is_first_login: false,
    source: { value: 'local', label: 'Local' },
    ...overrides,
  }
}

/** An ordinary user: workbench only. */
export function userProfile(overrides: Partial<UserProfile> = {}): UserProfile {
  return adminProfile({ id: 'u-user', username: 'user', perms: [], console_orgs: [], audit_orgs: [], workbench_orgs: [ORG_B], ...overrides })
}
