/**
 * Visited pages shown as tabs above the page (spec 000 §2.3): added on navigation, closed one by one or all but
 * one; affixed tabs (each view's home page) stay.
 */
import type { MessageDescriptor } from '@lingui/core'

export interface VisitedTab {
  /** Router href (path + search) of the page's latest visit; its path is the tab's identity (`tabKey`). */
  href: string
  /** Route name, for pages that open the same route with other parameters. */
  name: string
  title: MessageDescriptor
  affix: boolean
}

export const MAX_TABS = 20

/**
 * A tab stands for a page (route and path parameters), not for one state of it: sort, page, page size, search
 * and filters live in the search params, so they are left out (issue 17, defect 4: one tab per page).
 */
export function tabKey(href: string): string {
  const end = href.search(/[?#]/)
  const path = end < 0 ? href : href.slice(0, end)
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

const samePage = (a: string, b: string) => tabKey(a) === tabKey(b)

/** Adds a tab, or refreshes the page's tab in place (to its latest href); the oldest unaffixed tab goes when there are too many. */
export function addTab(tabs: readonly VisitedTab[], tab: VisitedTab): VisitedTab[] {
  const at = tabs.findIndex((t) => samePage(t.href, tab.href))
  if (at >= 0) return tabs.map((t, i) => (i === at ? { ...tab, affix: t.affix || tab.affix } : t))
  const next = [...tabs, tab]
  if (next.length <= MAX_TABS) return next
  const drop = next.findIndex((t) => !t.affix && !samePage(t.href, tab.href))
  return drop < 0 ? next : next.filter((_, i) => i !== drop)
}

/**
 * A navigation that replaced the history entry (a form's save going on to the list or the detail, a redirect)
 * replaces the page's tab: the page left is no longer in the history, so its tab closes (the create tab after
 * save), and the page reached takes its place unless it already has a tab.
 */
export function replaceTab(tabs: readonly VisitedTab[], fromHref: string, tab: VisitedTab): VisitedTab[] {
  const from = tabs.findIndex((t) => samePage(t.href, fromHref))
  if (from < 0 || tabs[from]!.affix || samePage(fromHref, tab.href)) return addTab(tabs, tab)
  if (tabs.some((t) => samePage(t.href, tab.href))) return addTab(tabs.filter((_, i) => i !== from), tab)
  return tabs.map((t, i) => (i === from ? tab : t))
}

/**
 * Where a scrolling bar of tabs should scroll so the item at `start` (width `size`) is fully seen, given the
 * current `scroll` offset and the bar's visible `width`; unchanged when it already is.
 */
export function scrollToShow(start: number, size: number, scroll: number, width: number): number {
  if (start < scroll) return Math.max(0, start)
  if (start + size > scroll + width) return Math.max(0, Math.min(start, start + size - width))
  return scroll
}

/** Whether a tab is the page at `href`. */
export function isTabOf(tab: VisitedTab, href: string): boolean {
  return samePage(tab.href, href)
}

/** Closes a tab (affixed tabs stay) and says where to go when it was the active one. */
export function closeTab(tabs: readonly VisitedTab[], href: string, activeHref: string): { tabs: VisitedTab[]; goTo: string | null } {
  const at = tabs.findIndex((t) => samePage(t.href, href))
  if (at < 0 || tabs[at]!.affix) return { tabs: [...tabs], goTo: null }
  const next = tabs.filter((_, i) => i !== at)
  if (!samePage(href, activeHref)) return { tabs: next, goTo: null }
  const neighbour = next[Math.min(at, next.length - 1)] ?? next[at - 1]
  return { tabs: next, goTo: neighbour?.href ?? '/' }
}

/** Keeps the affixed tabs and `href`. */
export function closeOtherTabs(tabs: readonly VisitedTab[], href: string): VisitedTab[] {
  return tabs.filter((t) => t.affix || samePage(t.href, href))
}

export function closeAllTabs(tabs: readonly VisitedTab[]): VisitedTab[] {
  return tabs.filter((t) => t.affix)
}

/** The current view's home page is the one affixed tab: put first when missing; other homes become closable. */
export function withAffix(tabs: readonly VisitedTab[], tab: VisitedTab): VisitedTab[] {
  const marked = tabs.map((t) => ({ ...t, affix: samePage(t.href, tab.href) }))
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
    return raw.flatMap((t): VisitedTab[] => {
      if (typeof t.href !== 'string' || typeof t.name !== 'string') return []
      const title = titleOf(t.name)
      return title ? [{ href: t.href, name: t.name, title, affix: t.affix === true }] : []
    }).reduce<VisitedTab[]>((list, t) => addTab(list, t), [])
  } catch {
    return []
  }
}
