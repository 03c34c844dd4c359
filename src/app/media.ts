/**
 * Media queries read from React: one `MediaQueryList` per query for the page's life, and one subscribe function
 * per query, so `useSyncExternalStore` neither builds a new list on each snapshot read (it reads several per
 * render and again as it commits) nor subscribes anew on each render.
 */
const lists = new Map<string, MediaQueryList | null>()
const subscribers = new Map<string, (onChange: () => void) => () => void>()

/** The query's list, or null where the browser has no `matchMedia` (tests' DOMs). */
export function mediaQueryList(query: string): MediaQueryList | null {
  let list = lists.get(query)
  if (list === undefined) {
    list = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query) : null
    lists.set(query, list)
  }
  return list
}

export function mediaMatches(query: string): boolean {
  return mediaQueryList(query)?.matches ?? false
}

/** A stable `subscribe` for `useSyncExternalStore`: calls `onChange` when the query's answer changes. */
export function subscribeMedia(query: string): (onChange: () => void) => () => void {
  let subscribe = subscribers.get(query)
  if (!subscribe) {
    subscribe = (onChange) => {
      const list = mediaQueryList(query)
      list?.addEventListener('change', onChange)
      return () => list?.removeEventListener('change', onChange)
    }
    subscribers.set(query, subscribe)
  }
  return subscribe
}
