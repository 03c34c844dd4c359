/**
 * A code chunk's import, tried again when it fails: a network blip or a server restart while a lazy part is first
 * wanted must not take the page down.
 *
 When the error names the chunk's file, the loader waits until the server answers for it (a HEAD probe, so a server
 * still down is waited for rather than hammered with imports). If the server no longer has the file — it came back
 * with another build, so this document's chunk names are gone and no retry can heal it — the page reloads once.
 * If it has the file, the import is tried again (Debian's Chromium fetches a failed module again: checked), and should
 * that fail too (a browser that keeps the failed module in the document's module map) the page reloads once. Each
 * reload is guarded by a sessionStorage mark, so a chunk that is truly broken gives its error instead of a reload
 * loop. An error that names no file is tried again after each back-off delay, as before (docs/decisions/a-lazy-chunk-that-failed-reloads-the-page-once.md).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { fileState, type FileState } from '../../api/reachable.ts'

export const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 16000]
/** How long the loader waits for a failed chunk's server to answer again (probing every PROBE_EVERY_MS at most). */
export const WAIT_FOR_SERVER_MS = 5 * 60_000
const PROBE_EVERY_MS = 2000
/** The sessionStorage mark of a reload made for a failed chunk; another within this time is not made. */
export const RELOAD_MARK = 'bastion:chunk-reload'
const RELOAD_GUARD_MS = 60_000

export interface ChunkEnvironment {
  /** What the server says of the file (HEAD). */
  probe: (url: string) => Promise<FileState>
  reload: () => void
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined
  now: () => number
  sleep: (ms: number) => Promise<void>
}

const browserEnvironment = (): ChunkEnvironment => ({
  probe: fileState,
  reload: () => window.location.reload(),
  storage: typeof sessionStorage === 'undefined' ? undefined : sessionStorage,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
})

/** The URL of the file a failed dynamic import names (Chromium, Firefox and Vite's preload errors name it). */
export function failedChunkUrl(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error)
  return /(https?:\/\/[^\s'"]+?\.(?:m?js|css))\b/.exec(message)?.[1]
}

function isChunkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error)
  return /dynamically imported module|module script failed|preload CSS|Importing a module script/i.test(message)
}

/** Waits until the server answers for the file ('ok' or 'missing'), or gives 'down' after WAIT_FOR_SERVER_MS. */
async function waitForServer(url: string, env: ChunkEnvironment): Promise<FileState> {
  const until = env.now() + WAIT_FOR_SERVER_MS
  for (let delay = 250; ; delay = Math.min(delay * 2, PROBE_EVERY_MS)) {
    const state = await env.probe(url)
    if (state !== 'down' || env.now() >= until) return state
    await env.sleep(delay)
  }
}

/** Reloads the page for a chunk the document keeps failing, unless a reload for that reason was made just now. */
function reloadOnce(env: ChunkEnvironment): boolean {
  if (!env.storage) return false
  const last = Number(env.storage.getItem(RELOAD_MARK) ?? 0)
  if (last && env.now() - last < RELOAD_GUARD_MS) return false
  env.storage.setItem(RELOAD_MARK, String(env.now()))
  env.reload()
  return true
}

export function retryImport<T>(load: () => Promise<T>, delays: readonly number[] = RETRY_DELAYS_MS, env: ChunkEnvironment = browserEnvironment()): Promise<T> {
  return load().catch(async (error: unknown) => {
    const url = failedChunkUrl(error)
    if (url && isChunkError(error)) {
      // the file's server is what failed: wait for it; a file it no longer has (restarted with another build: this
      // document's chunk names are gone) needs the new document; one it has is imported again, then reloaded for
      const state = await waitForServer(url, env)
      if (state === 'missing' && reloadOnce(env)) return new Promise<T>(() => {})
      if (state !== 'ok') throw error
      try {
        return await load()
      } catch (again) {
        if (reloadOnce(env)) return new Promise<T>(() => {})
        throw again
      }
    }
    if (!delays.length) {
      if (isChunkError(error) && reloadOnce(env)) return new Promise<T>(() => {})
      throw error
    }
    await env.sleep(delays[0]!)
    return retryImport(load, delays.slice(1), env)
  })
}

/** React.lazy over `retryImport`. */
export function lazyRetry<C extends ComponentType<any>>(load: () => Promise<{ default: C }>): LazyExoticComponent<C> {
  return lazy(() => retryImport(load))
}
