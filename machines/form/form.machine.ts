/**
 * resourceForm — a create/update form or edit dialog (spec §5: GenericCreateUpdatePage).
 *
 * loading (`load`: the object and its OPTIONS; a route's loader starts it while the page's code loads) → ready,
 * where it waits for the form's starting values (START) → editing. SUBMIT → validating (`validate`: the rules of
 * every field and the body to send) → back to editing with the errors (errorTick bumps: the view focuses the first)
 * or → submitting (`save`) → saved, or failed with the server's field errors mapped onto the form by the pure
 * `formErrorsOf` (server-errors.ts). Values typed stay through every failure. From saved the form goes on
 * (START for "Save and continue", a settings page showing what the server saved; CHANGE, SUBMIT).
 * `load`, `validate` and `save` are given from outside (src/ui/form/formActor.ts); the machine does no I/O.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { SnapshotFrom } from 'xstate'
import { notProvided } from '../shared/errors.ts'
import type { FormCheck, FormValues, ResourceFormContext, ResourceFormEvent, ResourceFormInput } from './form.types.ts'
import { formErrorsOf, type SaveFailure } from './server-errors.ts'

/** A save's rejection as the machine reads it (anything else is shown as it is). */
export function saveFailureOf(error: unknown): SaveFailure {
  if (typeof error === 'object' && error !== null && typeof (error as SaveFailure).message === 'string') return error as SaveFailure
  return { message: String(error) }
}

const hasErrors = (check: FormCheck) => Object.keys(check.errors).length > 0 || check.topErrors.length > 0 || check.body === undefined

export const resourceFormMachine = setup({
  types: {
    input: {} as ResourceFormInput,
    context: {} as ResourceFormContext,
    events: {} as ResourceFormEvent,
  },
  actors: {
    /** Resolves when the object (update, clone) and the form's metadata are in; rejects with the load's error. */
    load: fromPromise<void, void>(async () => notProvided('resourceForm', 'load')),
    /** Checks the values and builds the body (secrets encrypted); rejects only when the body cannot be built. */
    validate: fromPromise<FormCheck, { values: FormValues }>(async () => notProvided('resourceForm', 'validate')),
    /** Sends the body; resolves with the saved object, rejects with a SaveFailure. */
    save: fromPromise<Readonly<Record<string, unknown>>, { body: FormValues }>(async () => notProvided('resourceForm', 'save')),
  },
  actions: {
    start: assign(({ event }) => {
      assertEvent(event, 'START')
      return { values: event.values, labels: event.labels, errors: {}, topErrors: [], body: null }
    }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE')
      let errors = context.errors
      if (event.clearUnder) errors = Object.fromEntries(Object.entries(errors).filter(([k]) => !k.startsWith(`${event.name}.`)))
      if (event.error !== undefined) errors = withError(errors, event.name, event.error)
      return { values: { ...context.values, [event.name]: event.value }, errors }
    }),
    checked: assign(({ context, event }) => {
      assertEvent(event, 'CHECKED')
      return { errors: withError(context.errors, event.name, event.error) }
    }),
    setValues: assign(({ context, event }) => {
      assertEvent(event, 'SET_VALUES')
      return { values: { ...context.values, ...event.values } }
    }),
  },
  guards: {
    refused: ({ event }) => hasErrors((event as unknown as { output: FormCheck }).output),
  },
}).createMachine({
  id: 'resourceForm',
  context: ({ input }) => ({
    mode: input.mode, values: {}, labels: {}, errors: {}, topErrors: [], errorTick: 0, body: null, shape: null, saved: null, loadError: undefined,
  }),
  initial: 'loading',
  states: {
    loading: {
      initial: 'fetching',
      states: {
        fetching: {
          invoke: {
            id: 'load',
            src: 'load',
            onDone: { target: 'ready' },
            onError: { target: '#resourceForm.loadFailed', actions: assign({ loadError: ({ event }) => event.error }) },
          },
        },
        /** the object and metadata are in; the form computes its starting values from them */
        ready: {
          on: { START: { target: '#resourceForm.editing', actions: 'start' } },
        },
      },
    },
    loadFailed: {},
    editing: {
      on: {
        CHANGE: { actions: 'change' },
        CHECKED: { actions: 'checked' },
        SET_VALUES: { actions: 'setValues' },
        START: { target: 'editing', reenter: true, actions: 'start' },
        SUBMIT: { target: 'validating' },
      },
    },
    validating: {
      invoke: {
        id: 'validate',
        src: 'validate',
        input: ({ context }) => ({ values: context.values }),
        onDone: [
          {
            guard: 'refused',
            target: 'editing',
            actions: assign(({ context, event }) => ({
              errors: event.output.errors, topErrors: event.output.topErrors, shape: event.output.shape, errorTick: context.errorTick + 1,
            })),
          },
          {
            target: 'submitting',
            actions: assign(({ event }) => ({ errors: {}, topErrors: [], body: event.output.body ?? null, shape: event.output.shape })),
          },
        ],
        onError: {
          target: 'editing',
          actions: assign(({ context, event }) => ({ errors: {}, topErrors: [saveFailureOf(event.error).message], errorTick: context.errorTick + 1 })),
        },
      },
    },
    submitting: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ body: context.body ?? {} }),
        onDone: { target: 'saved', actions: assign({ saved: ({ event }) => event.output, body: null }) },
        onError: {
          target: 'failed',
          actions: assign(({ context, event }) => ({
            ...formErrorsOf(saveFailureOf(event.error), context.shape ?? { order: [], nested: {}, labels: {} }),
            errorTick: context.errorTick + 1,
            body: null,
          })),
        },
      },
    },
    saved: {
      on: {
        START: { target: 'editing', actions: 'start' },
        CHANGE: { target: 'editing', actions: 'change' },
        CHECKED: { actions: 'checked' },
        SET_VALUES: { actions: 'setValues' },
        SUBMIT: { target: 'validating' },
      },
    },
    failed: {
      on: {
        CHANGE: { target: 'editing', actions: 'change' },
        CHECKED: { actions: 'checked' },
        SET_VALUES: { actions: 'setValues' },
        START: { target: 'editing', actions: 'start' },
        SUBMIT: { target: 'validating' },
      },
    },
  },
})

function withError(errors: Record<string, string>, name: string, message: string | null): Record<string, string> {
  if ((errors[name] ?? null) === message) return errors
  const next = { ...errors }
  if (message) next[name] = message
  else delete next[name]
  return next
}

export type ResourceFormSnapshot = SnapshotFrom<typeof resourceFormMachine>

/** What the form shows: loading, the load's failure, or the form (saving while the body is sent). */
export function formStatus(snapshot: ResourceFormSnapshot): 'loading' | 'error' | 'ready' {
  if (snapshot.matches('loading')) return 'loading'
  return snapshot.matches('loadFailed') ? 'error' : 'ready'
}
