// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { MODEL_TEST_TIMEOUT, walkShortestPaths } from '../testing/model-walk.ts'
import {
  SESSION_MARK_EXPIRY_MS,
  sessionMarkMachine,
  type RefreshMarkParams,
  type SessionMarkInput,
} from './session-mark.machine.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

function start(input: SessionMarkInput, refreshMark = vi.fn<(params: RefreshMarkParams) => void>()) {
  const errors: unknown[] = []
  const emitted: unknown[] = []
  const actor = createActor(sessionMarkMachine.provide({ actions: { refreshMark: (_, params) => refreshMark(params) } }), { input })
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.on('*', (event) => emitted.push(event))
  actor.start()
  return { actor, refreshMark, errors, emitted }
}

describe('sessionMark machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path for close, age and a missing mark', async () => {
    const result = await walkShortestPaths({
      machine: sessionMarkMachine,
      inputs: [{ mark: 'close' }, { mark: 'age' }, { mark: null }],
      events: [{ type: 'STOP' }],
      actions: { refreshMark: vi.fn() },
    })
    expect(result.reached).toEqual(['sessionMark.expired', 'sessionMark.keepingAlive', 'sessionMark.serverManaged', 'sessionMark.stopped'])
  })
})

describe('sessionMark machine — scenarios', () => {
  it('rewrites the close mark on start and every 10 s with a 2-minute expiry', () => {
    const { refreshMark, errors } = start({ mark: 'close' })
    expect(refreshMark).toHaveBeenCalledTimes(1)
    expect(refreshMark).toHaveBeenLastCalledWith({ name: 'jms_session_expire', value: 'close', expiresInMs: SESSION_MARK_EXPIRY_MS })
    vi.advanceTimersByTime(9_999)
    expect(refreshMark).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    expect(refreshMark).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(50_000)
    expect(refreshMark).toHaveBeenCalledTimes(7)
    expect(vi.getTimerCount()).toBe(1)
    expect(errors).toEqual([])
  })

  it('does not stack timers when start-up runs again', () => {
    const refreshMark = vi.fn<(params: RefreshMarkParams) => void>()
    const first = start({ mark: 'close' }, refreshMark)
    vi.advanceTimersByTime(25_000)
    expect(refreshMark).toHaveBeenCalledTimes(3)
    first.actor.stop()
    expect(vi.getTimerCount()).toBe(0)
    start({ mark: 'close' }, refreshMark)
    vi.advanceTimersByTime(60_000)
    expect(refreshMark).toHaveBeenCalledTimes(3 + 1 + 6)
    expect(vi.getTimerCount()).toBe(1)
  })

  it('leaves an age mark to the server', () => {
    const { actor, refreshMark } = start({ mark: 'age' })
    vi.advanceTimersByTime(60_000)
    expect(actor.getSnapshot().value).toBe('serverManaged')
    expect(refreshMark).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('expires when the mark is missing', () => {
    for (const mark of [undefined, null, '']) {
      const { actor, emitted, refreshMark } = start({ mark })
      expect(actor.getSnapshot().status).toBe('done')
      expect(actor.getSnapshot().output).toEqual({ reason: 'expired' })
      expect(emitted).toEqual([{ type: 'expired' }])
      expect(refreshMark).not.toHaveBeenCalled()
    }
  })

  it('stops on STOP with no timer left', () => {
    const { actor, refreshMark } = start({ mark: 'close' })
    actor.send({ type: 'STOP' })
    vi.advanceTimersByTime(60_000)
    expect(refreshMark).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().output).toEqual({ reason: 'stopped' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('fails loudly when refreshMark is not provided', () => {
    const errors: unknown[] = []
    const actor = createActor(sessionMarkMachine, { input: { mark: 'close' } })
    actor.subscribe({ error: (error) => errors.push(error) })
    actor.start()
    expect(actor.getSnapshot().status).toBe('error')
    expect(String(errors[0])).toContain('refreshMark')
  })
})
