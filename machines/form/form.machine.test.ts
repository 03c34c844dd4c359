// @vitest-environment node

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { MODEL_TEST_TIMEOUT, walkShortestPaths } from '../testing/model-walk.ts'
import { formStatus, resourceFormMachine, saveFailureOf } from './form.machine.ts'
import type { FormCheck, FormShape, FormValues } from './form.types.ts'
import { formErrorsOf } from './server-errors.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

const SHAPE: FormShape = { order: ['name', 'protocols', 'spec'], nested: { spec: ['owner', 'port'] }, labels: { name: 'Name', comment: 'Comment' } }
const OK: FormCheck = { errors: {}, topErrors: [], body: { name: 'web-1' }, shape: SHAPE }
const REFUSED: FormCheck = { errors: { name: 'This field is required.' }, topErrors: [], shape: SHAPE }
const BAD_REQUEST = { data: { name: ['already exists'], comment: ['too long'] }, message: 'Bad request' }

describe('resourceForm machine — model', { timeout: MODEL_TEST_TIMEOUT }, () => {
  it('walks every shortest path', async () => {
    await walkShortestPaths({
      machine: resourceFormMachine,
      inputs: [{ mode: 'create' }],
      promiseActors: ['load', 'validate', 'save'],
      events: [
        { type: 'xstate.done.actor.load' },
        { type: 'xstate.error.actor.load', error: { status: 403 } },
        { type: 'START', values: { name: '' }, labels: {} },
        { type: 'CHANGE', name: 'name', value: 'web-1', error: null },
        { type: 'CHANGE', name: 'spec', value: { owner: 'x' }, clearUnder: true },
        { type: 'CHECKED', name: 'name', error: 'This field is required.' },
        { type: 'SET_VALUES', values: { spec: { owner: '', port: 22 } } },
        { type: 'SUBMIT' },
        { type: 'xstate.done.actor.validate', output: REFUSED },
        { type: 'xstate.done.actor.validate', output: OK },
        { type: 'xstate.error.actor.validate', error: { message: 'No usable encryption key' } },
        { type: 'xstate.done.actor.save', output: { id: 'u1', name: 'web-1' } },
        { type: 'xstate.error.actor.save', error: BAD_REQUEST },
        { type: 'xstate.error.actor.save', error: { message: 'Server error' } },
      ],
      // Keep the model finite: two refusals at most (errorTick counts them).
      filter: (snapshot, event) => event.type !== 'SUBMIT' || snapshot.context.errorTick < 2,
      invariant: (snapshot) => {
        const { values, errors, topErrors, saved, body, errorTick } = snapshot.context
        // what the user typed is never lost: once started, the name stays among the values in every state
        if (!snapshot.matches('loading') && !snapshot.matches('loadFailed')) expect(values).toHaveProperty('name')
        // a save clears what was above the form (a blur after it may check a field again)
        if (snapshot.matches('saved')) {
          expect(saved).not.toBeNull()
          expect(topErrors).toEqual([])
        }
        if (snapshot.matches('submitting')) expect(body).toEqual(OK.body)
        else expect(body).toBeNull()
        if (snapshot.matches('failed')) expect(errorTick).toBeGreaterThan(0)
        if (snapshot.matches('failed')) expect(Object.keys(errors).length + topErrors.length).toBeGreaterThan(0)
        expect(formStatus(snapshot)).toBe(snapshot.matches('loading') ? 'loading' : snapshot.matches('loadFailed') ? 'error' : 'ready')
      },
    })
  })
})

/** The machine with its work given as the form gives it. */
function start(validate: (values: FormValues) => FormCheck, save: (body: FormValues) => Promise<Record<string, unknown>>) {
  const saves = vi.fn(save)
  const actor = createActor(resourceFormMachine.provide({
    actors: {
      load: fromPromise(async () => {}),
      validate: fromPromise(async ({ input }) => validate(input.values)),
      save: fromPromise(({ input }) => saves(input.body)),
    },
  }), { input: { mode: 'create' } })
  actor.start()
  return { actor, saves }
}

describe('resourceForm machine — scenarios', () => {
  it('a refused save keeps the typed values and puts the server errors on their fields; the next submit saves', async () => {
    let attempt = 0
    const { actor, saves } = start((values) => ({ errors: {}, topErrors: [], body: values, shape: SHAPE }), async (body) => {
      attempt += 1
      if (attempt === 1) throw BAD_REQUEST
      return { id: 'u1', ...body }
    })
    await waitFor(actor, (s) => s.matches({ loading: 'ready' }))
    actor.send({ type: 'START', values: { name: '' }, labels: {} })
    actor.send({ type: 'CHANGE', name: 'name', value: 'web-1' })
    actor.send({ type: 'SUBMIT' })
    const failed = await waitFor(actor, (s) => s.matches('failed'))
    expect(failed.context.values).toEqual({ name: 'web-1' })
    expect(failed.context.errors).toEqual({ name: 'already exists' })
    expect(failed.context.topErrors).toEqual(['Comment: too long'])
    expect(failed.context.errorTick).toBe(1)
    actor.send({ type: 'CHANGE', name: 'name', value: 'web-2', error: null })
    expect(actor.getSnapshot().value).toBe('editing')
    actor.send({ type: 'SUBMIT' })
    const saved = await waitFor(actor, (s) => s.matches('saved'))
    expect(saves).toHaveBeenLastCalledWith({ name: 'web-2' })
    expect(saved.context.saved).toEqual({ id: 'u1', name: 'web-2' })
    expect(saved.context.errors).toEqual({})
  })

  it('a refusal of the rules sends nothing and bumps the tick the view focuses the first error with', async () => {
    const { actor, saves } = start(() => REFUSED, async () => ({}))
    await waitFor(actor, (s) => s.matches({ loading: 'ready' }))
    actor.send({ type: 'START', values: { name: '' }, labels: {} })
    actor.send({ type: 'SUBMIT' })
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.errorTick === 1)
    expect(back.context.errors).toEqual(REFUSED.errors)
    expect(saves).not.toHaveBeenCalled()
  })

  it('events of a state that does not take them change nothing (no edits while loading, no second submit while saving)', async () => {
    const { actor } = start(() => OK, () => new Promise(() => {}))
    actor.send({ type: 'CHANGE', name: 'name', value: 'early' })
    expect(actor.getSnapshot().context.values).toEqual({})
    await waitFor(actor, (s) => s.matches({ loading: 'ready' }))
    actor.send({ type: 'START', values: { name: 'a' }, labels: {} })
    actor.send({ type: 'SUBMIT' })
    await waitFor(actor, (s) => s.matches('submitting'))
    actor.send({ type: 'SUBMIT' })
    actor.send({ type: 'CHANGE', name: 'name', value: 'late' })
    expect(actor.getSnapshot().matches('submitting')).toBe(true)
    expect(actor.getSnapshot().context.values).toEqual({ name: 'a' })
  })
})

describe('formErrorsOf (a failed save onto the form)', () => {
  it('puts messages on rendered fields, nested ones on the sub-fields shown, the rest above the form with its label', () => {
    const failure = { data: { name: ['exists'], spec: { owner: ['required'], color: ['unknown'] }, comment: ['too long'], non_field_errors: ['Pick one'] }, message: 'Bad request' }
    expect(formErrorsOf(failure, SHAPE)).toEqual({
      errors: { name: 'exists', 'spec.owner': 'required', spec: 'color: unknown' },
      topErrors: ['Pick one', 'Comment: too long'],
    })
  })

  it('a nested error on a field the form does not show as nested stays on the field', () => {
    const failure = { data: { protocols: [{ port: ['invalid'] }] }, message: 'Bad request' }
    expect(formErrorsOf(failure, SHAPE)).toEqual({ errors: { protocols: 'protocols[0].port: invalid' }, topErrors: [] })
  })

  it('a failure with nothing to map shows its sentence', () => {
    expect(formErrorsOf({ message: 'Network error' }, SHAPE)).toEqual({ errors: {}, topErrors: ['Network error'] })
    expect(formErrorsOf({ data: {}, message: 'Bad request' }, SHAPE)).toEqual({ errors: {}, topErrors: ['Bad request'] })
    expect(saveFailureOf('boom')).toEqual({ message: 'boom' })
  })
})
