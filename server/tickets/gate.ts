/**
 * Review tickets opened by the system (login, asset login, command) and the approval gate the terminal side
 * waits on. The decision resolves when the ticket is approved, rejected or closed by any server process: each
 * process LISTENs on `ticket_state` (core.ts) and re-reads the row; a bounded poll covers a lost notification.
 */
import { sql } from 'kysely'
import type { Database, DB } from '../db/connection.ts'
import { userDisplay } from '../engine/index.ts'
import { addComment, openTicket, TICKET_CHANNEL, type TicketType } from './core.ts'
import { afterOpen, announce, type Services } from './notify.ts'

import type { ApprovalGate, TicketWaiter } from '../terminal/approval.ts'

export type Decision = 'approved' | 'rejected' | 'closed'

export interface SystemTicket {
  type: TicketType
  orgId: string
  userId: string
  reviewerIds: string[]
  title?: string
  columns: Record<string, unknown>
  sessionId?: string
}

/** Opens a ticket by the system (JumpServer's `open_by_system`): one level, the ACL's reviewers. */
export async function openSystemTicket(services: Services, t: SystemTicket, log: { warn(m: string): void }): Promise<string> {
  const db = services.database.db
  const user = (await sql<{ id: string; name: string; username: string }>`select id, name, username from users where id = ${t.userId}`.execute(db)).rows[0]
  if (!user) throw new Error('unknown user')
  const display = userDisplay(user)
  const titles: Record<TicketType, string> = {
    apply_asset: 'Apply for asset', login_confirm: `Login confirm: ${display}`, login_asset_confirm: `Login asset confirm: ${display}`, command_confirm: `Command confirm: ${display}`,
  }
  const id = await db.transaction().execute(async (tx) => {
    const tid = await openTicket(tx, {
      type: t.type, orgId: t.orgId, applicantId: user.id, applicantDisplay: display, title: (t.title ?? titles[t.type]).slice(0, 256),
      levels: [t.reviewerIds], columns: t.columns,
    })
    if (t.sessionId) await sql`insert into ticket_sessions (id, ticket_id, session_id) values (gen_random_uuid(), ${tid}, ${t.sessionId}) on conflict do nothing`.execute(tx)
    return tid
  })
  await afterOpen(services, id, log)
  return id
}

/** Closes a ticket on behalf of the system (a terminal gave up, the user cancelled): no participant rule. */
export async function systemClose(services: Services, ticketId: string, by: string): Promise<boolean> {
  const db = services.database.db
  const done = await db.transaction().execute(async (tx) => {
    const row = (await sql<{ status: string }>`select status from tickets where id = ${ticketId} for update`.execute(tx)).rows[0]
    if (!row || row.status === 'closed') return false
    await sql`update ticket_steps set state = 'closed', status = 'closed', date_updated = now() where ticket_id = ${ticketId} and status <> 'closed'`.execute(tx)
    await sql`update tickets set state = 'closed', status = 'closed', date_updated = now(), updated_by = ${by} where id = ${ticketId}`.execute(tx)
    await addComment(tx, ticketId, null, by, `${by} Closed the ticket`, 'state')
    return true
  })
  if (done) await announce(services.database, ticketId).catch(() => undefined)
  return done
}

async function decisionOf(db: DB, id: string): Promise<Decision | undefined> {
  const r = (await sql<{ state: string; status: string }>`select state, status from tickets where id = ${id}`.execute(db)).rows[0]
  if (!r) return 'closed'
  if (r.status !== 'closed') return undefined
  return r.state === 'approved' ? 'approved' : r.state === 'rejected' ? 'rejected' : 'closed'
}

/**
 * Waits for a ticket's decision: woken by `ticket_state` notifications from any process, re-checked at
 * `pollMs` (a notification lost while the LISTEN connection reconnected), ended by `signal`.
 */
export function waitForDecision(database: Database, ticketId: string, opts: { pollMs?: number; signal?: AbortSignal } = {}): Promise<Decision> {
  return new Promise<Decision>((resolve, reject) => {
    let done = false
    let unlisten: (() => Promise<void>) | undefined
    const finish = (d: Decision | Error) => {
      if (done) return
      done = true
      clearInterval(timer)
      void unlisten?.().catch(() => undefined)
      opts.signal?.removeEventListener('abort', onAbort)
      if (d instanceof Error) reject(d)
      else resolve(d)
    }
    const check = async () => {
      if (done) return
      try {
        const d = await decisionOf(database.db, ticketId)
        if (d) finish(d)
      } catch (e) {
        finish(e as Error)
      }
    }
    const timer = setInterval(() => void check(), Math.max(200, opts.pollMs ?? 5000))
    const onAbort = () => finish(new Error('aborted'))
    if (opts.signal?.aborted) return onAbort()
    opts.signal?.addEventListener('abort', onAbort)
    void database.listen(TICKET_CHANNEL, (raw) => {
      try {
        if ((JSON.parse(raw) as { id?: string }).id === ticketId) void check()
      } catch { /* not ours */ }
    }).then(async (off) => {
      if (done) await off().catch(() => undefined)
      else unlisten = off
      // a decision made before the LISTEN was in place
      await check()
    }, (e: Error) => finish(e))
  })
}

export interface GateDeps extends Services {
  log: { warn(m: string): void }
  /** Re-check interval of a waiting decision (default 5 s). */
  pollMs?: number
}

/** The gate the terminal side calls when an ACL says review (docs/tickets.md). */
export function createTicketApprovalGate(deps: GateDeps): ApprovalGate {
  return async (req) => {
    const db = deps.database.db
    let ticketId: string
    if (req.kind === 'login_asset') {
      ticketId = await openSystemTicket(deps, {
        type: 'login_asset_confirm', orgId: req.orgId, userId: req.userId, reviewerIds: req.reviewerIds, sessionId: req.sessionId,
        columns: { apply_login_user_id: req.userId, apply_login_asset_id: req.assetId, apply_login_account: req.accountName.slice(0, 128) },
      }, deps.log)
    } else {
      const asset = (await sql<{ name: string; address: string }>`select name, address from assets where id = ${req.assetId}`.execute(db)).rows[0]
      ticketId = await openSystemTicket(deps, {
        type: 'command_confirm', orgId: req.orgId, userId: req.userId, reviewerIds: req.reviewerIds, sessionId: req.sessionId,
        columns: {
          apply_run_user_id: req.userId, apply_run_asset: (asset ? `${asset.name}(${asset.address})` : req.assetId).slice(0, 128),
          apply_run_account: req.accountName.slice(0, 128), apply_run_command: (req.command ?? '').slice(0, 4096),
          apply_from_session_id: req.sessionId ?? null, apply_from_cmd_filter_acl_id: req.aclId,
        },
      }, deps.log)
    }
    const abort = new AbortController()
    const decision = waitForDecision(deps.database, ticketId, { pollMs: deps.pollMs, signal: abort.signal })
    return {
      ticketId,
      decision,
      async cancel() {
        await systemClose(deps, ticketId, 'System')
        // the waiter sees 'closed' through the notification (or the poll)
      },
    }
  }
}

/** Names of a ticket's assignees, all levels (in the given state when asked). */
async function assigneeNames(db: DB, ticketId: string, state?: string): Promise<string[]> {
  return (await sql<{ name: string }>`select distinct u.name from ticket_assignees a join users u on u.id = a.user_id
    where a.ticket_id = ${ticketId} and (${state ?? null}::text is null or a.state = ${state ?? null}) order by u.name`.execute(db)).rows.map((r) => r.name)
}

/** The waiter of a ticket opened with a connection token (`?create_ticket=1`); see approval.ts. */
export function createTicketWaiter(deps: GateDeps): TicketWaiter {
  return async (ticketId) => {
    const db = deps.database.db
    const reviewers = await assigneeNames(db, ticketId)
    const decision = waitForDecision(deps.database, ticketId, { pollMs: deps.pollMs })
      .then(async (d) => ({ decision: d, by: d === 'rejected' ? await assigneeNames(db, ticketId, 'rejected') : [] }))
    return {
      reviewers,
      decision,
      async cancel() {
        await systemClose(deps, ticketId, 'System')
      },
    }
  }
}
