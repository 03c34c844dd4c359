// @vitest-environment node

/** The harness must fail when a model is incomplete or the running machine differs from its definition. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fromPromise, setup } from 'xstate'
import { walkShortestPaths } from './model-walk.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

const sampleSetup = setup({
  types: { events: {} as { type: 'GO' } | { type: 'BOOM' } },
  actors: { load: fromPromise<number, void>(async () => 1) },
  actions: { explode: () => {} },
  delays: { wait: 50 },
})
const states = {
  idle: { on: { GO: 'loading', BOOM: { actions: 'explode' } } },
  loading: { invoke: { id: 'load', src: 'load', onDone: 'waiting' } },
  waiting: { after: { wait: 'done' } },
  done: { type: 'final' },
} as const
const sample = sampleSetup.createMachine({ id: 'sample', initial: 'idle', states })
const withOrphan = sampleSetup.createMachine({ id: 'sample', initial: 'idle', states: { ...states, orphan: {} } })

describe('model walk harness', () => {
  it('walks a complete model', async () => {
    const result = await walkShortestPaths({
      machine: sample,
      promiseActors: ['load'],
      events: [{ type: 'GO' }, { type: 'BOOM' }, { type: 'xstate.done.actor.load', output: 1 }],
    })
    expect(result.reached).toEqual(['sample.done', 'sample.idle', 'sample.loading', 'sample.waiting'])
  })

  it('reports a state no path reaches', async () => {
    await expect(
      walkShortestPaths({
        machine: withOrphan,
        promiseActors: ['load'],
        events: [{ type: 'GO' }, { type: 'BOOM' }, { type: 'xstate.done.actor.load', output: 1 }],
      }),
    ).rejects.toThrow(/every state node is reached/)
  })

  it('insists on the payload of actor results', async () => {
    await expect(walkShortestPaths({ machine: sample, promiseActors: ['load'], events: [{ type: 'GO' }, { type: 'BOOM' }] })).rejects.toThrow(
      /xstate\.done\.actor\.load.*not listed/,
    )
  })

  it('replays on a real actor: an action that throws at run time fails the walk', async () => {
    await expect(
      walkShortestPaths({
        machine: sample,
        promiseActors: ['load'],
        actions: {
          explode: () => {
            throw new Error('boom')
          },
        },
        events: [{ type: 'GO' }, { type: 'BOOM' }, { type: 'xstate.done.actor.load', output: 1 }],
      }),
    ).rejects.toThrow(/step 1 \(BOOM\)/)
  })

  it('reports listed events that no reachable state handles', async () => {
    const small = setup({ types: { events: {} as { type: 'GO' } | { type: 'NEVER' } } }).createMachine({
      id: 'small',
      initial: 'a',
      states: { a: { on: { GO: 'b' } }, b: { type: 'final' } },
    })
    await expect(walkShortestPaths({ machine: small, events: [{ type: 'GO' }, { type: 'NEVER' }] })).rejects.toThrow(/every listed event/)
    const result = await walkShortestPaths({ machine: small, events: [{ type: 'GO' }] })
    expect(result).toEqual({ paths: 2, steps: 2, reached: ['small.a', 'small.b'] })
  })
})
