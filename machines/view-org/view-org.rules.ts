/**
 * The view and organization rules of spec §2.2 and §4.1 as pure functions. The router guards call them
 * synchronously; the startup and viewOrg machines are built on them.
 */
import {
  PERM_VIEW_SETTINGS,
  PERM_VIEW_TICKETS,
  SYSTEM_ORG,
  SYSTEM_ORG_ID,
  VIEW_NAMES,
  type Org,
  type OrgSelection,
  type UserProfile,
  type ViewName,
  type ViewRuleOptions,
} from './view-org.types.ts'

/** Where a user lands when the requested view is not allowed and the last-used one is not either. */
const FALLBACK_VIEWS: readonly ViewName[] = ['console', 'audit', 'workbench', 'tickets', 'settings']
/** Views the view switcher offers; only these are remembered as the last-used view. */
const SWITCHER_VIEWS: readonly ViewName[] = ['console', 'audit', 'workbench', 'tickets']

export function isViewName(value: unknown): value is ViewName {
  return typeof value === 'string' && (VIEW_NAMES as readonly string[]).includes(value)
}

/** The view named by a router path's first segment (`/audit/sessions/…` → audit); null for `/`, `/404`, `/ops/…`. */
export function viewFromPath(path: string): ViewName | null {
  const first = path.split(/[?#]/, 1)[0]?.split('/').find((segment) => segment !== '')
  return isViewName(first) ? first : null
}

export function isViewAllowed(view: ViewName, profile: UserProfile, options: ViewRuleOptions = {}): boolean {
  switch (view) {
    case 'console':
      return profile.console_orgs.length > 0
    case 'audit':
      return profile.audit_orgs.length > 0
    case 'workbench':
    case 'profile':
      return true
    case 'tickets':
      return profile.perms.includes(PERM_VIEW_TICKETS) && options.hasValidLicense !== false
    case 'settings':
      return profile.perms.includes(PERM_VIEW_SETTINGS)
    default:
      return view satisfies never
  }
}

/** Allowed views in menu order: console, audit, workbench, tickets, settings, profile. */
export function allowedViews(profile: UserProfile, options: ViewRuleOptions = {}): ViewName[] {
  return VIEW_NAMES.filter((view) => isViewAllowed(view, profile, options))
}

/**
 * The view to show: the requested one if allowed, else the last-used one if still allowed, else the first
 * allowed of console, audit, workbench, tickets, settings. Workbench is always allowed, so there is always one.
 */
export function chooseView(
  requested: ViewName | null | undefined,
  profile: UserProfile,
  lastView: string | null | undefined,
  options: ViewRuleOptions = {},
): ViewName {
  if (requested && isViewAllowed(requested, profile, options)) return requested
  if (isViewName(lastView) && isViewAllowed(lastView, profile, options)) return lastView
  return FALLBACK_VIEWS.find((view) => isViewAllowed(view, profile, options)) ?? 'workbench'
}

/** The last-used view worth remembering, or null for views outside the view switcher (settings, profile). */
export function rememberableView(view: ViewName): ViewName | null {
  return SWITCHER_VIEWS.includes(view) ? view : null
}

/** Organizations in use for a view: audit → audit orgs, workbench → workbench orgs, anything else → console orgs. */
export function orgsForView(view: ViewName, profile: UserProfile): readonly Org[] {
  if (view === 'audit') return profile.audit_orgs
  if (view === 'workbench') return profile.workbench_orgs
  return profile.console_orgs
}

/** The user has no organization in any view: start-up stops (`no_organizations`). */
export function hasAnyOrganization(profile: UserProfile): boolean {
  return profile.console_orgs.length + profile.audit_orgs.length + profile.workbench_orgs.length > 0
}

export function isSystemOrg(org: Org | null | undefined): boolean {
  return org?.id === SYSTEM_ORG_ID
}

/** The default organization of a list: the one flagged `is_default`, else the first, else null. */
export function defaultOrg(orgs: readonly Org[]): Org | null {
  return orgs.find((org) => org.is_default === true) ?? orgs[0] ?? null
}

/**
 * The organization to work in (outside the settings view): the current one when it is still in `usingOrgs`; when
 * the current one is the system organization, the previous one instead; otherwise the default one. The entry of
 * `usingOrgs` is returned, so a renamed organization shows its new name.
 */
export function chooseOrg(args: { current: Org | null | undefined; previous: Org | null | undefined; usingOrgs: readonly Org[] }): Org | null {
  const wanted = isSystemOrg(args.current) ? args.previous : args.current
  const kept = wanted ? args.usingOrgs.find((org) => org.id === wanted.id) : undefined
  return kept ?? defaultOrg(args.usingOrgs)
}

/** Changing the current organization remembers the old one, unless the old one is the system organization. */
function rememberPrevious(current: Org | null, next: Org | null, previous: Org | null): Org | null {
  return current && !isSystemOrg(current) && current.id !== next?.id ? current : previous
}

/**
 * The organization state for `view`, starting from the current and previous organizations (persisted ones at
 * start-up, the live ones afterwards). The settings view works in the system organization and keeps the
 * organization to return to as the previous one; leaving it goes back to that one.
 */
export function resolveOrgSelection(
  view: ViewName,
  profile: UserProfile,
  from: { currentOrg?: Org | null; previousOrg?: Org | null },
): OrgSelection {
  const usingOrgs = orgsForView(view, profile)
  const current = from.currentOrg ?? null
  const previous = from.previousOrg ?? null
  const workOrg = chooseOrg({ current, previous, usingOrgs })
  if (view === 'settings') return { usingOrgs, currentOrg: SYSTEM_ORG, previousOrg: workOrg }
  return { usingOrgs, currentOrg: workOrg, previousOrg: rememberPrevious(current, workOrg, previous) }
}

/** Switching to `org` inside the current view: null when it is not one of `usingOrgs` (the switch is refused). */
export function switchOrgSelection(selection: OrgSelection, org: Org): OrgSelection | null {
  const target = selection.usingOrgs.find((candidate) => candidate.id === org.id)
  if (!target) return null
  return { ...selection, currentOrg: target, previousOrg: rememberPrevious(selection.currentOrg, target, selection.previousOrg) }
}
