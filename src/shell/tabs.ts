/**
 * Visited pages shown as tabs above the page (spec 000 §2.3): added on navigation, closed one by one or all but
 * one; affixed tabs (each view's home page) stay. Each view has its own strip (issue 35: the strip mixed views), at
 * most `MAX_TABS` long: the page visited least recently goes first. Error pages get no tab.
 */
import type { MessageDescriptor } from '@lingui/core'

export interface VisitedTab {
  /** Router href (path + search) of the page's latest visit; its path is the tab's identity (`tabKey`). */
  href: string
  /** Route name, for pages that open the same route with other parameters. */
  name: string
  title: MessageDescriptor
  affix: boolean
  /** The view whose strip shows it (console, audit, …); tabs without one share a strip. */
  view?: string | null
  /** When it was last visited, as a sequence number: the least recent goes first past `MAX_TABS`. */
  seen?: number
}

/** Tabs per view. */
export const MAX_TABS = 10

/** Routes that are no page to come back to (the 404 page) get no tab. */
export const UNTABBED_ROUTES: ReadonlySet<string> = new Set(['NotFound'])

const viewOf = (t: VisitedTab) => t.view ?? null
const sameView = (a: VisitedTab, b: VisitedTab) => viewOf(a) === viewOf(b)
const lastSeen = (tabs: readonly VisitedTab[]) => tabs.reduce((m, t) => Math.max(m, t.seen ?? 0), 0)

/** The tabs of one view's strip. */
export function tabsOfView(tabs: readonly VisitedTab[], view: string | null | undefined): VisitedTab[] {
  return tabs.filter((t) => viewOf(t) === (view ?? null))
}

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
  const seen = lastSeen(tabs) + 1
  const at = tabs.findIndex((t) => samePage(t.href, tab.href))
  if (at >= 0) return tabs.map((t, i) => (i === at ? { ...tab, affix: t.affix || tab.affix, seen } : t))
  const next = [...tabs, { ...tab, seen }]
  if (tabsOfView(next, tab.view).length <= MAX_TABS) return next
  const candidates = next.filter((t) => sameView(t, tab) && !t.affix && !samePage(t.href, tab.href))
  if (candidates.length === 0) return next
  const least = candidates.reduce((a, b) => ((b.seen ?? 0) < (a.seen ?? 0) ? b : a))
  return next.filter((t) => t !== least)
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
  return tabs.map((t, i) => (i === from ? { ...tab, seen: lastSeen(tabs) + 1 } : t))
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
  const closing = tabs.find((t) => samePage(t.href, href))
  if (!closing || closing.affix) return { tabs: [...tabs], goTo: null }
  const next = tabs.filter((t) => t !== closing)
  if (!samePage(href, activeHref)) return { tabs: next, goTo: null }
  const strip = tabsOfView(tabs, closing.view)
  const at = strip.indexOf(closing)
  const rest = strip.filter((t) => t !== closing)
  const neighbour = rest[Math.min(at, rest.length - 1)] ?? rest[at - 1]
  return { tabs: next, goTo: neighbour?.href ?? '/' }
}

/** Keeps the affixed tabs and `href` in `href`'s strip; other views' strips stay as they are. */
export function closeOtherTabs(tabs: readonly VisitedTab[], href: string): VisitedTab[] {
  const kept = tabs.find((t) => samePage(t.href, href))
  return tabs.filter((t) => t.affix || samePage(t.href, href) || (kept !== undefined && !sameView(t, kept)))
}

/** Keeps the affixed tabs of the view's strip (of every strip when no view is given). */
export function closeAllTabs(tabs: readonly VisitedTab[], view?: string | null): VisitedTab[] {
  return tabs.filter((t) => t.affix || (view !== undefined && viewOf(t) !== (view ?? null)))
}

/**
 * The view's home page is its strip's one affixed tab: put first in the strip when missing; other pages of the
 * strip that were homes become closable. Other views' strips keep theirs.
 */
export function withAffix(tabs: readonly VisitedTab[], tab: VisitedTab): VisitedTab[] {
  const marked = tabs.map((t) => (sameView(t, tab) ? { ...t, affix: samePage(t.href, tab.href) } : t))
  if (marked.some((t) => t.affix && sameView(t, tab))) return marked
  const first = marked.findIndex((t) => sameView(t, tab))
  const home = { ...tab, affix: true }
  return first < 0 ? [...marked, home] : [...marked.slice(0, first), home, ...marked.slice(first)]
}

export const TABS_STORAGE_KEY = 'visitedTabs'

/** Tabs survive a reload of the browser tab (sessionStorage), as hrefs and route names. */
export function saveTabs(storage: Pick<Storage, 'setItem'>, tabs: readonly VisitedTab[]): void {
  storage.setItem(TABS_STORAGE_KEY, JSON.stringify(tabs.map((t) => ({ href: t.href, name: t.name, affix: t.affix, view: t.view ?? null }))))
}

export function loadTabs(storage: Pick<Storage, 'getItem'>, titleOf: (name: string) => VisitedTab['title'] | undefined): VisitedTab[] {
  try {
    const raw = JSON.parse(storage.getItem(TABS_STORAGE_KEY) ?? '[]') as { href?: unknown; name?: unknown; affix?: unknown; view?: unknown }[]
    return raw.flatMap((t): VisitedTab[] => {
      if (typeof t.href !== 'string' || typeof t.name !== 'string' || UNTABBED_ROUTES.has(t.name)) return []
      const title = titleOf(t.name)
      return title ? [{ href: t.href, name: t.name, title, affix: t.affix === true, view: typeof t.view === 'string' ? t.view : null }] : []
    }).reduce<VisitedTab[]>((list, t) => addTab(list, t), [])
  } catch {
    return []
  }
}
