/**
 * Where each page was opened from, so a form goes back there after a save or a cancel (issue 35: an account saved
 * from an asset's Accounts tab landed on the global Accounts list). The router reports every resolved navigation
 * (`trackOrigins`); the first arrival in a history entry records the page it came from, keyed by the entry, so
 * back and forward keep it and a reload forgets it (the form then goes where it always did).
 */
const MAX_ENTRIES = 200
const origins = new Map<string, string>()

interface Loc { href: string; pathname: string; state?: { key?: string; __TSR_key?: string } }
interface NavEvent { fromLocation?: Loc; toLocation: Loc; pathChanged: boolean }
interface Subscribable { subscribe(type: 'onResolved', fn: (e: NavEvent) => void): () => void }

/** An href's path, without the `/ui` base, the search and a trailing slash. */
function pathOf(href: string): string {
  const end = href.search(/[?#]/)
  const path = (end < 0 ? href : href.slice(0, end)).replace(/^\/ui(?=\/|$)/, '')
  return path.length > 1 ? path.replace(/\/+$/, '') : path || '/'
}

const entryKey = (l: Loc | undefined) => l?.state?.__TSR_key ?? l?.state?.key

export function recordOrigin(e: NavEvent): void {
  const key = entryKey(e.toLocation)
  if (!key || !e.fromLocation || !e.pathChanged || origins.has(key)) return
  origins.set(key, e.fromLocation.href)
  if (origins.size > MAX_ENTRIES) origins.delete(origins.keys().next().value!)
}

export function trackOrigins(router: Subscribable): () => void {
  return router.subscribe('onResolved', recordOrigin)
}

/** The href the history entry `state` was opened from, if known. */
export function originOf(state: Loc['state']): string | undefined {
  const key = state?.__TSR_key ?? state?.key
  return key ? origins.get(key) : undefined
}

export interface FormExit {
  /** where to go: the origin's href, or the form's own default path */
  href?: string
  /** whether the destination is the resource's list (its notice then offers no "Back to the list") */
  toList: boolean
}

/** An object's page (its last segment an id: a UUID or a number), as opposed to a list or another form. */
const OBJECT_PAGE = /\/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i

/**
 * Where a form goes when it is done. A form opened from another object's page (an asset's Accounts tab) goes back
 * there; opened from its own resource's pages, from a list (where the new object is best seen in its own list,
 * newest first) or from nowhere known, it keeps its default (`fallback`).
 */
export function formExit(origin: string | undefined, listPath: string, fallback: 'list' | 'detail'): FormExit {
  if (origin === undefined) return { toList: fallback === 'list' }
  const path = pathOf(origin)
  const own = path === listPath || path.startsWith(`${listPath}/`)
  if (own || !OBJECT_PAGE.test(path)) return { toList: fallback === 'list' }
  return { href: origin.replace(/^\/ui(?=\/)/, ''), toList: false }
}
