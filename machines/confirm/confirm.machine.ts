/**
 * confirm — confirmation before a sensitive action (spec §4.2, contract §2.7, api §4.16).
 *
 * checking (GET the protected URL) → done when it answers, else fetchingMethods (which confirmation the user can
 * give) → relogin users: silentRelogin (empty secret), done or needRelogin; password / MFA: verifying (form and
 * SMS countdown in parallel) → submitting → done, or back to asking with the error. CANCEL anywhere → cancelled.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import { notProvided } from '../shared/errors.ts'
import {
  OTP_CODE_LENGTH,
  SMS_COUNTDOWN_SECONDS,
  type ConfirmCheckResult,
  type ConfirmContext,
  type ConfirmEvent,
  type ConfirmInput,
  type ConfirmMethodsResult,
  type ConfirmOutput,
  type SubmitConfirmInput,
} from './confirm.types.ts'

const missing = (name: string) => notProvided('confirm', name)

function firstEnabled(result: ConfirmMethodsResult): string | null {
  return Array.isArray(result.content) ? (result.content.find((method) => !method.disabled)?.name ?? null) : null
}

/** Why a code cannot be sent as typed; null when it can. OTP must be exactly 6 characters (spec §5). */
export function codeProblem(method: string | null, code: string): 'mfa_invalid_format' | 'secret_required' | null {
  if (method === 'password') return code === '' ? 'secret_required' : null
  const trimmed = code.trim()
  if (method === 'otp') return trimmed.length === OTP_CODE_LENGTH ? null : 'mfa_invalid_format'
  return trimmed === '' ? 'secret_required' : null
}

export const confirmMachine = setup({
  types: {
    input: {} as ConfirmInput,
    context: {} as ConfirmContext,
    events: {} as ConfirmEvent,
    output: {} as ConfirmOutput,
  },
  actors: {
    /** GET the protected URL (flash suppressed). */
    check: fromPromise<ConfirmCheckResult, { url: string }>(async () => missing('check')),
    /** `GET /api/v1/authentication/confirm/?confirm_type=…`. */
    getConfirmMethods: fromPromise<ConfirmMethodsResult, { confirmType: string | null }>(async () => missing('getConfirmMethods')),
    /** `POST /api/v1/authentication/confirm/`. */
    submitConfirm: fromPromise<unknown, SubmitConfirmInput>(async () => missing('submitConfirm')),
    /** `POST /api/v1/authentication/mfa/select/ {type: 'sms'}`. */
    sendSmsCode: fromPromise<unknown, void>(async () => missing('sendSmsCode')),
  },
  guards: {
    alreadyConfirmed: (_, result: ConfirmCheckResult) => result.confirmed,
    offersRelogin: (_, result: ConfirmMethodsResult) => result.confirm_type === 'relogin',
    offersPassword: (_, result: ConfirmMethodsResult) => result.confirm_type === 'password',
    offersMfaMethod: (_, result: ConfirmMethodsResult) => result.confirm_type === 'mfa' && firstEnabled(result) !== null,
    isEnabledMethod: ({ context, event }) => {
      assertEvent(event, 'SELECT_METHOD')
      return context.methods.some((method) => method.name === event.method && !method.disabled)
    },
    codeRejected: ({ context, event }) => {
      assertEvent(event, 'SUBMIT')
      return codeProblem(context.method, event.code) !== null
    },
    smsSelected: ({ context }) => context.method === 'sms',
    countdownRunning: ({ context }) => context.smsCountdown > 1,
  },
  delays: {
    smsTick: 1_000,
  },
}).createMachine({
  id: 'confirm',
  description: 'Sensitive-action confirmation: already confirmed, re-login, password or MFA (OTP/SMS). ' +
    'Unlike lina, a failed check without a confirm code ends in failed instead of asking for confirm_type=undefined, ' +
    'an empty code is refused before any request, and all-disabled MFA methods fail at once.',
  context: ({ input }) => ({
    url: input.url,
    requestedType: null,
    confirmType: null,
    methods: [],
    method: null,
    error: null,
    failure: null,
    reloginError: null,
    smsCountdownSeconds: input.smsCountdownSeconds ?? SMS_COUNTDOWN_SECONDS,
    smsCountdown: 0,
  }),
  initial: 'checking',
  output: ({ event }) => event.output as ConfirmOutput,
  on: { CANCEL: '.cancelled' },
  states: {
    checking: {
      invoke: {
        id: 'check',
        src: 'check',
        input: ({ context }) => ({ url: context.url }),
        onDone: [
          { guard: { type: 'alreadyConfirmed', params: ({ event }) => event.output }, target: 'done' },
          {
            target: 'fetchingMethods',
            actions: assign({ requestedType: ({ event }) => (event.output.confirmed ? null : event.output.confirmType) }),
          },
        ],
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => ({ kind: 'check_failed', error: event.error }) }) },
      },
    },
    fetchingMethods: {
      invoke: {
        id: 'getConfirmMethods',
        src: 'getConfirmMethods',
        input: ({ context }) => ({ confirmType: context.requestedType }),
        onDone: [
          { guard: { type: 'offersRelogin', params: ({ event }) => event.output }, target: 'silentRelogin', actions: assign({ confirmType: 'relogin' }) },
          { guard: { type: 'offersPassword', params: ({ event }) => event.output }, target: 'verifying', actions: assign({ confirmType: 'password', method: 'password' }) },
          {
            guard: { type: 'offersMfaMethod', params: ({ event }) => event.output },
            target: 'verifying',
            actions: assign({
              confirmType: 'mfa',
              methods: ({ event }) => (Array.isArray(event.output.content) ? event.output.content : []),
              method: ({ event }) => firstEnabled(event.output),
            }),
          },
          { target: 'failed', actions: assign({ failure: { kind: 'no_enabled_method' } }) },
        ],
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => ({ kind: 'auth_mfa_error', error: event.error }) }) },
      },
    },
    silentRelogin: {
      invoke: {
        id: 'submitConfirm',
        src: 'submitConfirm',
        input: { confirmType: 'relogin', mfaType: null, secret: '' },
        onDone: 'done',
        onError: { target: 'needRelogin', actions: assign({ reloginError: ({ event }) => event.error }) },
      },
    },
    needRelogin: {
      on: { RELOGIN: 'relogin' },
    },
    verifying: {
      type: 'parallel',
      states: {
        form: {
          initial: 'asking',
          states: {
            asking: {
              on: {
                SELECT_METHOD: { guard: 'isEnabledMethod', actions: assign({ method: ({ event }) => event.method, error: null }) },
                SUBMIT: [
                  {
                    guard: 'codeRejected',
                    actions: assign({ error: ({ context, event }) => ({ kind: codeProblem(context.method, event.code) ?? 'secret_required' }) }),
                  },
                  { target: 'submitting', actions: assign({ error: null }) },
                ],
              },
            },
            submitting: {
              invoke: {
                id: 'submitConfirm',
                src: 'submitConfirm',
                input: ({ context, event }) => {
                  assertEvent(event, 'SUBMIT')
                  const password = context.method === 'password'
                  return {
                    confirmType: context.confirmType ?? 'mfa',
                    mfaType: password ? null : context.method,
                    secret: password ? event.code : event.code.trim(),
                  }
                },
                onDone: '#confirm.done',
                onError: { target: 'asking', actions: assign({ error: ({ event }) => ({ kind: 'submit_failed', error: event.error }) }) },
              },
            },
          },
        },
        sms: {
          initial: 'ready',
          states: {
            ready: {
              on: { SEND_CODE: { guard: 'smsSelected', target: 'sending', actions: assign({ error: null }) } },
            },
            sending: {
              invoke: {
                id: 'sendSmsCode',
                src: 'sendSmsCode',
                onDone: { target: 'countingDown', actions: assign({ smsCountdown: ({ context }) => context.smsCountdownSeconds }) },
                onError: { target: 'ready', actions: assign({ error: ({ event }) => ({ kind: 'sms_send_failed', error: event.error }) }) },
              },
            },
            countingDown: {
              after: {
                smsTick: [
                  {
                    guard: 'countdownRunning',
                    target: 'countingDown',
                    reenter: true,
                    actions: assign({ smsCountdown: ({ context }) => context.smsCountdown - 1 }),
                  },
                  { target: 'ready', actions: assign({ smsCountdown: 0 }) },
                ],
              },
            },
          },
        },
      },
    },
    done: { type: 'final', output: { status: 'confirmed' } },
    cancelled: { type: 'final', output: { status: 'cancelled' } },
    relogin: { type: 'final', output: ({ context }) => ({ status: 'relogin', error: context.reloginError }) },
    failed: {
      type: 'final',
      output: ({ context }) => ({ status: 'failed', failure: context.failure ?? { kind: 'no_enabled_method' } }),
    },
  },
})
