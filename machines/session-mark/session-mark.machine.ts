/**
 * sessionMark — keepalive of the `jms_session_expire` cookie (spec §4.1, contract §2.2).
 *
 * - `close` (session ends with the browser): the caller's `refreshMark` action rewrites the cookie as `close`
 *   with a 2-minute expiry, on start and then every 10 s. The timer is a delayed self-transition, so stopping
 *   the actor (or leaving the state) cancels it: a restarted start-up never leaves a second timer behind, which
 *   was lina's stacking `setInterval` bug.
 * - `age` (server-side session age): nothing to do.
 * - no mark: `expired` (final) and an `expired` emitted event; the app logs out.
 */
import { setup } from 'xstate'
import { notProvided } from '../shared/errors.ts'

export const SESSION_MARK_COOKIE = 'jms_session_expire'
export const SESSION_MARK_REFRESH_MS = 10_000
export const SESSION_MARK_EXPIRY_MS = 2 * 60_000

export interface SessionMarkInput {
  /** Value of the `jms_session_expire` cookie: `close`, `age`, or missing. */
  mark: string | null | undefined
}

export interface SessionMarkContext {
  mark: string | null
}

export type SessionMarkEvent = { type: 'STOP' }
export type SessionMarkEmitted = { type: 'expired' }
export type SessionMarkOutput = { reason: 'expired' | 'stopped' }

/** Parameters of `refreshMark`: write cookie `name=value` expiring in `expiresInMs`. */
export interface RefreshMarkParams {
  name: typeof SESSION_MARK_COOKIE
  value: 'close'
  expiresInMs: number
}

const sessionMarkSetup = setup({
  types: {
    input: {} as SessionMarkInput,
    context: {} as SessionMarkContext,
    events: {} as SessionMarkEvent,
    emitted: {} as SessionMarkEmitted,
    output: {} as SessionMarkOutput,
  },
  actions: {
    /** Rewrite the session mark cookie. Default: throws (must be provided). */
    refreshMark: (_, _params: RefreshMarkParams) => notProvided('sessionMark', 'refreshMark'),
  },
  guards: {
    closesWithBrowser: ({ context }) => context.mark === 'close',
    hasMark: ({ context }) => context.mark !== null && context.mark !== '',
  },
  delays: {
    refreshInterval: SESSION_MARK_REFRESH_MS,
  },
})

export const sessionMarkMachine = sessionMarkSetup.createMachine({
  id: 'sessionMark',
  description: 'Keeps the jms_session_expire=close cookie alive every 10 s; no mark means the session expired. ' +
    'The timer is a delayed self-transition, so a restarted start-up never stacks timers (lina re-created a setInterval each time).',
  context: ({ input }) => ({ mark: input.mark ?? null }),
  initial: 'checking',
  output: ({ event }) => event.output as SessionMarkOutput,
  on: { STOP: '.stopped' },
  states: {
    checking: {
      always: [{ guard: 'closesWithBrowser', target: 'keepingAlive' }, { guard: 'hasMark', target: 'serverManaged' }, { target: 'expired' }],
    },
    keepingAlive: {
      entry: {
        type: 'refreshMark',
        params: { name: SESSION_MARK_COOKIE, value: 'close', expiresInMs: SESSION_MARK_EXPIRY_MS },
      },
      after: { refreshInterval: { target: 'keepingAlive', reenter: true } },
    },
    serverManaged: {},
    expired: {
      type: 'final',
      entry: sessionMarkSetup.emit({ type: 'expired' }),
      output: { reason: 'expired' },
    },
    stopped: { type: 'final', output: { reason: 'stopped' } },
  },
})
