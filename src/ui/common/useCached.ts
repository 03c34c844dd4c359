/**
 * Reads a cached query (src/api/cache.ts) and keeps the component up to date with it. Route loaders have
 * normally started the request before the page rendered; otherwise (lists in a tab, dialogs) it starts after
 * the first paint. The last answer stays shown while another key loads (no layout jump) and while a stale
 * entry is asked again. `reload` asks again even when the answer is fresh.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { ensure, peek, subscribe, type CacheQuery } from '../../api/cache.ts'

export interface AsyncState<T> {
  status: 'idle' | 'loading' | 'ok' | 'error'
  data: T | undefined
  error: unknown
  reload: () => void
}

const noop = () => () => {}

export function useCached<T>(query: CacheQuery<T> | undefined): AsyncState<T> {
  const key = query?.key
  const subscribeKey = useCallback((listener: () => void) => (key ? subscribe(key, listener) : () => {}), [key])
  const snapshot = useSyncExternalStore(key ? subscribeKey : noop, () => (key ? peek<T>(key) : undefined))

  // Start (or refresh) once per key; ensure() is idempotent while a request is under way or the answer fresh.
  const [started, setStarted] = useState<CacheQuery<T> | undefined>(query)
  if (query?.key !== started?.key) setStarted(query)
  useEffect(() => {
    if (started) void ensure(started)
  }, [started])

  // The last answer of any key, shown while the current one loads.
  const [last, setLast] = useState<T | undefined>(undefined)
  if (snapshot?.data !== undefined && snapshot.data !== last) setLast(snapshot.data)

  const reload = useCallback(() => {
    if (started) void ensure(started, { force: true })
  }, [started])

  if (!query) return { status: 'idle', data: undefined, error: undefined, reload }
  const status = snapshot?.status ?? 'loading'
  return { status, data: snapshot?.data ?? last, error: status === 'error' ? snapshot?.error : undefined, reload }
}
