/** A real websocket client of /ws/terminal/live/ for the live-session tests (monitor, join). */
import WebSocket from 'ws'
import type { TestClient } from '../testing.ts'
import { TermClient, tokenFor, type Frame, type Granted } from './test-support.ts'
import { LIVE_SOCKET_PATH } from './live.ts'

export class LiveClient {
  readonly ws: WebSocket
  output = ''
  frames: Frame[] = []
  closed: { code: number } | null = null
  private waiters: Array<() => void> = []

  constructor(address: string, c: TestClient, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(`ws://${address}${LIVE_SOCKET_PATH}`, { headers: { cookie: c.cookieHeader(), 'accept-language': 'en', ...headers } })
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) this.output += Buffer.from(data as Buffer).toString('utf8')
      else this.frames.push(JSON.parse(data.toString()) as Frame)
      this.wake()
    })
    this.ws.on('close', (code) => {
      this.closed = { code }
      this.wake()
    })
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ws.readyState === WebSocket.OPEN) return resolve()
      this.ws.once('open', () => resolve())
      this.ws.once('error', reject)
    })
  }

  private wake() {
    const w = this.waiters
    this.waiters = []
    w.forEach((f) => f())
  }

  /** Resolves when `predicate` holds (a generous safety deadline only turns a hang into a failure). */
  async until(predicate: () => boolean, what = 'condition', ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms
    while (!predicate()) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`waiting for ${what}: output ${JSON.stringify(this.output.slice(-500))}, frames ${JSON.stringify(this.frames)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  frame(type: string): Frame | undefined {
    return this.frames.find((f) => f.type === type)
  }

  send(msg: unknown) {
    this.ws.send(JSON.stringify(msg))
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

