// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { getSimplePaths } from 'xstate/graph'
import { confirmMachine } from '../confirm/confirm.machine.ts'
import { MODEL_TEST_TIMEOUT, flushMicrotasks, walkShortestPaths } from '../testing/model-walk.ts'
import { confirmationAsked, defaultScope, exportFlowMachine, isScopeEnabled } from './export-flow.machine.ts'
import type { ConfirmCheckResult } from '../confirm/confirm.types.ts'
import type { DownloadInput, ExportFlowInput } from './export-flow.types.ts'

const CONFIRM_URL = '/api/v1/accounts/account-secrets/'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

const modelEvents = [
  { type: 'SET_SCOPE', scope: 'all' },
  { type: 'SET_SCOPE', scope: 'selected' },
  { type: 'SET_SCOPE', scope: 'filtered' },
  { type: 'SET_FORMAT', format: 'xlsx' },
  { type: 'SUBMIT' },
  { type: 'PROGRESS', loaded: 512, total: 1024 },
  { type: 'RETRY' },
  { type: 'CANCEL' },
  { type: 'xstate.done.actor.confirm', output: { status: 'confirmed' } },
  { type: 'xstate.done.actor.confirm', output: { status: 'cancelled' } },
  { type: 'xstate.done.actor.confirm', output: { status: 'relogin', error: { status: 400 } } },
  { type: 'xstate.error.actor.confirm', error: new Error('confirm crashed') },
  { type: 'xstate.done.actor.download', output: undefined },
  { type: 'xstate.error.actor.download', error: { status: 500 } },
  { type: 'xstate.error.actor.download', error: { status: 400, code: 'mfa', url: '/api/v1/users/users/?format=csv' } },
] as const

const inputs: ExportFlowInput[] = [
  { needsConfirm: true, confirmUrl: CONFIRM_URL, selectedCount: 2, hasFilters: false },
  { needsConfirm: false, selectedCount: 0, hasFilters: true },
]

function start(input: ExportFlowInput, download: (input: DownloadInput) => Promise<unknown> = async () => undefined) {
  const downloadSpy = vi.fn(download)
  const check = vi.fn(async (): Promise<ConfirmCheckResult> => ({ confirmed: true }))
  const errors: unknown[] = []
  const machine = exportFlowMachine.provide({
    actors: {
      download: fromPromise(({ input: downloadInput }) => downloadSpy(downloadInput)),
      confirm: confirmMachine.provide({ actors: { check: fromPromise(check) } }),
    },
  })
  const actor = createActor(machine, { input })
  actor.subscribe({ error: (error) => errors.push(error) })
  actor.start()
  return { actor, download: downloadSpy, check, errors }
}

describe('exportFlow machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path', async () => {
    await walkShortestPaths({
      machine: exportFlowMachine,
      inputs,
      promiseActors: ['confirm', 'download'],
      events: modelEvents,
      invariant: (snapshot) => {
        expect(isScopeEnabled(snapshot.context.scope, snapshot.context)).toBe(true)
        if (snapshot.output?.status === 'downloaded') expect(snapshot.output.scope).toBe(snapshot.context.scope)
      },
    })
  })

  it('never downloads without a confirmation when one is needed (every simple path)', () => {
    const [needsConfirm] = inputs
    const paths = getSimplePaths(exportFlowMachine, {
      input: needsConfirm,
      events: [...modelEvents] as never,
      serializeState: (snapshot) => JSON.stringify(snapshot.value),
    })
    const toDownload = paths.filter((path) => path.state.matches('downloading'))
    expect(toDownload.length).toBeGreaterThan(0)
    for (const path of toDownload) {
      const confirmed = path.steps.some((step) => {
        const event = step.event as { type: string; output?: { status?: string } }
        return event.type === 'xstate.done.actor.confirm' && event.output?.status === 'confirmed'
      })
      expect(confirmed).toBe(true)
    }
  })
})

describe('exportFlow machine — scenarios', () => {
  it('applies the scope rules', () => {
    expect(isScopeEnabled('all', { selectedCount: 0, hasFilters: true })).toBe(false)
    expect(isScopeEnabled('all', { selectedCount: 0, hasFilters: false })).toBe(true)
    expect(isScopeEnabled('selected', { selectedCount: 0, hasFilters: false })).toBe(false)
    expect(isScopeEnabled('filtered', { selectedCount: 3, hasFilters: false })).toBe(false)
    expect(defaultScope({ selectedCount: 3, hasFilters: true })).toBe('selected')
    expect(defaultScope({ selectedCount: 0, hasFilters: true })).toBe('filtered')
    expect(defaultScope({ selectedCount: 0, hasFilters: false })).toBe('all')
  })

  it('confirms through the confirm machine, then downloads the chosen scope and format', async () => {
    const { actor, download, check, errors } = start(inputs[0]!)
    expect(actor.getSnapshot().value).toBe('confirming')
    expect(actor.getSnapshot().children.confirm).toBeDefined()
    await flushMicrotasks()
    expect(check).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().value).toBe('options')
    actor.send({ type: 'SET_SCOPE', scope: 'filtered' })
    expect(actor.getSnapshot().context.scope).toBe('selected')
    actor.send({ type: 'SET_SCOPE', scope: 'all' })
    actor.send({ type: 'SET_FORMAT', format: 'xlsx' })
    actor.send({ type: 'SUBMIT' })
    await flushMicrotasks()
    expect(download).toHaveBeenCalledWith(expect.objectContaining({ scope: 'all', format: 'xlsx' }))
    expect(actor.getSnapshot().output).toEqual({ status: 'downloaded', scope: 'all', format: 'xlsx' })
    expect(errors).toEqual([])
  })

  it('reports progress, and retries a failed download', async () => {
    let calls = 0
    const { actor, download } = start(inputs[1]!, async ({ onProgress }) => {
      calls += 1
      onProgress({ loaded: 10, total: 100 })
      if (calls === 1) throw { status: 500 }
      return undefined
    })
    expect(actor.getSnapshot().context.scope).toBe('filtered')
    actor.send({ type: 'SUBMIT' })
    await flushMicrotasks()
    expect(actor.getSnapshot().value).toBe('error')
    expect(actor.getSnapshot().context).toMatchObject({ error: { status: 500 }, progress: { loaded: 10, total: 100 } })
    actor.send({ type: 'RETRY' })
    await flushMicrotasks()
    expect(download).toHaveBeenCalledTimes(2)
    expect(actor.getSnapshot().output).toEqual({ status: 'downloaded', scope: 'filtered', format: 'csv' })
  })

  it('confirms a download the server refuses for want of a confirmation, then downloads again — once', async () => {
    const refused = { status: 400, code: 'mfa', url: '/api/v1/users/users/?confirm=mfa&format=csv' }
    let calls = 0
    const { actor, download, check } = start(inputs[1]!, async () => {
      calls += 1
      if (calls <= 2) throw refused
      return undefined
    })
    actor.send({ type: 'SUBMIT' })
    await flushMicrotasks()
    expect(check).toHaveBeenCalledWith(expect.objectContaining({ input: { url: refused.url } }))
    expect(download).toHaveBeenCalledTimes(2)
    // the second refusal right after a confirmation is an error, not a loop
    expect(actor.getSnapshot().value).toBe('error')
    expect(actor.getSnapshot().context.error).toEqual(refused)
    actor.send({ type: 'RETRY' })
    await flushMicrotasks()
    expect(download).toHaveBeenCalledTimes(3)
    expect(actor.getSnapshot().output).toEqual({ status: 'downloaded', scope: 'filtered', format: 'csv' })
    expect(confirmationAsked({ status: 400, code: 'mfa' })).toBeNull()
    expect(confirmationAsked({ status: 403, code: 'mfa', url: '/x' })).toBeNull()
    expect(confirmationAsked({ response: { status: 400 }, code: 'password', url: '/x' })).toBe('/x')
  })

  it('ends cancelled when the confirmation is cancelled or on CANCEL', async () => {
    const { actor } = start(inputs[0]!)
    actor.getSnapshot().children.confirm?.send({ type: 'CANCEL' })
    await flushMicrotasks()
    expect(actor.getSnapshot().output).toEqual({ status: 'cancelled' })
    const second = start(inputs[1]!, () => new Promise(() => {}))
    second.actor.send({ type: 'SUBMIT' })
    second.actor.send({ type: 'CANCEL' })
    expect(second.actor.getSnapshot().output).toEqual({ status: 'cancelled' })
  })
})
