/**
 * `notify()`: the one way a system message goes out. It reads the message type's subscription (receivers: users
 * and the members of user groups, active ones only; channels), stores one site message for the receivers (the
 * site message is always sent, as in JumpServer) and announces it to their open sockets in every process, and,
 * when the email channel is on and a mail server is configured, mails each receiver with an address
 * (`sendMail()`, one mail per receiver so no one sees the others' addresses). A failing mail server is logged and
 * never fails the event that caused the message.
 */
import { sql } from 'kysely'
import type { ServerConfig } from '../config.ts'
import type { Database, DB } from '../db/connection.ts'
import { tr } from '../i18n.ts'
import { mailConfigured, sendMail } from '../mail/sender.ts'
import { SITE_MSG_CHANNEL } from '../realtime/hub.ts'
import { storeMessage } from '../realtime/store.ts'
import { messageType } from './catalog.ts'

/** The server configuration (its SECRET_KEY opens the SMTP password) of each database: set at registration. */
const configs = new WeakMap<Database, ServerConfig>()
export function setNotifyConfig(database: Database, config: ServerConfig): void {
  configs.set(database, config)
}

export interface Receiver { id: string; name: string; username: string; email: string }

/** Active receivers of a message type: its users and the members of its groups. */
export async function receiversOf(db: DB, type: string): Promise<{ backends: string[]; receivers: Receiver[] }> {
  const sub = (await sql<{ receive_backends: string[] }>`select receive_backends from system_msg_subscriptions
    where message_type = ${type}`.execute(db)).rows[0]
  if (!sub) return { backends: ['site_msg'], receivers: [] }
  const receivers = (await sql<Receiver>`select u.id::text as id, u.name, u.username, u.email from users u
    where u.is_active and (u.id in (select user_id from system_msg_subscription_users where message_type = ${type})
      or u.id in (select m.user_id from user_group_members m join system_msg_subscription_groups g on g.usergroup_id = m.usergroup_id
        where g.message_type = ${type}))
    order by u.username`.execute(db)).rows
  return { backends: sub.receive_backends, receivers }
}

export interface Notice {
  /** English texts with `{placeholders}` (translated by server/i18n.ts) */
  subject: string
  message: string
  vars?: Record<string, string | number>
}

export interface NotifyResult { siteMessage: string | null; mailed: string[]; failed: string[] }

/** Delivers a system message of `type` to its subscribers. */
export async function notify(database: Database, type: string, notice: Notice, log?: (text: string) => void): Promise<NotifyResult> {
  if (!messageType(type)) throw new Error(`unknown message type ${type}`)
  const db = database.db
  const { backends, receivers } = await receiversOf(db, type)
  const result: NotifyResult = { siteMessage: null, mailed: [], failed: [] }
  if (!receivers.length) return result
  // Stored texts are rendered once, in English (JumpServer renders them in its one LANGUAGE_CODE).
  const subject = tr('en', notice.subject, notice.vars)
  const message = tr('en', notice.message, notice.vars)
  const stored = await storeMessage(db, { subject, message, senderId: null, isBroadcast: false, userIds: receivers.map((r) => r.id) })
  result.siteMessage = stored.id
  for (let i = 0; i < stored.recipients.length; i += 150) {
    await database.notify(SITE_MSG_CHANNEL, JSON.stringify({ users: stored.recipients.slice(i, i + 150) }))
  }
  const config = configs.get(database)
  if (backends.includes('email') && config && (await mailConfigured(db))) {
    for (const r of receivers) {
      if (!r.email) continue
      try {
        await sendMail(db, config, { to: r.email, subject, text: message })
        result.mailed.push(r.email)
      } catch (e) {
        result.failed.push(r.email)
        log?.(`message ${type}: mail to ${r.email} failed: ${(e as Error).message}`)
      }
    }
  }
  return result
}

/** Fire-and-forget form for request paths: the event never waits on, nor fails by, its message. */
export function notifyLater(database: Database, type: string, notice: Notice, log: (text: string) => void): void {
  void notify(database, type, notice, log).catch((e) => log(`message ${type} not delivered: ${(e as Error).message}`))
}
