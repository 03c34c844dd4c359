/**
 * A code chunk's import, tried again with back-off when it fails: a network blip or a server restart while a
 * lazy part is first wanted must not take the page down (the browser fetches a failed module again on the next
 * import). After the last try the error goes on to the caller (React's error boundary for a lazy component).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

export const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 16000]

export function retryImport<T>(load: () => Promise<T>, delays: readonly number[] = RETRY_DELAYS_MS): Promise<T> {
  return load().catch(async (error: unknown) => {
    if (!delays.length) throw error
    await new Promise((resolve) => setTimeout(resolve, delays[0]))
    return retryImport(load, delays.slice(1))
  })
}

/** React.lazy over `retryImport`. */
export function lazyRetry<C extends ComponentType<any>>(load: () => Promise<{ default: C }>): LazyExoticComponent<C> {
  return lazy(() => retryImport(load))
}
