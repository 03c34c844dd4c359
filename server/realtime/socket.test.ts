import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { CLOSE_UNAUTHENTICATED, SITE_MSG_SOCKET_PATH } from './socket.ts'

/** The real clock, also while a test runs on fake timers. */
const realNow = Date.now.bind(Date)

/** A real ws client that queues every message it receives. */
class Probe {
  readonly messages: unknown[] = []
  private waiters: (() => void)[] = []
  closed: { code: number; reason: string } | null = null
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()))
      this.wake()
    })
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() }
      this.wake()
    })
  }
  private wake() {
    const w = this.waiters
    this.waiters = []
    w.forEach((f) => f())
  }
  /** Resolves when `predicate` holds, or rejects after `ms`. */
  async until(predicate: () => boolean, ms = 5000): Promise<void> {
    const deadline = realNow() + ms
    while (!predicate()) {
      const left = deadline - realNow()
      if (left <= 0) throw new Error(`timed out; messages: ${JSON.stringify(this.messages)}, closed: ${JSON.stringify(this.closed)}`)
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(t)
          resolve()
        })
      })
    }
  }
  lastCount(): number | undefined {
    const last = this.messages.at(-1) as { type?: string; unread_count?: number } | undefined
    return last?.type === 'unread_count' ? last.unread_count : undefined
  }
  close() {
    this.ws.close()
  }
}

describe('site message websocket (contract §4.14)', () => {
  let server: TestServer
  let url: string
  let admin: TestClient
  let aliceId: string
  const probes: Probe[] = []

  function open(headers: Record<string, string> = {}): Probe {
    const p = new Probe(new WebSocket(url, { headers }))
    probes.push(p)
    return p
  }

  beforeAll(async () => {
    server = await createTestServer()
    url = `ws://${await server.listen()}${SITE_MSG_SOCKET_PATH}`
    aliceId = await server.createUser({ username: 'alice' })
    admin = await server.as('admin')
  })
  afterAll(async () => {
    probes.forEach((p) => p.close())
    await server?.close()
  })

  const send = (body: Record<string, unknown>) => admin.post('/api/v1/notifications/site-messages/send/', body)

  it('closes anonymous connections', async () => {
    const p = open()
    await p.until(() => p.closed !== null)
    expect(p.closed!.code).toBe(CLOSE_UNAUTHENTICATED)
    expect(p.messages).toEqual([])
  })

  it('closes cookie connections from another origin', async () => {
    const alice = await server.as('alice')
    const p = open({ cookie: alice.cookieHeader(), origin: 'http://evil.example' })
    await p.until(() => p.closed !== null)
    expect(p.closed!.code).toBe(CLOSE_UNAUTHENTICATED)
  })

  it('sends the count on connect and on every new message, to every socket of the user', async () => {
    const alice = await server.as('alice')
    const a1 = open({ cookie: alice.cookieHeader() })
    const a2 = open({ cookie: alice.cookieHeader() })
    await a1.until(() => a1.messages.length === 1)
    await a2.until(() => a2.messages.length === 1)
    expect(a1.messages[0]).toEqual({ type: 'unread_count', unread_count: 0 })

    expect((await send({ subject: 'Hi', message: 'one', user_ids: [aliceId] })).statusCode).toBe(201)
    await a1.until(() => a1.lastCount() === 1)
    await a2.until(() => a2.lastCount() === 1)

    // A message for somebody else does not reach Alice.
    const bobId = await server.createUser({ username: 'bob' })
    const before = a1.messages.length
    await send({ subject: 'Bob only', message: 'x', user_ids: [bobId] })
    await send({ subject: 'Hi again', message: 'two', user_ids: [aliceId] })
    await a1.until(() => a1.lastCount() === 2)
    expect(a1.messages.length).toBe(before + 1)

    // Marking read elsewhere updates the open sockets too.
    await alice.patch('/api/v1/notifications/site-messages/mark-as-read-all/')
    await a2.until(() => a2.lastCount() === 0)
  })

  it('accepts bearer tokens', async () => {
    const token = randomBytes(20).toString('hex')
    await sql`insert into auth_tokens (key, user_id, date_expired) values (${token}, ${aliceId}, now() + interval '1 hour')`.execute(server.database.db)
    const p = open({ authorization: `Bearer ${token}` })
    await p.until(() => p.messages.length === 1)
    expect(p.lastCount()).toBe(0)
  })

  it('re-sends the count every N seconds when asked (minimum 5)', async () => {
    const alice = await server.as('alice')
    const p = open({ cookie: alice.cookieHeader() })
    await p.until(() => p.messages.length === 1)
    // The server's intervals (and clock) are the test's from here: the period is read, not waited for.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    try {
      p.ws.send('not json')
      p.ws.send(JSON.stringify({ refresh_every_seconds: 'x' }))
      p.ws.send(JSON.stringify({ refresh_every_seconds: 1 }))
      // the server has read the last request once its refresh interval exists (the two before it start none)
      const until = realNow() + 10_000
      while (vi.getTimerCount() === 0 && realNow() < until) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(vi.getTimerCount()).toBe(1)
      const t0 = Date.now()
      vi.advanceTimersToNextTimer()
      expect(Date.now() - t0).toBe(5000) // the minimum, not the 1 s asked
      expect(p.messages).toHaveLength(1)
      await p.until(() => p.messages.length === 2)
      expect(p.lastCount()).toBeTypeOf('number')
    } finally {
      vi.useRealTimers()
    }
  })

  it('closes the socket once its session has ended', async () => {
    const alice = await server.as('alice')
    const p = open({ cookie: alice.cookieHeader() })
    await p.until(() => p.messages.length === 1)
    const sid = alice.jar.get('jms_sessionid')!
    await sql`delete from sessions where id = ${sid}`.execute(server.database.db)
    await send({ subject: 'After logout', message: 'x', user_ids: [aliceId] })
    await p.until(() => p.closed !== null)
    expect(p.closed!.code).toBe(CLOSE_UNAUTHENTICATED)
  })
})
