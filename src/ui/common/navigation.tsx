/**
 * Router access for generic pages that do not know the route tree's types: navigate to a path (relative to
 * the basepath) with search params, and render links. Thin wrappers over TanStack Router.
 */
import { Link as RouterLink, useNavigate, useRouter } from '@tanstack/react-router'
import { makeStyles, tokens } from '@fluentui/react-components'
import type { ReactNode } from 'react'
import { useCallback } from 'react'

export type SearchParams = Record<string, unknown>

export interface GoOptions {
  replace?: boolean
}

/** `go(path, search, { replace })`: path relative to the basepath, `:params` already filled. */
export function useGo(): (path: string, search?: SearchParams, options?: GoOptions) => void {
  const navigate = useNavigate()
  return useCallback(
    (path: string, search: SearchParams = {}, options: GoOptions = {}) => {
      void navigate({ to: path, search, replace: options.replace } as never)
    },
    [navigate],
  )
}

/** Absolute href (basepath included) of a path, for new-tab navigation. */
export function useHref(): (path: string, search?: SearchParams) => string {
  const router = useRouter()
  return useCallback((path: string, search: SearchParams = {}) => {
    const location = router.buildLocation({ to: path, search } as never)
    return location.publicHref || location.href
  }, [router])
}

/** Opens a route in a new browser tab. */
export function useOpenInNewTab(): (path: string, search?: SearchParams) => void {
  const href = useHref()
  return useCallback((path: string, search?: SearchParams) => {
    window.open(href(path, search), '_blank', 'noopener')
  }, [href])
}

const useStyles = makeStyles({
  link: {
    color: tokens.colorBrandForegroundLink,
    textDecorationLine: 'none',
    ':hover': { textDecorationLine: 'underline', color: tokens.colorBrandForegroundLinkHover },
    ':focus-visible': { outlineStyle: 'solid', outlineWidth: tokens.strokeWidthThick, outlineColor: tokens.colorStrokeFocus2 },
  },
})

export function RouteLink({ to, search, children, title }: { to: string; search?: SearchParams; children: ReactNode; title?: string }) {
  const styles = useStyles()
  return (
    <RouterLink to={to as never} search={(search ?? {}) as never} className={styles.link} title={title}>
      {children}
    </RouterLink>
  )
}

const INTENT_DELAY_MS = 50

/**
 * Hover/focus handlers that preload a route (guard, loader data, code chunk) like a router `Link` with
 * `preload="intent"`, for links rendered by other components (the menu's Fluent nav items).
 */
export function useIntentPreload(): (path: string) => { onMouseEnter: () => void; onMouseLeave: () => void; onFocus: () => void } {
  const router = useRouter()
  return useCallback((path: string) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const preload = () => {
      clearTimeout(timer)
      timer = setTimeout(() => void router.preloadRoute({ to: path as never }).catch(() => {}), INTENT_DELAY_MS)
    }
    return { onMouseEnter: preload, onFocus: preload, onMouseLeave: () => clearTimeout(timer) }
  }, [router])
}
