/**
 * What the server says of a file of the build after a lazy chunk failed to load: 'ok' (it answers), 'missing'
 * (the server is up but the file is gone: it was restarted with another build) or 'down' (no answer, or a 5xx
 * while it restarts). A HEAD request that skips the HTTP cache, used by the chunk loader
 * (src/ui/common/retryImport.ts) to wait for the server before it imports the chunk again or reloads the page.
 */
export type FileState = 'ok' | 'missing' | 'down'

export async function fileState(url: string): Promise<FileState> {
  try {
    const res = await fetch(url, { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' })
    return res.ok ? 'ok' : res.status >= 400 && res.status < 500 ? 'missing' : 'down'
  } catch {
    return 'down'
  }
}
