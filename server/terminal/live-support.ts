/** A real websocket client of /ws/terminal/live/ for the live-session tests (monitor, join). */
import type { TestClient } from '../testing.ts'
import { TermClient, tokenFor, type Granted } from './test-support.ts'
import type { FastifyInstance } from 'fastify'
import { terminalManager } from './index.ts'
import { LIVE_SOCKET_PATH, liveService, type LiveTimers } from './live.ts'

/** The live socket's client: the terminal socket's, on another path (monitors and joiners; a joiner types as `data`). */
export class LiveClient extends TermClient {
  constructor(address: string, c: TestClient, headers: Record<string, string> = {}) {
    super(address, c, LIVE_SOCKET_PATH, headers)
  }

  static async open(address: string, c: TestClient, first: Record<string, unknown>, headers?: Record<string, string>): Promise<LiveClient> {
    const l = new LiveClient(address, c, headers)
    await l.opened()
    l.send(first)
    return l
  }
}

/** A web-terminal session of a granted user, at its first prompt. */
export async function openSession(address: string, g: Granted): Promise<{ w: TermClient; id: string }> {
  const token = await tokenFor(g)
  const w = new TermClient(address, g.c)
  await w.opened()
  w.send({ type: 'connect', token, cols: 100, rows: 30 })
  await w.until(() => !!w.frame('session-info') || !!w.frame('error'), 'session-info')
  const info = w.frame('session-info')?.session as { id: string } | undefined
  if (!info) throw new Error(JSON.stringify(w.frames))
  await w.until(() => w.output.includes('$ '), 'the first prompt')
  return { w, id: info.id }
}


/**
 * The live service's timers on a clock the test moves (LiveTimers): nothing waits on real time. `runDue()` runs what
 * is due at the clock's time; `fireAll()` runs every timer whatever the clock says (a timer that fired early).
 */
export class ManualTimers implements LiveTimers {
  private readonly pending = new Set<{ at: number; fn: () => void }>()

  constructor(private readonly now: () => number) {}

  set(fn: () => void, ms: number): unknown {
    const t = { at: this.now() + ms, fn }
    this.pending.add(t)
    return t
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as { at: number; fn: () => void })
  }

  get size(): number {
    return this.pending.size
  }

  runDue(): number {
    const due = [...this.pending].filter((t) => t.at <= this.now())
    for (const t of due) {
      this.pending.delete(t)
      t.fn()
    }
    return due.length
  }

  fireAll(): number {
    const all = [...this.pending]
    this.pending.clear()
    for (const t of all) t.fn()
    return all.length
  }
}

/**
 * A server's terminal clock frozen at `time` (moved by the test) and its live service's timers on it (ManualTimers);
 * `release()` gives both back.
 */
export class FrozenClock {
  time = Date.now()
  readonly timers: ManualTimers
  readonly release: () => void

  constructor(app: FastifyInstance) {
    const live = liveService(app)!
    const manager = terminalManager(app)
    const realNow = manager.now
    const realTimers = live.timers
    manager.now = () => this.time
    this.timers = new ManualTimers(manager.now)
    live.timers = this.timers
    this.release = () => {
      manager.now = realNow
      live.timers = realTimers
    }
  }
}
