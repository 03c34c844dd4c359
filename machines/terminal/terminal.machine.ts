/**
 * terminal — one web terminal tab's connection (docs/terminal.md, "Web terminal"; docs/machines/terminal.md).
 *
 * The websocket is the caller's `socket` callback actor, invoked for the machine's whole life: the machine sends it
 * CONNECT (a connection token), ATTACH (a session and its resume key) or CLOSE, and it sends back one event per
 * server frame (SESSION_INFO, WAIT, WAIT_END, SERVER_ERROR, SERVER_CLOSE) or DROPPED when a websocket closed without
 * a `close` frame. Terminal output never passes through the machine (the socket writes it to the screen).
 *
 * connecting → (waiting for approval) → open; a drop while open goes to reconnecting, which re-attaches with the
 * resume key after 1, 2, 4, 8, 8 … s until the server's 60 s window is over (then failed); closed and failed are
 * final. koko and luna keep no web session across a reconnect: here the same SSH session goes on, screen restored.
 */
import { assertEvent, assign, fromCallback, sendTo, setup } from 'xstate'
import { notProvided } from '../shared/errors.ts'
import type {
  TerminalContext, TerminalEvent, TerminalInput, TerminalProblem, TerminalSocketCommand, TerminalSocketEvent,
} from './terminal.types.ts'

/** The server keeps a dropped session this long for a re-attach (TERMINAL-WS protocol). */
export const RESUME_WINDOW_MS = 60_000
export const RETRY_BASE_MS = 1_000
export const RETRY_MAX_MS = 8_000

/** Wait before re-attach attempt `attempts` (0-based): 1 s, 2 s, 4 s, 8 s, 8 s … */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts), RETRY_MAX_MS)
}

const problem = (code: string, message = ''): TerminalProblem => ({ code, message })

const terminalSetup = setup({
  types: {
    input: {} as TerminalInput,
    context: {} as TerminalContext,
    events: {} as TerminalEvent,
  },
  actors: {
    /** The websocket (src/api/terminalSocket.ts): opens one per CONNECT / ATTACH, sends back its frames. */
    socket: fromCallback<TerminalSocketCommand, void, TerminalSocketEvent>(() => notProvided('terminal', 'socket')),
  },
  actions: {
    connect: sendTo('socket', ({ context }): TerminalSocketCommand => ({ type: 'CONNECT', token: context.token })),
    attach: sendTo('socket', ({ context }): TerminalSocketCommand => ({
      type: 'ATTACH', session: context.session?.id ?? '', resume: context.session?.resume ?? '',
    })),
    closeSocket: sendTo('socket', { type: 'CLOSE' } satisfies TerminalSocketCommand),
    setSession: assign(({ event }) => {
      assertEvent(event, 'SESSION_INFO')
      return { session: event.session, wait: null }
    }),
    setWait: assign(({ event }) => {
      assertEvent(event, 'WAIT')
      return { wait: event.wait }
    }),
    clearWait: assign({ wait: null }),
    setError: assign(({ event }) => {
      assertEvent(event, 'SERVER_ERROR')
      return { error: event.problem }
    }),
    setNotice: assign(({ event }) => {
      assertEvent(event, 'SERVER_ERROR')
      return { notice: event.problem }
    }),
    setClosed: assign(({ event }) => {
      assertEvent(event, 'SERVER_CLOSE')
      return { closed: event.problem, wait: null }
    }),
  },
  delays: {
    retryDelay: ({ context }) => retryDelay(context.attempts),
    resumeWindow: RESUME_WINDOW_MS,
  },
})

export const terminalMachine = terminalSetup.createMachine({
  id: 'terminal',
  description: 'One web terminal tab: connect on a connection token, wait for approval, open; a dropped socket ' +
    're-attaches to the same session within 60 s (screen restored); closed by the server or the user, or failed.',
  context: ({ input }) => ({
    token: input.token,
    session: null,
    wait: null,
    error: null,
    closed: null,
    notice: null,
    attempts: 0,
    restores: 0,
  }),
  invoke: { id: 'socket', src: 'socket' },
  initial: 'starting',
  on: {
    CLOSE: { target: '.closed', actions: ['closeSocket', assign({ closed: problem('user') })] },
    SERVER_CLOSE: { target: '.closed', actions: 'setClosed' },
    DISMISS_NOTICE: { actions: assign({ notice: null }) },
  },
  states: {
    starting: {
      entry: 'connect',
      initial: 'connecting',
      on: {
        SERVER_ERROR: { target: 'failed', actions: 'setError' },
        DROPPED: { target: 'failed', actions: assign({ error: problem('dropped') }) },
      },
      states: {
        connecting: {
          on: {
            SESSION_INFO: { target: '#terminal.open', actions: 'setSession' },
            WAIT: { target: 'waitingApproval', actions: 'setWait' },
          },
        },
        waitingApproval: {
          on: {
            SESSION_INFO: { target: '#terminal.open', actions: 'setSession' },
            WAIT_END: { target: 'connecting', actions: 'clearWait' },
          },
        },
      },
    },
    open: {
      on: {
        // session-info again (an attach, or the server's update): the new resume key
        SESSION_INFO: { actions: 'setSession' },
        WAIT: { actions: 'setWait' },
        WAIT_END: { actions: 'clearWait' },
        // a refused command and the like: the session goes on (a fatal one is followed by `close`)
        SERVER_ERROR: { actions: 'setNotice' },
        DROPPED: { target: 'reconnecting', actions: assign({ attempts: 0, wait: null }) },
      },
    },
    reconnecting: {
      initial: 'pausing',
      after: { resumeWindow: { target: 'failed', actions: assign({ error: problem('resume_expired') }) } },
      on: {
        SERVER_ERROR: { target: 'failed', actions: 'setError' },
      },
      states: {
        pausing: {
          after: { retryDelay: 'attaching' },
          on: { RETRY_NOW: 'attaching' },
        },
        attaching: {
          entry: 'attach',
          on: {
            SESSION_INFO: {
              target: '#terminal.open',
              actions: ['setSession', assign({ attempts: 0, restores: ({ context }) => context.restores + 1 })],
            },
            DROPPED: { target: 'pausing', actions: assign({ attempts: ({ context }) => context.attempts + 1 }) },
          },
        },
      },
    },
    closed: { type: 'final' },
    failed: { type: 'final' },
  },
})
