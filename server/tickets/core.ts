/**
 * The ticket state machine (JumpServer 3.2's `tickets/models/ticket/general.py` StatusMixin; docs/tickets.md):
 * opening (by flow or by the system), approve / reject / close on the current step, state comments, the process
 * map, and the announcements every process hears (`ticket_state` over LISTEN/NOTIFY). Pure database work: the
 * callers commit and then call `afterTransition` for notifications.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'

export const TICKET_TYPES = ['apply_asset', 'login_confirm', 'login_asset_confirm', 'command_confirm'] as const
export type TicketType = (typeof TICKET_TYPES)[number]
export type TicketAction = 'approve' | 'reject' | 'close'
export type Strategy = 'super_admin' | 'org_admin' | 'super_org_admin' | 'custom_user'
export const STRATEGIES: Strategy[] = ['super_admin', 'org_admin', 'super_org_admin', 'custom_user']
export const TICKET_CHANNEL = 'ticket_state'
/** A mailed approve link is valid this long (JumpServer caches its token 3,600 s). */
export const APPROVE_TOKEN_TTL_MS = 3600_000

export interface TicketRow {
  id: string
  type: TicketType
  state: string
  status: string
  title: string
  org_id: string
  applicant_id: string | null
  approval_step: number
  serial_num: string | null
  [k: string]: unknown
}

export class TicketError extends Error {
  constructor(public readonly kind: 'forbidden' | 'closed' | 'invalid', message: string) { super(message) }
}

/** Users a flow rule names in an organization (ApprovalRule.get_assignees). */
export async function ruleAssignees(db: DB, strategy: Strategy, orgId: string, custom: readonly string[]): Promise<string[]> {
  const superAdmins = async () => (await sql<{ id: string }>`select distinct u.id from users u join role_bindings b on b.user_id = u.id
    where b.role_id = ${ROLE_IDS.SystemAdmin} and b.org_id is null and u.is_active order by u.id`.execute(db)).rows.map((r) => r.id)
  const orgAdmins = async () => orgId === ORG_IDS.ROOT ? [] : (await sql<{ id: string }>`select distinct u.id from users u join role_bindings b on b.user_id = u.id
    where b.role_id = ${ROLE_IDS.OrgAdmin} and b.org_id = ${orgId} and u.is_active order by u.id`.execute(db)).rows.map((r) => r.id)
  switch (strategy) {
    case 'super_admin': return superAdmins()
    case 'org_admin': return orgAdmins()
    case 'super_org_admin': return [...new Set([...(await superAdmins()), ...(await orgAdmins())])]
    case 'custom_user': {
      if (!custom.length) return []
      return (await sql<{ id: string }>`select id from users where id = any(${[...custom]}::uuid[]) and is_active order by id`.execute(db)).rows.map((r) => r.id)
    }
  }
}

export interface FlowRule { strategy: Strategy; assignees: string[] }

/** The flow of a type that applies in an organization: its own, else the root organization's. */
export async function flowFor(db: DB, type: TicketType, orgId: string): Promise<{ id: string; approval_level: number; rules: FlowRule[] } | undefined> {
  return (await sql<{ id: string; approval_level: number; rules: FlowRule[] }>`select id, approval_level, rules from ticket_flows
    where type = ${type} and org_id in (${orgId}, ${ORG_IDS.ROOT}) order by (org_id = ${orgId}) desc limit 1`.execute(db)).rows[0]
}

/** The next serial number: `YYYYMMDD` + a 4-digit daily counter (one upsert, safe across processes). */
async function nextSerial(tx: DB, now: Date): Promise<string> {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '')
  const n = (await sql<{ n: number }>`insert into ticket_serials (day, n) values (${day}, 1)
    on conflict (day) do update set n = ticket_serials.n + 1 returning n`.execute(tx)).rows[0]!.n
  return `${day}${String(n).padStart(4, '0')}`
}

export interface OpenArgs {
  id?: string
  type: TicketType
  orgId: string
  applicantId: string
  applicantDisplay: string
  title: string
  comment?: string
  flowId?: string | null
  /** Assignees per level (level = index + 1). */
  levels: string[][]
  /** Type columns of the tickets table. */
  columns?: Record<string, unknown>
  now?: Date
}

/**
 * Opens a ticket: one step per level, its assignees minus the applicant (kept when the applicant is the only
 * one, as JumpServer; they still cannot approve their own ticket), the first step active.
 */
export async function openTicket(tx: DB, a: OpenArgs): Promise<string> {
  const id = a.id ?? randomUUID()
  const now = a.now ?? new Date()
  const levels = a.levels.map((ids) => {
    const uniq = [...new Set(ids)]
    const others = uniq.filter((u) => u !== a.applicantId)
    return others.length ? others : uniq
  })
  const all = [...new Set(levels.flat())]
  const cols = a.columns ?? {}
  const names = Object.keys(cols)
  for (const n of names) if (!/^apply_[a-z_]+$/.test(n)) throw new Error(`bad ticket column ${n}`)
  const serial = await nextSerial(tx, now)
  // The names as they were when the ticket opened (JumpServer's rel_snapshot; lina shows `rel_snapshot.applicant`
  // and a command ticket's `rel_snapshot.apply_run_user`): the applicant, and every apply_*_user that is them.
  const snapshot: Record<string, string> = { applicant: a.applicantDisplay }
  for (const n of names) if (/^apply_[a-z_]+_user_id$/.test(n) && cols[n] === a.applicantId) snapshot[n.slice(0, -3)] = a.applicantDisplay
  await sql`insert into tickets (id, serial_num, title, type, state, status, applicant_id, applicant_display, flow_id, approval_step, comment, org_id,
      participants, current_assignees, created_by, updated_by, date_created, date_updated, rel_snapshot
      ${sql.raw(names.map((n) => `, ${n}`).join(''))})
    values (${id}, ${serial}, ${a.title}, ${a.type}, 'pending', 'open', ${a.applicantId}, ${a.applicantDisplay}, ${a.flowId ?? null}, 1, ${a.comment ?? ''}, ${a.orgId},
      ${[a.applicantId, ...all.filter((u) => u !== a.applicantId)]}::uuid[], ${levels[0] ?? []}::uuid[], ${a.applicantDisplay}, ${a.applicantDisplay}, ${now}, ${now}, ${JSON.stringify(snapshot)}::jsonb
      ${sql.join(names.map((n) => { const v = cols[n]; return sql`, ${v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v}` }), sql``)})`.execute(tx)
  for (const [i, ids] of levels.entries()) {
    const stepId = randomUUID()
    await sql`insert into ticket_steps (id, ticket_id, level, state, status, date_created, date_updated)
      values (${stepId}, ${id}, ${i + 1}, 'pending', ${i === 0 ? 'active' : 'pending'}, ${now}, ${now})`.execute(tx)
    for (const u of ids) {
      await sql`insert into ticket_assignees (id, step_id, ticket_id, level, user_id, state, date_updated)
        values (${randomUUID()}, ${stepId}, ${id}, ${i + 1}, ${u}, 'pending', ${now})`.execute(tx)
    }
  }
  return id
}

export async function ticketRow(db: DB, id: string, lock = false): Promise<TicketRow | undefined> {
  return (await sql<TicketRow>`select * from tickets where id = ${id} ${lock ? sql`for update` : sql``}`.execute(db)).rows[0]
}

/** Who may do what on a ticket: the rule every endpoint, the console and the mailed link share. */
export async function allowedActions(db: DB, t: TicketRow, userId: string): Promise<{ view: boolean; comment: boolean; approve: boolean; reject: boolean; close: boolean }> {
  const levels = (await sql<{ level: number }>`select level from ticket_assignees where ticket_id = ${t.id} and user_id = ${userId}`.execute(db)).rows.map((r) => r.level)
  const applicant = t.applicant_id === userId
  const assignee = levels.length > 0
  const open = t.status === 'open'
  const current = open && levels.includes(t.approval_step) && !applicant
  return { view: applicant || assignee, comment: open && (applicant || assignee), approve: current, reject: current, close: open && (applicant || assignee) }
}

export interface Transition { ticket: TicketRow; action: TicketAction; actorId: string; final: boolean; nextLevel?: number }

/**
 * Applies an action by a user, inside the caller's transaction. Refuses (TicketError) anything the rules do not
 * allow: a closed ticket, approving or rejecting when not an assignee of the current step, the applicant
 * approving their own ticket, closing when neither applicant nor assignee. `beforeFinalApprove` runs just
 * before a final approval is stored (apply_asset creates the permission there).
 */
export async function applyAction(
  tx: DB, ticketId: string, actorId: string, actorDisplay: string, action: TicketAction,
  opts: { now?: Date; beforeFinalApprove?: (t: TicketRow) => Promise<void>; commentExtra?: string } = {},
): Promise<Transition> {
  const now = opts.now ?? new Date()
  const t = await ticketRow(tx, ticketId, true)
  if (!t) throw new TicketError('invalid', 'Ticket not found')
  if (t.status === 'closed') throw new TicketError('closed', 'The ticket is already closed')
  const can = await allowedActions(tx, t, actorId)
  if (!can[action]) throw new TicketError('forbidden', 'You are not allowed to do this on the ticket')
  const step = (await sql<{ id: string; level: number }>`select id, level from ticket_steps where ticket_id = ${t.id} and level = ${t.approval_step}`.execute(tx)).rows[0]
  const maxLevel = (await sql<{ n: number }>`select coalesce(max(level), 1)::int as n from ticket_steps where ticket_id = ${t.id}`.execute(tx)).rows[0]!.n
  let final = true
  let nextLevel: number | undefined
  if (action === 'close') {
    await sql`update ticket_steps set state = 'closed', status = 'closed', date_updated = ${now} where ticket_id = ${t.id} and status <> 'closed'`.execute(tx)
    await sql`update tickets set state = 'closed', status = 'closed', current_assignees = '{}', date_updated = ${now}, updated_by = ${actorDisplay} where id = ${t.id}`.execute(tx)
  } else {
    const state = action === 'approve' ? 'approved' : 'rejected'
    await sql`update ticket_steps set state = ${state}, status = 'closed', date_updated = ${now} where id = ${step!.id}`.execute(tx)
    await sql`update ticket_assignees set state = ${state}, date_updated = ${now} where step_id = ${step!.id} and user_id = ${actorId}`.execute(tx)
    if (action === 'approve' && t.approval_step < maxLevel) {
      final = false
      nextLevel = t.approval_step + 1
      await sql`update ticket_steps set status = 'active', date_updated = ${now} where ticket_id = ${t.id} and level = ${nextLevel}`.execute(tx)
      await sql`update tickets set approval_step = ${nextLevel}, date_updated = ${now}, updated_by = ${actorDisplay},
        current_assignees = coalesce((select array_agg(user_id) from ticket_assignees where ticket_id = ${t.id} and level = ${nextLevel}), '{}')
        where id = ${t.id}`.execute(tx)
    } else {
      if (action === 'approve') await opts.beforeFinalApprove?.(t)
      await sql`update tickets set state = ${state}, status = 'closed', current_assignees = '{}', date_updated = ${now}, updated_by = ${actorDisplay} where id = ${t.id}`.execute(tx)
      // later steps never act
      await sql`update ticket_steps set status = 'closed', date_updated = ${now} where ticket_id = ${t.id} and status = 'pending'`.execute(tx)
    }
  }
  const verb = { approve: 'Approved', reject: 'Rejected', close: 'Closed' }[action]
  await addComment(tx, t.id, actorId, actorDisplay, `${actorDisplay} ${verb} the ticket${opts.commentExtra ?? ''}`, 'state', now)
  return { ticket: t, action, actorId, final, nextLevel }
}

export async function addComment(tx: DB, ticketId: string, userId: string | null, userDisplay: string, body: string, type: 'state' | 'common', now = new Date()): Promise<string> {
  const id = randomUUID()
  await sql`insert into ticket_comments (id, ticket_id, user_id, user_display, body, type, date_created)
    values (${id}, ${ticketId}, ${userId}, ${userDisplay}, ${body}, ${type}, ${now})`.execute(tx)
  return id
}

export interface ProcessStep {
  state: string
  approval_level: number
  assignees: string[]
  assignees_display: string[]
  processor: string | null
  processor_display: string
  approval_date: string | null
}

/** The process map of tickets (JumpServer's `process_map`), per ticket id. */
export async function processMaps(db: DB, ids: readonly string[]): Promise<Map<string, ProcessStep[]>> {
  const out = new Map<string, ProcessStep[]>()
  if (!ids.length) return out
  const rows = (await sql<{ ticket_id: string; level: number; step_state: string; step_status: string; step_date: Date; user_id: string; a_state: string; a_date: Date; display: string }>`
    select s.ticket_id, s.level, s.state as step_state, s.status as step_status, s.date_updated as step_date, a.user_id, a.state as a_state, a.date_updated as a_date,
      coalesce(u.name || '(' || u.username || ')', '') as display
    from ticket_steps s left join ticket_assignees a on a.step_id = s.id left join users u on u.id = a.user_id
    where s.ticket_id = any(${[...ids]}::uuid[]) order by s.ticket_id, s.level, u.username`.execute(db)).rows
  for (const r of rows) {
    const list = out.get(r.ticket_id) ?? []
    out.set(r.ticket_id, list)
    let step = list.find((s) => s.approval_level === r.level)
    if (!step) {
      step = { state: r.step_state, approval_level: r.level, assignees: [], assignees_display: [], processor: null, processor_display: '', approval_date: r.step_status === 'closed' ? r.step_date.toISOString() : null }
      list.push(step)
    }
    if (r.user_id) {
      step.assignees.push(r.user_id)
      step.assignees_display.push(r.display)
      if (r.a_state !== 'pending') { step.processor = r.user_id; step.processor_display = r.display; step.approval_date = r.a_date.toISOString() }
    }
  }
  return out
}

/** A single-use approve link token for an assignee of the current step; the database keeps its hash. */
export async function issueApproveToken(db: DB, ticketId: string, userId: string, level: number, now = new Date()): Promise<string> {
  const token = randomBytes(24).toString('base64url')
  await sql`insert into ticket_approve_tokens (token_hash, ticket_id, user_id, level, date_expired)
    values (${hashApproveToken(token)}, ${ticketId}, ${userId}, ${level}, ${new Date(now.getTime() + APPROVE_TOKEN_TTL_MS)})`.execute(db)
  return token
}
export const hashApproveToken = (t: string) => createHash('sha256').update(t).digest('hex')

/** The token's row when it may still be used (unused, unexpired, its step still the ticket's current one). */
export async function approveTokenRow(db: DB, token: string, now = new Date(), lock = false): Promise<{ ticket_id: string; user_id: string; level: number } | undefined> {
  if (typeof token !== 'string' || token.length < 16 || token.length > 64 || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined
  const row = (await sql<{ ticket_id: string; user_id: string; level: number; date_expired: Date; date_used: Date | null }>`select ticket_id, user_id, level, date_expired, date_used
    from ticket_approve_tokens where token_hash = ${hashApproveToken(token)} ${lock ? sql`for update` : sql``}`.execute(db)).rows[0]
  if (!row || row.date_used || row.date_expired.getTime() <= now.getTime()) return undefined
  return row
}
