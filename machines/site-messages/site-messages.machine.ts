/**
 * siteMessages — the site-message websocket and drawer (spec §4.5, contract §2.8).
 *
 * Three parallel regions:
 * - `connection`: the caller's `socket` callback actor (OPEN / MESSAGE / CLOSE / ERROR) is invoked while
 *   `active`; a close or error waits 1 s, 2 s, 4 s … capped at 30 s (reset by a successful open), then reconnects.
 *   The reference console had no reconnect at all.
 * - `drawer`: closed, or open with the first page of unread messages (`fetchUnread`).
 * - `marking`: `markRead` / `markAllRead`; they finish even if the drawer is closed, then the list reloads.
 */
import { assertEvent, assign, fromCallback, fromPromise, raise, setup } from 'xstate'
import { notProvided } from '../shared/errors.ts'
import {
  RECONNECT_BASE_MS,
  RECONNECT_MAX_MS,
  SITE_MESSAGES_PAGE_SIZE,
  type FetchUnreadInput,
  type SiteMessagePage,
  type SiteMessagesContext,
  type SiteMessagesEvent,
  type SiteMessagesInput,
  type SocketEvent,
} from './site-messages.types.ts'

const missing = (name: string) => notProvided('siteMessages', name)

/** Back-off after a failure: 1 s, then doubled, capped at 30 s. */
export function nextRetryDelay(previous: number | null): number {
  return previous === null ? RECONNECT_BASE_MS : Math.min(previous * 2, RECONNECT_MAX_MS)
}

/** `unread_count` of a websocket frame (raw JSON text or parsed object); null when there is none. */
export function parseUnreadCount(data: unknown): number | null {
  let value = data
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown
    } catch {
      return null
    }
  }
  if (typeof value !== 'object' || value === null) return null
  const count = (value as { unread_count?: unknown }).unread_count
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null
}

const siteMessagesSetup = setup({
  types: {
    input: {} as SiteMessagesInput,
    context: {} as SiteMessagesContext,
    events: {} as SiteMessagesEvent,
  },
  actors: {
    /** Opens `/ws/notifications/site-msg/`, sends back OPEN / MESSAGE / CLOSE / ERROR, closes on dispose. */
    socket: fromCallback<SocketEvent>(() => missing('socket')),
    /** `GET …/site-messages/?offset&limit&has_read=false`. */
    fetchUnread: fromPromise<SiteMessagePage, FetchUnreadInput>(async () => missing('fetchUnread')),
    /** `PATCH …/site-messages/mark-as-read/ {ids}`. */
    markRead: fromPromise<unknown, { ids: readonly string[] }>(async () => missing('markRead')),
    /** `PATCH …/site-messages/mark-as-read-all/`. */
    markAllRead: fromPromise<unknown, void>(async () => missing('markAllRead')),
  },
  actions: {
    /** Drop the marked messages from the list and the count at once; the reload (drawer open) confirms it. */
    applyMarkedRead: assign(({ context }) => {
      const marked = new Set(context.markingIds)
      const messages = context.messages.filter((message) => !marked.has(message.id))
      return {
        messages,
        total: Math.max(0, context.total - (context.messages.length - messages.length)),
        unreadCount: Math.max(0, context.unreadCount - marked.size),
        markingIds: [],
        drawerError: null,
      }
    }),
  },
  guards: {
    hasUnreadCount: ({ event }) => {
      assertEvent(event, 'MESSAGE')
      return parseUnreadCount(event.data) !== null
    },
    changesUnreadCount: ({ context, event }) => {
      assertEvent(event, 'MESSAGE')
      const count = parseUnreadCount(event.data)
      return count !== null && count !== context.unreadCount
    },
    hasIds: ({ event }) => {
      assertEvent(event, 'MARK_READ')
      return event.ids.length > 0
    },
  },
  delays: {
    retryDelay: ({ context }) => context.retryInMs ?? RECONNECT_BASE_MS,
  },
})

export const siteMessagesMachine = siteMessagesSetup.createMachine({
  id: 'siteMessages',
  description: 'Site-message websocket with back-off reconnect, unread count, drawer list and mark-as-read. ' +
    'Lina had no reconnect: here a close or error retries after 1, 2, 4 … 30 s; mark-as-read finishes even if the drawer closes.',
  type: 'parallel',
  context: ({ input }) => ({
    pageSize: input.pageSize ?? SITE_MESSAGES_PAGE_SIZE,
    unreadCount: 0,
    messages: [],
    total: 0,
    retryInMs: null,
    socketProblem: null,
    drawerError: null,
    markingIds: [],
  }),
  states: {
    connection: {
      initial: 'active',
      states: {
        active: {
          invoke: { id: 'socket', src: 'socket' },
          initial: 'connecting',
          on: {
            MESSAGE: {
              guard: 'hasUnreadCount',
              actions: assign({ unreadCount: ({ event }) => parseUnreadCount(event.data) ?? 0 }),
            },
            CLOSE: {
              target: 'waiting',
              actions: assign({
                retryInMs: ({ context }) => nextRetryDelay(context.retryInMs),
                socketProblem: ({ event }) => ({ kind: 'closed', code: event.code ?? null }),
              }),
            },
            ERROR: {
              target: 'waiting',
              actions: assign({
                retryInMs: ({ context }) => nextRetryDelay(context.retryInMs),
                socketProblem: ({ event }) => ({ kind: 'error', error: event.error ?? null }),
              }),
            },
          },
          states: {
            connecting: { on: { OPEN: 'open' } },
            reconnecting: { on: { OPEN: 'open' } },
            open: {
              entry: assign({ retryInMs: null, socketProblem: null }),
            },
          },
        },
        waiting: {
          after: { retryDelay: 'active.reconnecting' },
          on: { RECONNECT: 'active.reconnecting' },
        },
      },
    },
    drawer: {
      initial: 'closed',
      states: {
        closed: {
          on: { OPEN_DRAWER: 'open' },
        },
        open: {
          initial: 'loading',
          on: { CLOSE_DRAWER: 'closed' },
          states: {
            loading: {
              invoke: {
                id: 'fetchUnread',
                src: 'fetchUnread',
                input: ({ context }) => ({ offset: 0, limit: context.pageSize }),
                onDone: {
                  target: 'shown',
                  actions: assign({
                    messages: ({ event }) => event.output.results,
                    total: ({ event }) => event.output.count,
                    unreadCount: ({ event }) => event.output.count,
                    drawerError: null,
                  }),
                },
                onError: { target: 'failed', actions: assign({ drawerError: ({ event }) => ({ kind: 'load_failed', error: event.error }) }) },
              },
            },
            shown: {
              on: {
                REFRESH: 'loading',
                MESSAGE: { guard: 'changesUnreadCount', target: 'loading' },
              },
            },
            failed: {
              on: { REFRESH: 'loading' },
            },
          },
        },
      },
    },
    marking: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            MARK_READ: { guard: 'hasIds', target: 'markingRead', actions: assign({ markingIds: ({ event }) => [...new Set(event.ids)] }) },
            MARK_ALL_READ: 'markingAllRead',
          },
        },
        markingRead: {
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }) => ({ ids: context.markingIds }),
            onDone: { target: 'idle', actions: ['applyMarkedRead', raise({ type: 'REFRESH' })] },
            onError: {
              target: 'idle',
              actions: assign({ markingIds: [], drawerError: ({ event }) => ({ kind: 'mark_read_failed', error: event.error }) }),
            },
          },
        },
        markingAllRead: {
          invoke: {
            id: 'markAllRead',
            src: 'markAllRead',
            onDone: { target: 'idle', actions: [assign({ unreadCount: 0, messages: [], total: 0, drawerError: null }), raise({ type: 'REFRESH' })] },
            onError: {
              target: 'idle',
              actions: assign({ drawerError: ({ event }) => ({ kind: 'mark_all_read_failed', error: event.error }) }),
            },
          },
        },
      },
    },
  },
})
