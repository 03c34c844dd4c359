// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { MODEL_TEST_TIMEOUT, flushMicrotasks, walkShortestPaths } from '../testing/model-walk.ts'
import { isProfileUrl, sessionRefreshMachine } from './session-refresh.machine.ts'

const ASSETS = '/api/v1/assets/assets/?limit=15'
const PROFILE = '/api/v1/users/profile/'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

function start(refresh: () => Promise<unknown> = async () => ({})) {
  const refreshProfile = vi.fn(refresh)
  const errors: unknown[] = []
  const actor = createActor(sessionRefreshMachine.provide({ actors: { refreshProfile: fromPromise(() => refreshProfile()) } }))
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.start()
  return { actor, refreshProfile, errors }
}

describe('sessionRefresh machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path', async () => {
    await walkShortestPaths({
      machine: sessionRefreshMachine,
      events: [
        { type: 'RESPONSE_OK', url: ASSETS },
        { type: 'RESPONSE_OK', url: PROFILE },
        { type: 'xstate.done.actor.refreshProfile', output: { username: 'admin' } },
        { type: 'xstate.error.actor.refreshProfile', error: new Error('offline') },
      ],
      promiseActors: ['refreshProfile'],
    })
  })
})

describe('sessionRefresh machine — scenarios', () => {
  it('recognises profile URLs', () => {
    expect(isProfileUrl('/api/v1/users/profile/')).toBe(true)
    expect(isProfileUrl('/api/v1/users/profile/?x=1')).toBe(true)
    expect(isProfileUrl('/api/v1/users/users/')).toBe(false)
  })

  it('reads the profile once, 30 s after the last non-profile response', async () => {
    const { actor, refreshProfile, errors } = start()
    actor.send({ type: 'RESPONSE_OK', url: ASSETS })
    await vi.advanceTimersByTimeAsync(20_000)
    actor.send({ type: 'RESPONSE_OK', url: ASSETS })
    await vi.advanceTimersByTimeAsync(20_000)
    actor.send({ type: 'RESPONSE_OK', url: PROFILE })
    await vi.advanceTimersByTimeAsync(9_999)
    expect(refreshProfile).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(refreshProfile).toHaveBeenCalledTimes(1)
    await flushMicrotasks()
    expect(actor.getSnapshot().value).toBe('idle')
    await vi.advanceTimersByTimeAsync(120_000)
    expect(refreshProfile).toHaveBeenCalledTimes(1)
    expect(vi.getTimerCount()).toBe(0)
    expect(errors).toEqual([])
  })

  it('never arms on profile responses alone', async () => {
    const { actor, refreshProfile } = start()
    actor.send({ type: 'RESPONSE_OK', url: PROFILE })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(refreshProfile).not.toHaveBeenCalled()
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('keeps one timer whatever the number of responses', async () => {
    const { actor } = start()
    for (let i = 0; i < 50; i++) actor.send({ type: 'RESPONSE_OK', url: `${ASSETS}&page=${i}` })
    expect(vi.getTimerCount()).toBe(1)
  })

  it('re-arms when a response arrives during the refresh, and survives a failed refresh', async () => {
    const { actor, refreshProfile, errors } = start(() => new Promise((_, reject) => setTimeout(() => reject(new Error('503')), 1_000)))
    actor.send({ type: 'RESPONSE_OK', url: ASSETS })
    await vi.advanceTimersByTimeAsync(30_000)
    expect(actor.getSnapshot().value).toBe('refreshing')
    actor.send({ type: 'RESPONSE_OK', url: ASSETS })
    expect(actor.getSnapshot().value).toBe('armed')
    await vi.advanceTimersByTimeAsync(31_000)
    await flushMicrotasks()
    expect(refreshProfile).toHaveBeenCalledTimes(2)
    expect(actor.getSnapshot().value).toBe('idle')
    expect(errors).toEqual([])
  })
})
