import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'

/** Site messages of one user (contract §4.13): the per-user rows of `site_message_users` joined to the content. */

export interface SiteMessageRow {
  id: string
  has_read: boolean
  read_at: Date | null
  date_created: Date
  content_id: string
  subject: string
  message: string
  content_created: Date
  content_updated: Date
  sender: string | null
}

export async function listMessages(
  db: DB,
  userId: string,
  opts: { hasRead?: boolean; page?: { limit: number; offset: number } | null },
): Promise<{ rows: SiteMessageRow[]; count: number }> {
  const readFilter = opts.hasRead === undefined ? sql`` : sql`and smu.has_read = ${opts.hasRead}`
  const count = (await sql<{ n: number }>`select count(*)::int as n from site_message_users smu
    where smu.user_id = ${userId} ${readFilter}`.execute(db)).rows[0]?.n ?? 0
  const window = opts.page ? sql`limit ${opts.page.limit} offset ${opts.page.offset}` : sql``
  const rows = (await sql<SiteMessageRow>`
    select smu.id, smu.has_read, smu.read_at, smu.date_created, m.id as content_id, m.subject, m.message,
      m.date_created as content_created, m.date_updated as content_updated,
      case when u.id is null then null else u.name || '(' || u.username || ')' end as sender
    from site_message_users smu
    join site_messages m on m.id = smu.message_id
    left join users u on u.id = m.sender_id
    where smu.user_id = ${userId} ${readFilter}
    order by smu.date_created desc, smu.id
    ${window}`.execute(db)).rows
  return { rows, count }
}

export async function unreadCount(db: DB, userId: string): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from site_message_users
    where user_id = ${userId} and has_read = false`.execute(db)
  return r.rows[0]?.n ?? 0
}

/** Marks the user's own messages read; ids of other users' messages are ignored (as JumpServer does). */
export async function markRead(db: DB, userId: string, ids: readonly string[] | 'all'): Promise<number> {
  const which = ids === 'all' ? sql`` : sql`and id = any(${[...ids]}::uuid[])`
  const r = await sql`update site_message_users set has_read = true, read_at = now()
    where user_id = ${userId} and has_read = false ${which}`.execute(db)
  return Number(r.numAffectedRows ?? 0)
}

export interface NewMessage {
  subject: string
  message: string
  senderId: string | null
  isBroadcast: boolean
  userIds: readonly string[]
}

/** Stores a message and one unread row per recipient in one transaction; returns the recipients. */
export async function storeMessage(db: DB, msg: NewMessage): Promise<{ id: string; recipients: string[]; dateCreated: Date }> {
  return db.transaction().execute(async (tx) => {
    const id = randomUUID()
    const created = (await sql<{ date_created: Date }>`insert into site_messages (id, subject, message, sender_id, is_broadcast)
      values (${id}, ${msg.subject}, ${msg.message}, ${msg.senderId}, ${msg.isBroadcast}) returning date_created`.execute(tx)).rows[0]!
    const recipients = msg.isBroadcast
      ? (await sql<{ id: string }>`select id from users where is_active = true`.execute(tx)).rows.map((r) => r.id)
      : [...new Set(msg.userIds)]
    if (recipients.length) {
      await sql`insert into site_message_users (id, message_id, user_id)
        select gen_random_uuid(), ${id}, uid from unnest(${recipients}::uuid[]) as uid
        on conflict (message_id, user_id) do nothing`.execute(tx)
    }
    return { id, recipients, dateCreated: created.date_created }
  })
}

/** Which of the given user ids exist. */
export async function existingUsers(db: DB, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set()
  const r = await sql<{ id: string }>`select id::text as id from users where id = any(${[...ids]}::uuid[])`.execute(db)
  return new Set(r.rows.map((x) => x.id))
}
