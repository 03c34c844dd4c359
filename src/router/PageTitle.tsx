import { useLingui } from '@lingui/react/macro'
import { useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { pageTitle } from '../app/branding.ts'
import type { RouteDef } from './types.ts'

type MatchesState = { status: string; matches: { staticData?: { route?: RouteDef } }[] }
const selectRoute = (s: MatchesState) => s.matches[s.matches.length - 1]?.staticData?.route
const selectIdle = (s: MatchesState) => s.status === 'idle'

/**
 * Keeps the document title at "route title - login title" (spec 000 §2.1) in the current language, and, when a
 * page has loaded with nothing focused (a fresh load, or the focused element went away), moves focus to the
 * page's `main` so keyboard and screen-reader users start in the content.
 */
export function PageTitle() {
  const { i18n } = useLingui()
  const route = useRouterState({ select: selectRoute as never }) as RouteDef | undefined
  const idle = useRouterState({ select: selectIdle as never }) as boolean
  useEffect(() => {
    if (route) document.title = pageTitle(i18n._(route.title))
  }, [route, i18n, i18n.locale])
  useEffect(() => {
    if (!idle) return
    // After the frame that shows the page: focusing lays the page out at once, which the frame does anyway.
    let timer: ReturnType<typeof setTimeout> | undefined
    const id = requestAnimationFrame(() => (timer = setTimeout(() => {
      const active = document.activeElement
      if (active && active !== document.body) return
      document.querySelector<HTMLElement>('main[tabindex]')?.focus({ preventScroll: true })
    }, 0)))
    return () => {
      cancelAnimationFrame(id)
      clearTimeout(timer)
    }
  }, [idle, route])
  return null
}
