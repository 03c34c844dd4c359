/** Types of the siteMessages machine (spec §4.5, contract §2.8, api §4.13–4.14). */

export interface SiteMessage {
  id: string
  has_read: boolean
  read_at?: string | null
  date_created: string
  content: { id?: string; subject: string; message: string; sender?: string }
}

/** One page of `GET /api/v1/notifications/site-messages/?offset=0&limit=15&has_read=false`. */
export interface SiteMessagePage {
  results: readonly SiteMessage[]
  count: number
}

export interface FetchUnreadInput {
  offset: number
  limit: number
}

export interface SiteMessagesInput {
  /** Drawer page size; default 15 (spec §9). */
  pageSize?: number
}

export type SocketEvent =
  | { type: 'OPEN' }
  /** A websocket frame: the raw text or the parsed JSON (`{"type": "unread_count", "unread_count": 4}`). */
  | { type: 'MESSAGE'; data: unknown }
  | { type: 'CLOSE'; code?: number; reason?: string }
  | { type: 'ERROR'; error?: unknown }

export type SiteMessagesEvent =
  | SocketEvent
  /** Reconnect now instead of waiting (e.g. the browser went back online). */
  | { type: 'RECONNECT' }
  | { type: 'OPEN_DRAWER' }
  | { type: 'CLOSE_DRAWER' }
  | { type: 'REFRESH' }
  | { type: 'MARK_READ'; ids: readonly string[] }
  | { type: 'MARK_ALL_READ' }

/** The last connection problem ("Connect Websocket failed" in the UI). */
export type SocketProblem = { kind: 'closed'; code: number | null } | { kind: 'error'; error: unknown }

export type DrawerError =
  | { kind: 'load_failed'; error: unknown }
  | { kind: 'mark_read_failed'; error: unknown }
  | { kind: 'mark_all_read_failed'; error: unknown }

export interface SiteMessagesContext {
  pageSize: number
  /** Unread messages of the user (the UI caps the badge at 99). */
  unreadCount: number
  /** The drawer list: first page of unread messages. */
  messages: readonly SiteMessage[]
  /** Unread total according to the last list load. */
  total: number
  /** Delay before the next reconnection; null while connected or connecting for the first time. */
  retryInMs: number | null
  socketProblem: SocketProblem | null
  drawerError: DrawerError | null
  /** Ids being marked as read. */
  markingIds: readonly string[]
}

export const SITE_MESSAGES_PAGE_SIZE = 15
export const RECONNECT_BASE_MS = 1_000
export const RECONNECT_MAX_MS = 30_000
