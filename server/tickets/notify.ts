/**
 * What follows a committed ticket change: the assignees of the (new) current step get a site message and, when a
 * mail server is configured, a mail with a single-use direct-approve link (one hour); the applicant is told the
 * outcome; every server process hears `ticket_state` (LISTEN/NOTIFY) so waiting gates wake. Never throws: a
 * failing mail server is logged and the ticket stands.
 */
import { sql } from 'kysely'
import type { ServerConfig } from '../config.ts'
import type { Database } from '../db/connection.ts'
import { tr } from '../i18n.ts'
import { mailConfigured, sendMail } from '../mail/sender.ts'
import { SITE_MSG_CHANNEL } from '../realtime/hub.ts'
import { storeMessage } from '../realtime/store.ts'
import { getSetting } from '../settings/store.ts'
import { issueApproveToken, TICKET_CHANNEL, type Transition } from './core.ts'
import { TYPE_CHOICES } from './choices.ts'

export interface Services { database: Database; config: ServerConfig }
interface Log { warn(msg: string): void }

const DETAIL_PATHS: Record<string, string> = {
  apply_asset: 'request-host-perm', login_confirm: 'login-confirm', login_asset_confirm: 'login-host-confirm', command_confirm: 'command-confirm',
}

async function siteUrl(services: Services): Promise<string> {
  return String((await getSetting<string>(services.database.db, 'SITE_URL')) || 'http://127.0.0.1:8080').replace(/\/+$/, '')
}

export function ticketDetailUrl(base: string, t: { id: string; type: string }): string {
  return `${base}/ui/tickets/tickets/${DETAIL_PATHS[t.type] ?? 'tickets'}/${t.id}`
}

async function message(services: Services, userIds: string[], subject: string, body: string): Promise<void> {
  if (!userIds.length) return
  const stored = await storeMessage(services.database.db, { subject, message: body, senderId: null, isBroadcast: false, userIds })
  await services.database.notify(SITE_MSG_CHANNEL, JSON.stringify({ users: stored.recipients.slice(0, 150) }))
}

/** Tells the current step's assignees (site message + mail with a direct-approve link). */
export async function notifyAssignees(services: Services, ticketId: string, log: Log): Promise<void> {
  try {
    const db = services.database.db
    const t = (await sql<{ id: string; title: string; type: string; approval_step: number; applicant_display: string; status: string }>`select id, title, type, approval_step,
      applicant_display, status from tickets where id = ${ticketId}`.execute(db)).rows[0]
    if (!t || t.status !== 'open') return
    const users = (await sql<{ id: string; email: string }>`select u.id, u.email from ticket_assignees a join users u on u.id = a.user_id
      where a.ticket_id = ${ticketId} and a.level = ${t.approval_step} and u.is_active`.execute(db)).rows
    const base = await siteUrl(services)
    const type = tr('en', TYPE_CHOICES.find((c) => c.value === t.type)?.label ?? t.type)
    const subject = tr('en', 'New ticket: {title}', { title: t.title })
    const text = tr('en', '{applicant} opened the ticket "{title}" ({type}) that waits for your approval.\n\nApprove or reject it: {detail}',
      { applicant: t.applicant_display, title: t.title, type, detail: ticketDetailUrl(base, t) })
    await message(services, users.map((u) => u.id), subject, text)
    if (!(await mailConfigured(db))) return
    for (const u of users) {
      if (!u.email) continue
      const token = await issueApproveToken(db, t.id, u.id, t.approval_step)
      const link = `${base}/tickets/direct-approve/${token}/`
      try {
        await sendMail(db, services.config, { to: u.email, subject, text: `${text}\n\n${tr('en', 'Approve directly (valid for one hour, once): {link}', { link })}` })
      } catch (e) {
        log.warn(`ticket ${t.id}: mail to ${u.email} failed: ${(e as Error).message}`)
      }
    }
  } catch (e) {
    log.warn(`ticket ${ticketId}: assignees not notified: ${(e as Error).message}`)
  }
}

export async function announce(database: Database, ticketId: string): Promise<void> {
  await database.notify(TICKET_CHANNEL, JSON.stringify({ id: ticketId }))
}

export async function afterOpen(services: Services, ticketId: string, log: Log): Promise<void> {
  await announce(services.database, ticketId).catch(() => undefined)
  await notifyAssignees(services, ticketId, log)
}

/** After a committed transition: wake waiters, notify the next step or the applicant. */
export async function afterTransition(services: Services, tr0: Transition | undefined, log: Log): Promise<void> {
  if (!tr0) return
  const t = tr0.ticket
  await announce(services.database, t.id).catch(() => undefined)
  if (!tr0.final) return notifyAssignees(services, t.id, log)
  if (tr0.actorId === t.applicant_id || !t.applicant_id) return
  try {
    const db = services.database.db
    const row = (await sql<{ state: string; email: string; processor: string }>`select t.state, coalesce(u.email, '') as email, t.updated_by as processor
      from tickets t left join users u on u.id = t.applicant_id where t.id = ${t.id}`.execute(db)).rows[0]!
    const state = tr('en', { approved: 'Approved', rejected: 'Rejected', closed: 'Cancel' }[row.state] ?? row.state)
    const subject = tr('en', 'Ticket {state}: {title}', { state, title: t.title })
    const text = `${tr('en', 'Your ticket "{title}" was {state} by {processor}.', { title: t.title, state, processor: row.processor })}\n\n${ticketDetailUrl(await siteUrl(services), t)}`
    await message(services, [t.applicant_id], subject, text)
    if (row.email && (await mailConfigured(db))) {
      await sendMail(db, services.config, { to: row.email, subject, text }).catch((e: Error) => log.warn(`ticket ${t.id}: mail to the applicant failed: ${e.message}`))
    }
  } catch (e) {
    log.warn(`ticket ${t.id}: applicant not notified: ${(e as Error).message}`)
  }
}
