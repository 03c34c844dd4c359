import { useLingui } from '@lingui/react/macro'
import { useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { pageTitle } from '../app/branding.ts'
import type { RouteDef } from './types.ts'

type MatchesState = { matches: { staticData?: { route?: RouteDef } }[] }
const selectRoute = (s: MatchesState) => s.matches[s.matches.length - 1]?.staticData?.route

/** Keeps the document title at "route title - login title" (spec 000 §2.1), in the current language. */
export function PageTitle() {
  const { i18n } = useLingui()
  const route = useRouterState({ select: selectRoute as never }) as RouteDef | undefined
  useEffect(() => {
    if (route) document.title = pageTitle(i18n._(route.title))
  }, [route, i18n, i18n.locale])
  return null
}
