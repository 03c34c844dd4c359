import { request } from './client.ts'

import type { SiteMessage, SiteMessagePage } from '../../machines/index.ts'

/** Site messages (contract §4.13, §4.14), in the shape the siteMessages machine holds. */
export type { SiteMessage, SiteMessagePage }

export const SITE_MESSAGES_URL = '/api/v1/notifications/site-messages/'
export const SITE_MESSAGES_SOCKET_PATH = '/ws/notifications/site-msg/'
/** Drawer page size (spec 000 §9). */
export const SITE_MESSAGES_PAGE = 15

export function parseSiteMessage(raw: unknown): SiteMessage | null {
  const o = (raw ?? {}) as Record<string, unknown>
  if (typeof o.id !== 'string') return null
  const content = (o.content ?? {}) as Record<string, unknown>
  const s = (v: unknown) => (typeof v === 'string' ? v : '')
  return {
    id: o.id,
    has_read: o.has_read === true,
    read_at: typeof o.read_at === 'string' ? o.read_at : null,
    date_created: s(o.date_created),
    content: { id: s(content.id), subject: s(content.subject), message: s(content.message), sender: s(content.sender) },
  }
}

/** A page of unread messages (newest first) and how many there are. */
export async function fetchUnreadMessages(page = { offset: 0, limit: SITE_MESSAGES_PAGE }, signal?: AbortSignal): Promise<SiteMessagePage> {
  const answer = await request<{ count?: unknown; results?: unknown }>('get', SITE_MESSAGES_URL, {
    signal,
    searchParams: { offset: page.offset, limit: page.limit, has_read: 'false' },
  })
  const results = (Array.isArray(answer?.results) ? answer.results : []).map(parseSiteMessage).filter((m): m is SiteMessage => m !== null)
  return { count: typeof answer?.count === 'number' ? answer.count : results.length, results }
}

export async function markMessagesRead(ids: readonly string[]): Promise<void> {
  await request('patch', `${SITE_MESSAGES_URL}mark-as-read/`, { json: { ids } })
}

export async function markAllMessagesRead(): Promise<void> {
  await request('patch', `${SITE_MESSAGES_URL}mark-as-read-all/`)
}

/** `ws[s]://host[:port]/ws/notifications/site-msg/` for the page's location. */
export function siteMessageSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${SITE_MESSAGES_SOCKET_PATH}`
}

export interface SocketHandlers {
  onOpen(): void
  /** A frame from the server (JSON text, e.g. `{"type":"unread_count","unread_count":4}`). */
  onMessage(data: string): void
  /** The socket closed (or failed to open); `code` 4401 means the server refused an anonymous user. */
  onClose(code: number): void
}

/** Opens the site-message socket; returns a function that closes it. */
export function openSiteMessageSocket(handlers: SocketHandlers, url = siteMessageSocketUrl(window.location)): () => void {
  const socket = new WebSocket(url)
  let closed = false
  socket.onopen = () => handlers.onOpen()
  socket.onmessage = (event) => handlers.onMessage(String(event.data))
  socket.onclose = (event) => {
    if (!closed) handlers.onClose(event.code)
    closed = true
  }
  return () => {
    closed = true
    socket.close()
  }
}
