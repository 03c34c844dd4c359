/**
 * Selectors the shell components share: the current route, the signed-in user, the view and organization, and
 * the route-guard state the menus filter with. Selectors live at module scope so React re-renders only on change.
 */
import { useRouterState } from '@tanstack/react-router'
import { shallowEqual } from '@xstate/react'
import { useMemo } from 'react'
import { useAppSelector, useViewOrg } from '../app/AppProvider.tsx'
import type { AppSnapshot } from '../app/appMachine.ts'
import type { ViewOrgSnapshot } from '../app/AppProvider.tsx'
import type { RouteDef } from '../router/types.ts'

type MatchesState = { matches: { staticData?: { route?: RouteDef } }[] }
const selectRoute = (s: MatchesState) => s.matches[s.matches.length - 1]?.staticData?.route

export function useCurrentRoute(): RouteDef | undefined {
  return useRouterState({ select: selectRoute as never }) as RouteDef | undefined
}

const selectProfile = (s: AppSnapshot) => s.context.profile
const selectSettings = (s: AppSnapshot) => s.context.settings
const selectLicense = (s: AppSnapshot) => s.context.hasValidLicense
const selectGuard = (s: AppSnapshot) => ({ profile: s.context.profile!, settings: s.context.settings, hasValidLicense: s.context.hasValidLicense })

export const useProfile = () => useAppSelector(selectProfile)!
export const useSettings = () => useAppSelector(selectSettings)
export const useHasValidLicense = () => useAppSelector(selectLicense)
export const useGuardFacts = () => useAppSelector(selectGuard, shallowEqual)

const selectView = (s: ViewOrgSnapshot | undefined) => s?.context.view ?? null
const selectOrgs = (s: ViewOrgSnapshot | undefined) => ({
  usingOrgs: s?.context.usingOrgs ?? [],
  currentOrg: s?.context.currentOrg ?? null,
})

export const useCurrentView = () => useViewOrg(selectView)
export const useOrganizations = () => useViewOrg(selectOrgs, shallowEqual)

/** The permissions of the signed-in user in the current organization. */
export function usePerms(): ReadonlySet<string> {
  const perms = useProfile()?.perms
  return useMemo(() => new Set(perms ?? []), [perms])
}
