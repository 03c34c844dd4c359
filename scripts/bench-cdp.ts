/**
 * A Chromium driven over the devtools protocol alone, for the benchmark's first visits (scripts/bench-console.ts).
 *
 * Playwright turns on the `Runtime` domain of every page it opens, and with it V8's inspector records a detailed
 * stack trace for each `Error` the page creates. React DOM creates its sentinel errors as its module runs, so each
 * first visit then re-parses the whole first chunk and React DOM's module on the main thread to find their source
 * positions: React DOM's start took 77 ms instead of 6 ms, measured both ways on one build (docs/decisions/the-benchmark-s-first-visits-run-without-an.md,
 * session 17). No user's browser has an inspector attached; these visits are driven without `Runtime.enable` (its
 * `evaluate` works without it), so they run as a user's do.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'

type Message = { id?: number; method?: string; params?: Record<string, unknown>; sessionId?: string; result?: Record<string, unknown>; error?: { message: string } }

export class RawChromium {
  private nextId = 0
  private readonly pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>()
  private readonly listeners = new Set<(m: Message) => void>()

  private constructor(private readonly proc: ChildProcess, private readonly socket: WebSocket, private readonly dataDir: string) {
    socket.on('message', (data) => {
      const m = JSON.parse(String(data)) as Message
      if (m.id !== undefined) {
        const waiting = this.pending.get(m.id)
        this.pending.delete(m.id)
        if (m.error) waiting?.reject(new Error(m.error.message))
        else waiting?.resolve(m.result ?? {})
      } else for (const l of this.listeners) l(m)
    })
  }

  /** Starts Chromium with a devtools port of its own choosing and connects to its browser target. */
  static async launch(executablePath: string, args: readonly string[]): Promise<RawChromium> {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-chromium-'))
    const proc = spawn(executablePath, [...args, '--remote-debugging-port=0', `--user-data-dir=${dataDir}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] })
    const url = await new Promise<string>((resolve, reject) => {
      let seen = ''
      const done = () => {
        clearTimeout(timer)
        proc.stderr!.off('data', read)
        proc.stderr!.resume() // drained, not kept or searched, while the visits run on the same two cores
        proc.off('exit', exited)
      }
      const read = (chunk: Buffer) => {
        seen += String(chunk)
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen)
        if (m) {
          done()
          resolve(m[1]!)
        }
      }
      const exited = (code: number | null) => {
        done()
        reject(new Error(`Chromium exited (${code}) before its devtools port opened:\n${seen}`))
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`Chromium did not open its devtools port:\n${seen}`))
      }, 30_000)
      proc.stderr!.on('data', read)
      proc.once('exit', exited)
    })
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 })
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    return new RawChromium(proc, socket, dataDir)
  }

  /** A protocol call, to the browser or (with `sessionId`) to an attached target. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = ++this.nextId
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.socket.send(JSON.stringify({ id, method, params, sessionId }))
    })
  }

  /** Events of one method from one session; returns the unsubscribe. */
  on(method: string, sessionId: string, handler: (params: Record<string, unknown>) => void): () => void {
    const listener = (m: Message) => {
      if (m.method === method && m.sessionId === sessionId) handler(m.params ?? {})
    }
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async close(): Promise<void> {
    this.socket.close()
    const exited = new Promise((resolve) => this.proc.once('exit', resolve))
    this.proc.kill()
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
    rmSync(this.dataDir, { recursive: true, force: true, maxRetries: 3, retryDelay: 200 })
  }
}

/** Playwright's stored cookie as the protocol's `CookieParam` (a session cookie has no `expires`). */
export function cdpCookie(c: { name: string; value: string; domain: string; path: string; expires: number; httpOnly: boolean; secure: boolean; sameSite: 'Strict' | 'Lax' | 'None' }) {
  return { name: c.name, value: c.value, domain: c.domain, path: c.path, httpOnly: c.httpOnly, secure: c.secure, sameSite: c.sameSite, ...(c.expires > 0 ? { expires: c.expires } : {}) }
}

/** A script for new documents that puts an origin's stored localStorage items back before the page's own run. */
export function localStorageScript(origin: string, items: readonly { name: string; value: string }[]): string {
  return `if (location.origin === ${JSON.stringify(origin)}) { for (const [k, v] of ${JSON.stringify(items.map((i) => [i.name, i.value]))}) localStorage.setItem(k, v) }`
}
