/**
 * A small "attempt" hook (Teleport's useAsync pattern): runs an async function for a key, keeps the last data
 * while a new key loads (no layout jump), aborts superseded runs, and exposes `reload`.
 *
 * The run starts while the component renders for a new key, not in an effect after paint: a list page's
 * request leaves as soon as the page renders, one frame or more earlier (the console's navigation budget).
 * Starting is idempotent per key; effects only subscribe.
 */
import { useCallback, useEffect, useRef, useState } from 'react'

export interface AsyncState<T> {
  status: 'idle' | 'loading' | 'ok' | 'error'
  data: T | undefined
  error: unknown
  reload: () => void
}

interface Run<T> {
  key: string
  controller: AbortController
  promise: Promise<T> | undefined
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}

export function useAsync<T>(run: ((signal: AbortSignal) => Promise<T>) | undefined, key: string): AsyncState<T> {
  const [tick, setTick] = useState(0)
  const runKey = `${tick}|${run ? key : ''}`
  const runRef = useRef(run)
  runRef.current = run
  const current = useRef<Run<T> | null>(null)
  const start = (k: string): Run<T> => {
    const controller = new AbortController()
    const fn = runRef.current
    const promise = fn ? fn(controller.signal) : undefined
    // Failures are read by the subscribing effect; this keeps an aborted run from being reported as unhandled.
    promise?.catch(() => {})
    return { key: k, controller, promise }
  }
  if (current.current?.key !== runKey) {
    current.current?.controller.abort()
    current.current = start(runKey)
  }

  const [state, setState] = useState<{ key: string; status: AsyncState<T>['status']; data: T | undefined; error: unknown }>({
    key: '', status: 'idle', data: undefined, error: undefined,
  })

  useEffect(() => {
    let entry = current.current!
    // Unmounted and mounted again (React StrictMode): the run was aborted, start it again.
    if (entry.controller.signal.aborted) entry = current.current = start(runKey)
    const { promise } = entry
    if (!promise) {
      setState({ key: runKey, status: 'idle', data: undefined, error: undefined })
      return
    }
    let live = true
    promise.then(
      (data) => live && setState({ key: runKey, status: 'ok', data, error: undefined }),
      (error: unknown) => live && !isAbort(error) && setState((s) => ({ key: runKey, status: 'error', data: s.data, error })),
    )
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runKey])
  useEffect(() => () => current.current?.controller.abort(), [])

  const reload = useCallback(() => setTick((n) => n + 1), [])
  const settled = state.key === runKey
  return {
    status: settled ? state.status : run ? 'loading' : 'idle',
    data: state.data,
    error: settled ? state.error : undefined,
    reload,
  }
}
