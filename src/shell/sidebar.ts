/**
 * Sidebar open state (spec 000 §2.3): on wide screens it is remembered in the `sidebarStatus` cookie (1 open,
 * 0 closed; open by default); below 992 px it starts closed, opens over the page and closes after navigating.
 */
import Cookies from 'js-cookie'
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { mediaMatches, subscribeMedia } from '../app/media.ts'

export const SIDEBAR_COOKIE = 'sidebarStatus'
export const MOBILE_QUERY = '(max-width: 991.98px)'

export function readSidebarCookie(value: string | undefined): boolean {
  return value !== '0'
}

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(subscribeMedia(query), () => mediaMatches(query), () => false)
}

export function useSidebar() {
  const isMobile = useMediaQuery(MOBILE_QUERY)
  const [desktopOpen, setDesktopOpen] = useState(() => readSidebarCookie(Cookies.get(SIDEBAR_COOKIE)))
  const [mobileOpen, setMobileOpen] = useState(false)
  useEffect(() => {
    if (!isMobile) setMobileOpen(false)
  }, [isMobile])
  const open = isMobile ? mobileOpen : desktopOpen
  const setOpen = useCallback(
    (next: boolean) => {
      if (isMobile) setMobileOpen(next)
      else {
        setDesktopOpen(next)
        Cookies.set(SIDEBAR_COOKIE, next ? '1' : '0', { path: '/', sameSite: 'lax', expires: 365 })
      }
    },
    [isMobile],
  )
  return { isMobile, open, setOpen, toggle: () => setOpen(!open), closeOnMobile: () => isMobile && setMobileOpen(false) }
}
