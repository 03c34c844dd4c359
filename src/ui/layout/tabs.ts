/**
 * Visited pages shown as tabs above the page (spec 000 §2.3): added on navigation, closed one by one or all but
 * one; affixed tabs (each view's home page) stay.
 */
import type { MessageDescriptor } from '@lingui/core'

export interface VisitedTab {
  /** Router href (path + search), the tab's identity. */
  href: string
  /** Route name, for pages that open the same route with other parameters. */
  name: string
  title: MessageDescriptor
  affix: boolean
}

export const MAX_TABS = 20

/** Adds (or refreshes) a tab; the oldest unaffixed tab goes when there are too many. */
export function addTab(tabs: readonly VisitedTab[], tab: VisitedTab): VisitedTab[] {
  const at = tabs.findIndex((t) => t.href === tab.href)
  if (at >= 0) return tabs.map((t, i) => (i === at ? { ...tab, affix: t.affix || tab.affix } : t))
  const next = [...tabs, tab]
  if (next.length <= MAX_TABS) return next
  const drop = next.findIndex((t) => !t.affix && t.href !== tab.href)
  return drop < 0 ? next : next.filter((_, i) => i !== drop)
}

/** Closes a tab (affixed tabs stay) and says where to go when it was the active one. */
export function closeTab(tabs: readonly VisitedTab[], href: string, activeHref: string): { tabs: VisitedTab[]; goTo: string | null } {
  const at = tabs.findIndex((t) => t.href === href)
  if (at < 0 || tabs[at]!.affix) return { tabs: [...tabs], goTo: null }
  const next = tabs.filter((_, i) => i !== at)
  if (href !== activeHref) return { tabs: next, goTo: null }
  const neighbour = next[Math.min(at, next.length - 1)] ?? next[at - 1]
  return { tabs: next, goTo: neighbour?.href ?? '/' }
}

/** Keeps the affixed tabs and `href`. */
export function closeOtherTabs(tabs: readonly VisitedTab[], href: string): VisitedTab[] {
  return tabs.filter((t) => t.affix || t.href === href)
}

export function closeAllTabs(tabs: readonly VisitedTab[]): VisitedTab[] {
  return tabs.filter((t) => t.affix)
}

/** The current view's home page is the one affixed tab: put first when missing; other homes become closable. */
export function withAffix(tabs: readonly VisitedTab[], tab: VisitedTab): VisitedTab[] {
  const marked = tabs.map((t) => ({ ...t, affix: t.href === tab.href }))
  return marked.some((t) => t.affix) ? marked : [{ ...tab, affix: true }, ...marked]
}

export const TABS_STORAGE_KEY = 'visitedTabs'

/** Tabs survive a reload of the browser tab (sessionStorage), as hrefs and route names. */
export function saveTabs(storage: Pick<Storage, 'setItem'>, tabs: readonly VisitedTab[]): void {
  storage.setItem(TABS_STORAGE_KEY, JSON.stringify(tabs.map((t) => ({ href: t.href, name: t.name, affix: t.affix }))))
}

export function loadTabs(storage: Pick<Storage, 'getItem'>, titleOf: (name: string) => VisitedTab['title'] | undefined): VisitedTab[] {
  try {
    const raw = JSON.parse(storage.getItem(TABS_STORAGE_KEY) ?? '[]') as { href?: unknown; name?: unknown; affix?: unknown }[]
    return raw.flatMap((t) => {
      if (typeof t.href !== 'string' || typeof t.name !== 'string') return []
      const title = titleOf(t.name)
      return title ? [{ href: t.href, name: t.name, title, affix: t.affix === true }] : []
    })
  } catch {
    return []
  }
}
