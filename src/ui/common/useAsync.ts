/**
 * A small "attempt" hook (Teleport's useAsync pattern): runs an async function when its key changes,
 * aborts the previous run, keeps the last data while reloading (no layout jump), and exposes `reload`.
 */
import { useCallback, useEffect, useRef, useState } from 'react'

export interface AsyncState<T> {
  status: 'idle' | 'loading' | 'ok' | 'error'
  data: T | undefined
  error: unknown
  reload: () => void
}

export function useAsync<T>(run: ((signal: AbortSignal) => Promise<T>) | undefined, key: string): AsyncState<T> {
  const [state, setState] = useState<{ status: AsyncState<T>['status']; data: T | undefined; error: unknown }>({
    status: run ? 'loading' : 'idle', data: undefined, error: undefined,
  })
  const [tick, setTick] = useState(0)
  const runRef = useRef(run)
  runRef.current = run
  useEffect(() => {
    const fn = runRef.current
    if (!fn) {
      setState({ status: 'idle', data: undefined, error: undefined })
      return
    }
    const controller = new AbortController()
    setState((s) => ({ ...s, status: 'loading' }))
    fn(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ status: 'ok', data, error: undefined }),
      (error: unknown) => !controller.signal.aborted && setState((s) => ({ status: 'error', data: s.data, error })),
    )
    return () => controller.abort()
  }, [key, tick])
  const reload = useCallback(() => setTick((n) => n + 1), [])
  return { ...state, reload }
}
