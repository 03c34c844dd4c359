// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, fromPromise } from 'xstate'
import { MODEL_TEST_TIMEOUT, flushMicrotasks, walkShortestPaths } from '../testing/model-walk.ts'
import { nextRetryDelay, parseUnreadCount, siteMessagesMachine } from './site-messages.machine.ts'
import type { SiteMessage, SiteMessagePage, SocketEvent } from './site-messages.types.ts'

const M1: SiteMessage = { id: 'm1', has_read: false, date_created: '2024/01/01 10:00:00 +0800', content: { subject: 'Hello', message: 'Body' } }
const M2: SiteMessage = { ...M1, id: 'm2', content: { subject: 'Second', message: 'Body' } }
const SOCKET_EVENTS = new Set(['OPEN', 'CLOSE', 'ERROR', 'RECONNECT'])

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A socket stub: every connection is recorded; `current` sends events as the real socket would. */
function socketStub() {
  const connections: Array<{ sendBack: (event: SocketEvent) => void; closed: boolean }> = []
  const logic = fromCallback<SocketEvent>(({ sendBack }) => {
    const connection = { sendBack, closed: false }
    connections.push(connection)
    return () => {
      connection.closed = true
    }
  })
  const current = () => {
    const last = connections.at(-1)
    if (!last || last.closed) throw new Error('no open socket')
    return last
  }
  return { logic, connections, send: (event: SocketEvent) => current().sendBack(event) }
}

function start(page: SiteMessagePage = { results: [M1, M2], count: 2 }) {
  const socket = socketStub()
  const fetchUnread = vi.fn(async (_input: { offset: number; limit: number }) => page)
  const markRead = vi.fn(async (_input: { ids: readonly string[] }): Promise<unknown> => ({ detail: 'ok' }))
  const markAllRead = vi.fn(async (): Promise<unknown> => ({ detail: 'ok' }))
  const errors: unknown[] = []
  const actor = createActor(
    siteMessagesMachine.provide({
      actors: {
        socket: socket.logic,
        fetchUnread: fromPromise(({ input }) => fetchUnread(input)),
        markRead: fromPromise(({ input }) => markRead(input)),
        markAllRead: fromPromise(() => markAllRead()),
      },
    }),
    { input: {} },
  )
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.start()
  return { actor, socket, fetchUnread, markRead, markAllRead, errors }
}

describe('siteMessages machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path (socket events while the drawer is idle, drawer events while connected)', async () => {
    const result = await walkShortestPaths({
      machine: siteMessagesMachine,
      inputs: [{}],
      callbackActors: ['socket'],
      sentBy: { OPEN: 'socket', MESSAGE: 'socket', CLOSE: 'socket', ERROR: 'socket' },
      promiseActors: ['fetchUnread', 'markRead', 'markAllRead'],
      events: [
        { type: 'OPEN' },
        { type: 'MESSAGE', data: '{"type": "unread_count", "unread_count": 3}' },
        { type: 'MESSAGE', data: 'not json' },
        { type: 'CLOSE', code: 1006 },
        { type: 'ERROR', error: 'connection refused' },
        { type: 'RECONNECT' },
        { type: 'OPEN_DRAWER' },
        { type: 'CLOSE_DRAWER' },
        { type: 'REFRESH' },
        { type: 'MARK_READ', ids: ['m1'] },
        { type: 'MARK_READ', ids: [] },
        { type: 'MARK_ALL_READ' },
        { type: 'xstate.done.actor.fetchUnread', output: { results: [M1], count: 1 } },
        { type: 'xstate.error.actor.fetchUnread', error: { status: 500 } },
        { type: 'xstate.done.actor.markRead', output: { detail: 'ok' } },
        { type: 'xstate.error.actor.markRead', error: { status: 400, ids: ['bad'] } },
        { type: 'xstate.done.actor.markAllRead', output: { detail: 'ok' } },
        { type: 'xstate.error.actor.markAllRead', error: { status: 500 } },
      ],
      // Keep the model small: socket life while the drawer is idle; drawer and marking while connected, marking
      // from the shown list. The scenarios below cover the interleavings that matter.
      filter: (snapshot, event) => {
        const idleDrawer = snapshot.matches({ drawer: 'closed', marking: 'idle' })
        if (SOCKET_EVENTS.has(event.type) || event.type.startsWith('xstate.after.')) return idleDrawer && snapshot.context.unreadCount === 0
        if (!snapshot.matches({ connection: { active: 'open' } })) return false
        if (event.type === 'MESSAGE') return snapshot.matches({ marking: 'idle' }) && !snapshot.matches({ drawer: { open: 'loading' } })
        if (event.type === 'MARK_READ' || event.type === 'MARK_ALL_READ') return snapshot.matches({ drawer: { open: 'shown' } })
        if (event.type === 'OPEN_DRAWER') return snapshot.matches({ marking: 'idle' })
        return true
      },
      invariant: (snapshot) => {
        const { retryInMs, unreadCount } = snapshot.context
        if (snapshot.matches({ connection: 'waiting' })) expect(retryInMs).toBeGreaterThanOrEqual(1_000)
        if (snapshot.matches({ connection: { active: 'open' } })) expect(retryInMs).toBeNull()
        expect(retryInMs === null || retryInMs <= 30_000).toBe(true)
        expect(unreadCount).toBeGreaterThanOrEqual(0)
      },
    })
    expect(result.paths).toBeGreaterThan(50)
  })
})

describe('siteMessages machine — scenarios', () => {
  it('computes the back-off sequence 1, 2, 4, 8, 16, 30, 30 s', () => {
    const delays: number[] = []
    let delay: number | null = null
    for (let i = 0; i < 7; i++) delays.push((delay = nextRetryDelay(delay)))
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000])
  })

  it('reconnects with back-off and resets it after a successful open', async () => {
    const { actor, socket, errors } = start()
    const seen: number[] = []
    for (let i = 0; i < 7; i++) {
      socket.send({ type: i % 2 === 0 ? 'CLOSE' : 'ERROR', code: 1006 } as SocketEvent)
      const delay = actor.getSnapshot().context.retryInMs ?? 0
      seen.push(delay)
      await vi.advanceTimersByTimeAsync(delay - 1)
      expect(actor.getSnapshot().matches({ connection: 'waiting' })).toBe(true)
      await vi.advanceTimersByTimeAsync(1)
      expect(actor.getSnapshot().matches({ connection: { active: 'reconnecting' } })).toBe(true)
    }
    expect(seen).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000])
    expect(socket.connections).toHaveLength(8)
    expect(socket.connections.slice(0, 7).every((connection) => connection.closed)).toBe(true)
    socket.send({ type: 'OPEN' })
    expect(actor.getSnapshot().context).toMatchObject({ retryInMs: null, socketProblem: null })
    socket.send({ type: 'CLOSE' })
    expect(actor.getSnapshot().context.retryInMs).toBe(1_000)
    actor.send({ type: 'RECONNECT' })
    expect(socket.connections).toHaveLength(9)
    expect(errors).toEqual([])
  })

  it('exposes the unread count pushed by the server', () => {
    const { actor, socket } = start()
    socket.send({ type: 'OPEN' })
    socket.send({ type: 'MESSAGE', data: '{"type": "unread_count", "unread_count": 120}' })
    expect(actor.getSnapshot().context.unreadCount).toBe(120)
    socket.send({ type: 'MESSAGE', data: { unread_count: 4 } })
    socket.send({ type: 'MESSAGE', data: '{"refresh_every_seconds": 30}' })
    expect(actor.getSnapshot().context.unreadCount).toBe(4)
    expect(parseUnreadCount('{"unread_count": -1}')).toBeNull()
  })

  it('loads 15 unread messages on drawer open and marks them read', async () => {
    const { actor, socket, fetchUnread, markRead, markAllRead } = start()
    socket.send({ type: 'OPEN' })
    actor.send({ type: 'OPEN_DRAWER' })
    await flushMicrotasks()
    expect(fetchUnread).toHaveBeenCalledWith({ offset: 0, limit: 15 })
    expect(actor.getSnapshot().context).toMatchObject({ messages: [M1, M2], total: 2, unreadCount: 2 })
    markRead.mockImplementationOnce(() => new Promise(() => {}))
    actor.send({ type: 'MARK_READ', ids: ['m1'] })
    expect(markRead).toHaveBeenCalledWith({ ids: ['m1'] })
    actor.send({ type: 'MARK_ALL_READ' })
    expect(markAllRead).not.toHaveBeenCalled()
  })

  it('finishes marking read after the drawer closed and updates the count', async () => {
    const { actor, socket, fetchUnread } = start()
    socket.send({ type: 'OPEN' })
    actor.send({ type: 'OPEN_DRAWER' })
    await flushMicrotasks()
    actor.send({ type: 'MARK_READ', ids: ['m1', 'm1'] })
    actor.send({ type: 'CLOSE_DRAWER' })
    await flushMicrotasks()
    expect(actor.getSnapshot().context).toMatchObject({ messages: [M2], total: 1, unreadCount: 1, markingIds: [] })
    expect(fetchUnread).toHaveBeenCalledTimes(1)
  })

  it('keeps mark-read failures as error data and reloads after mark-all', async () => {
    const { actor, socket, markRead, fetchUnread } = start()
    socket.send({ type: 'OPEN' })
    actor.send({ type: 'OPEN_DRAWER' })
    await flushMicrotasks()
    markRead.mockRejectedValueOnce({ status: 400, detail: 'invalid ids' })
    actor.send({ type: 'MARK_READ', ids: ['m1'] })
    await flushMicrotasks()
    expect(actor.getSnapshot().context.drawerError).toEqual({ kind: 'mark_read_failed', error: { status: 400, detail: 'invalid ids' } })
    expect(actor.getSnapshot().context.unreadCount).toBe(2)
    fetchUnread.mockResolvedValueOnce({ results: [], count: 0 })
    actor.send({ type: 'MARK_ALL_READ' })
    await flushMicrotasks()
    expect(fetchUnread).toHaveBeenCalledTimes(2)
    expect(actor.getSnapshot().context).toMatchObject({ unreadCount: 0, messages: [], drawerError: null })
  })

  it('reloads the open list when a push changes the unread count', async () => {
    const { actor, socket, fetchUnread } = start()
    socket.send({ type: 'OPEN' })
    actor.send({ type: 'OPEN_DRAWER' })
    await flushMicrotasks()
    socket.send({ type: 'MESSAGE', data: '{"unread_count": 2}' })
    expect(fetchUnread).toHaveBeenCalledTimes(1)
    socket.send({ type: 'MESSAGE', data: '{"unread_count": 3}' })
    await flushMicrotasks()
    expect(fetchUnread).toHaveBeenCalledTimes(2)
  })
})
