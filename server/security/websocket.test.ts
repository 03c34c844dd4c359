/**
 * Issue 36 point 4 and its class: every websocket endpoint inherits a bound on the frame size (ws's `maxPayload`,
 * checked from the frame header before the frame is buffered; close 1009) and on the sockets one user holds open
 * (close 4429). Real ws clients against a listening server; the cases are generated from every websocket route
 * the app registered.
 */
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { CLOSE_TOO_MANY_SOCKETS, websocketRoutes, WS_DEFAULTS } from '../realtime/bounds.ts'
import { createTestServer, dbKind, type TestServer } from '../testing.ts'

const t: TestServer = await createTestServer()
afterAll(async () => { await t.close() })

/** Opens a socket; resolves once open (or with the close if refused). */
function connect(url: string, headers: Record<string, string>): Promise<{ ws: WebSocket; closed: Promise<{ code: number }> }> {
  const ws = new WebSocket(url, { headers, maxPayload: 0 })
  const closed = new Promise<{ code: number }>((resolve) => ws.on('close', (code) => resolve({ code })))
  ws.on('error', () => undefined)
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed }))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
  })
}

describe(`websocket bounds (${dbKind()})`, () => {
  let base: string
  let headers: Record<string, string>
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    const c = await t.as('admin')
    headers = { cookie: c.cookieHeader(), origin: base.replace('ws:', 'http:') }
  })

  const routes = websocketRoutes()
  it('the generated cases include the site-message, task-log and terminal sockets', () => {
    expect(routes.map((r) => r.url)).toEqual(expect.arrayContaining(['/ws/notifications/site-msg/', '/ws/ops/tasks/log/', '/ws/terminal/']))
    for (const r of routes) expect(r.maxPayload).toBeLessThanOrEqual(1024 * 1024)
  })

  it.each(routes.map((r) => [r.url, r] as const))('%s: a frame above the bound closes the socket with 1009 (point 4)', async (url, r) => {
    const { ws, closed } = await connect(`${base}${url}`, headers)
    const before = process.memoryUsage().arrayBuffers
    ws.send(Buffer.alloc(r.maxPayload + 1, 0x61))
    expect((await closed).code).toBe(1009)
    // (a frame at the bound is accepted: the socket stays open)
    const ok = await connect(`${base}${url}`, headers)
    ok.ws.send(Buffer.alloc(Math.min(r.maxPayload, 1024), 0x61))
    await new Promise((resolve) => ok.ws.ping(undefined, undefined, () => ok.ws.once('pong', resolve)))
    expect(ok.ws.readyState).toBe(WebSocket.OPEN)
    ok.ws.close()
    await ok.closed
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024)
  })

  it('one user holds at most the bound of sockets; the next is closed with 4429, then one may open again (point 4)', async () => {
    const url = `${base}/ws/notifications/site-msg/`
    const open: Array<{ ws: WebSocket; closed: Promise<{ code: number }> }> = []
    for (let i = 0; i < WS_DEFAULTS.perUser; i++) open.push(await connect(url, headers))
    const extra = await connect(url, headers)
    expect((await extra.closed).code).toBe(CLOSE_TOO_MANY_SOCKETS)
    // Another user is not affected.
    await t.createUser({ username: 'ws_other' })
    const other = await t.as('ws_other')
    const theirs = await connect(url, { ...headers, cookie: other.cookieHeader() })
    expect(theirs.ws.readyState).toBe(WebSocket.OPEN)
    theirs.ws.close()
    open[0]!.ws.close()
    await open[0]!.closed
    const again = await connect(url, headers)
    expect(again.ws.readyState).toBe(WebSocket.OPEN)
    for (const s of [...open.slice(1), again]) s.ws.close()
    await Promise.all([...open.slice(1), again].map((s) => s.closed))
  })
})
