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

/**
 * Where a form goes when it is done. A form opened from its own resource's pages (list, detail) or from nowhere
 * known keeps its default (`fallback`); one opened from another page goes back there.
 */
export function formExit(origin: string | undefined, listPath: string, fallback: 'list' | 'detail'): FormExit {
  if (origin === undefined) return { toList: fallback === 'list' }
  const path = pathOf(origin)
  const own = path === listPath || path.startsWith(`${listPath}/`)
  if (own) return { toList: fallback === 'list' }
  return { href: origin.replace(/^\/ui(?=\/)/, ''), toList: false }
}
