import type { WebSocket } from 'ws'
import type { Database } from '../db/connection.ts'
import { unreadCount } from './store.ts'

/** The NOTIFY channel that carries "these users have new unread counts" between server processes. */
export const SITE_MSG_CHANNEL = 'site_msg_unread'
/** PostgreSQL limits a NOTIFY payload to 8000 bytes: user ids are sent in batches well below it. */
const IDS_PER_NOTIFY = 150

type Payload = { users: string[] } | { all: true }

export interface Subscriber {
  userId: string
  socket: WebSocket
  /** Sends the current unread count (or closes the socket when its session has ended). */
  push(): Promise<void>
}

/**
 * Per-process registry of open site-message sockets. Any process that changes a user's messages calls
 * `announce`; the notification reaches every process (PostgreSQL LISTEN/NOTIFY, in-process on PGlite), and each
 * pushes the new count to its own sockets of those users.
 */
export class SiteMessageHub {
  private readonly byUser = new Map<string, Set<Subscriber>>()
  private unlisten?: () => Promise<void>
  private offReconnect?: () => void

  constructor(private readonly database: Database) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(SITE_MSG_CHANNEL, (raw) => void this.onNotify(raw))
    // Notifications sent while the LISTEN connection was down are lost: every socket re-reads its count.
    this.offReconnect = this.database.onReconnect(() => void this.onNotify(JSON.stringify({ all: true })))
  }

  async stop(): Promise<void> {
    await this.unlisten?.()
    this.unlisten = undefined
    this.offReconnect?.()
    this.offReconnect = undefined
  }

  add(sub: Subscriber): () => void {
    let set = this.byUser.get(sub.userId)
    if (!set) this.byUser.set(sub.userId, (set = new Set()))
    set.add(sub)
    return () => {
      set.delete(sub)
      if (!set.size) this.byUser.delete(sub.userId)
    }
  }

  get size(): number {
    let n = 0
    for (const set of this.byUser.values()) n += set.size
    return n
  }

  /** Tells every process that these users' unread counts changed (`'all'` after a broadcast). */
  async announce(users: readonly string[] | 'all'): Promise<void> {
    if (users === 'all') {
      await this.database.notify(SITE_MSG_CHANNEL, JSON.stringify({ all: true } satisfies Payload))
      return
    }
    const unique = [...new Set(users)]
    for (let i = 0; i < unique.length; i += IDS_PER_NOTIFY) {
      await this.database.notify(SITE_MSG_CHANNEL, JSON.stringify({ users: unique.slice(i, i + IDS_PER_NOTIFY) } satisfies Payload))
    }
  }

  private async onNotify(raw: string): Promise<void> {
    let payload: Payload
    try {
      payload = JSON.parse(raw) as Payload
    } catch {
      return
    }
    const users = 'all' in payload ? [...this.byUser.keys()] : (payload.users ?? []).filter((u) => this.byUser.has(u))
    for (const userId of users) {
      const subs = [...(this.byUser.get(userId) ?? [])]
      if (!subs.length) continue
      await Promise.all(subs.map((s) => s.push().catch(() => undefined)))
    }
  }

  /** The unread count message of contract §4.14. */
  static async countMessage(database: Database, userId: string): Promise<string> {
    return JSON.stringify({ type: 'unread_count', unread_count: await unreadCount(database.db, userId) })
  }
}
