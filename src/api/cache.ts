/**
 * The console's answer cache: one entry per key (organization, URL, query), shared by route loaders (which
 * start a page's requests in parallel with its code chunk, or on hover) and the components that show the
 * answers. An entry is fresh for `FRESH_MS` (a preload followed by the click does not ask twice); older
 * entries are still shown at once (back/forward) while they are asked again. Any successful write drops every
 * data entry (metadata stays: it changes with the organization or language, which are part of its key). The
 * number of entries is bounded.
 */
import { onApiWrite } from './client.ts'

export const FRESH_MS = 10_000
const MAX_ENTRIES = 200

export type CacheStatus = 'loading' | 'ok' | 'error'

export interface CacheSnapshot<T> {
  status: CacheStatus
  data: T | undefined
  error: unknown
  /** when the last answer arrived (ms) */
  at: number
}

/** What to load: a key and how. `keep: true` entries (metadata) are not dropped by writes and never go stale. */
export interface CacheQuery<T> {
  key: string
  run: (signal: AbortSignal) => Promise<T>
  keep?: boolean
}

interface Entry {
  snapshot: CacheSnapshot<unknown>
  /** the last query asked for this key: a dropped entry being watched is asked again with it */
  query: CacheQuery<unknown> | undefined
  promise: Promise<unknown> | undefined
  keep: boolean
  listeners: Set<() => void>
  generation: number
}

const entries = new Map<string, Entry>()

function notify(entry: Entry): void {
  for (const listener of [...entry.listeners]) listener()
}

function evict(): void {
  if (entries.size <= MAX_ENTRIES) return
  for (const [key, entry] of entries) {
    if (entries.size <= MAX_ENTRIES) break
    if (entry.listeners.size === 0 && !entry.promise) entries.delete(key)
  }
}

function start<T>(query: CacheQuery<T>, entry: Entry): Promise<T> {
  const generation = ++entry.generation
  const promise = query.run(new AbortController().signal)
  entry.promise = promise
  entry.snapshot = { ...entry.snapshot, status: 'loading', error: undefined }
  notify(entry)
  promise.then(
    (data) => {
      if (entry.generation !== generation) return
      entry.promise = undefined
      entry.snapshot = { status: 'ok', data, error: undefined, at: Date.now() }
      notify(entry)
    },
    (error: unknown) => {
      if (entry.generation !== generation) return
      entry.promise = undefined
      entry.snapshot = { ...entry.snapshot, status: 'error', error, at: Date.now() }
      notify(entry)
    },
  )
  return promise
}

function entryOf(key: string, keep: boolean): Entry {
  let entry = entries.get(key)
  if (!entry) {
    entry = { snapshot: { status: 'loading', data: undefined, error: undefined, at: 0 }, query: undefined, promise: undefined, keep, listeners: new Set(), generation: 0 }
    entries.set(key, entry)
    evict()
  }
  return entry
}

function isFresh(entry: Entry): boolean {
  return entry.snapshot.status === 'ok' && (entry.keep || Date.now() - entry.snapshot.at < FRESH_MS)
}

/**
 * Makes sure a query's answer is (being) loaded: starts it when there is no answer, when it failed, when it is
 * stale, or with `force` (a reload). A request already under way answers every caller. Resolves when an
 * answer is there (stale data counts: it is shown while it is asked again). Never rejects: failures are in the
 * snapshot.
 */
export function ensure<T>(query: CacheQuery<T>, opts: { force?: boolean } = {}): Promise<void> {
  const entry = entryOf(query.key, query.keep === true)
  entry.keep = query.keep === true
  entry.query = query as CacheQuery<unknown>
  if (entry.promise) return settle(entry)
  if (!opts.force && isFresh(entry)) return Promise.resolve()
  const pending = start(query, entry)
  // Stale data is shown at once; the fresh answer replaces it when it comes.
  return entry.snapshot.data !== undefined && !opts.force ? Promise.resolve() : pending.then(() => {}, () => {})
}

function settle(entry: Entry): Promise<void> {
  return entry.snapshot.data !== undefined ? Promise.resolve() : (entry.promise ?? Promise.resolve()).then(() => {}, () => {})
}

/** The current state of a key, or undefined when nothing was ever asked for it. */
export function peek<T>(key: string): CacheSnapshot<T> | undefined {
  return entries.get(key)?.snapshot as CacheSnapshot<T> | undefined
}

/** Listens to one key's changes. */
export function subscribe(key: string, listener: () => void): () => void {
  const entry = entryOf(key, false)
  entry.listeners.add(listener)
  return () => {
    entry.listeners.delete(listener)
  }
}

/** Drops entries: all data entries, or those whose key matches. A dropped entry being watched is asked again by its watchers. */
export function invalidate(match: (key: string, keep: boolean) => boolean = (_k, keep) => !keep): void {
  for (const [key, entry] of entries) {
    if (!match(key, entry.keep)) continue
    entry.generation++
    entry.promise = undefined
    entry.snapshot = { ...entry.snapshot, at: 0 }
    if (entry.listeners.size === 0 || !entry.query) entries.delete(key)
    else start(entry.query, entry).catch(() => {})
  }
}

// After any successful write the data shown elsewhere may be out of date.
onApiWrite(() => invalidate())
