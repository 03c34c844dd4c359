/**
 * The tickets module: resources (resources.ts), comments, the component endpoints (super-tickets, ticket ↔
 * session), the mailed direct-approve page, and the review endpoints of the ACLs (login-asset check, command
 * review). docs/tickets.md.
 */
import { setApprovalGate, setTicketWaiter } from '../terminal/approval.ts'
import { createTicketApprovalGate, createTicketWaiter } from './gate.ts'
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { registerResource, userDisplay } from '../engine/index.ts'
import { isUuid } from '../engine/parse.ts'
import { bodyObject as body, type Values } from '../http/body.ts'
import type { RowOf } from '../db/connection.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { ApiError, notFound, validationError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { escapeHtml } from '../mail/sender.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { decideLoginAsset, type LoginAssetAclLike } from '../resources/acls/decide.ts'
import { loadCommandAcls } from '../resources/acls/asset-acls.ts'
import { STATE_CHOICES, STATUS_CHOICES } from './choices.ts'
import { addComment, allowedActions, applyAction, approveTokenRow, ticketRow, type TicketRow } from './core.ts'
import { openSystemTicket, systemClose } from './gate.ts'
import { afterTransition } from './notify.ts'
import { finalApproveEffects, flows, TICKET_RESOURCES } from './resources.ts'
import { registerLoginConfirm } from './login-confirm.ts'

const labeled = (value: string, choices: { value: string; label: string }[], lang: FastifyRequest['ctx']['lang']) =>
  ({ value, label: tr(lang, choices.find((c) => c.value === value)?.label ?? value) })

/** A ticket the request's user takes part in, else 404 (nothing shows another's ticket exists). */
async function participantTicket(req: FastifyRequest, id: unknown): Promise<TicketRow> {
  const user = requireUser(req)
  const t = typeof id === 'string' && isUuid(id) ? await ticketRow(req.ctx.db, id.toLowerCase()) : undefined
  if (!t || !(await allowedActions(req.ctx.db, t, user.id)).view) throw notFound('Ticket')
  return t
}

function commentOut(r: RowOf<'ticket_comments'>) {
  return {
    id: r.id, ticket: r.ticket_id, body: r.body, type: r.type, user: r.user_id, user_display: r.user_display,
    date_created: r.date_created.toISOString(), date_updated: r.date_created.toISOString(),
  }
}

/** Final approval side effects shared by the API and the mailed link. */
export async function approveAs(req: FastifyRequest, ticketId: string, userId: string): Promise<void> {
  const user = (await sql<{ id: string; name: string; username: string }>`select id, name, username from users where id = ${userId}`.execute(req.ctx.db)).rows[0]!
  const display = userDisplay(user)
  const transition = await req.ctx.db.transaction().execute((tx) => applyAction(tx, ticketId, userId, display, 'approve', {
    beforeFinalApprove: (t) => finalApproveEffects(tx, t, display),
  }))
  await afterTransition(req.server.services, transition, req.log)
}

export async function registerTickets(app: FastifyInstance): Promise<void> {
  // The built-in terminal's review gates (a login asset ACL or a command filter ACL with review) wait on tickets.
  setApprovalGate(createTicketApprovalGate({ ...app.services, log: app.log }))
  // …and the web terminal waits on the ticket of a connection token asked with `?create_ticket=1`.
  setTicketWaiter(createTicketWaiter({ ...app.services, log: app.log }))
  for (const def of TICKET_RESOURCES) await registerResource(app, def)

  // Editing a root flow from an organization edits that organization's copy (serializers/flow.py).
  app.addHook('preHandler', async (req) => {
    if ((req.method !== 'PUT' && req.method !== 'PATCH') || !req.url.startsWith(flows.path)) return
    const id = (req.params as Values | undefined)?.id
    if (typeof id !== 'string' || !isUuid(id) || req.ctx.orgId === ORG_IDS.ROOT || !req.ctx.user) return
    const row = (await sql<{ id: string; org_id: string; type: string }>`select id, org_id, type from ticket_flows where id = ${id}`.execute(req.ctx.db)).rows[0]
    if (!row || row.org_id !== ORG_IDS.ROOT) return
    await requirePerm(req, 'tickets.change_ticketflow', ORG_IDS.ROOT)
    const copy = randomUUID()
    await sql`insert into ticket_flows (id, org_id, type, approval_level, rules, comment, created_by, updated_by)
      select ${copy}, ${req.ctx.orgId}, type, approval_level, rules, comment, ${userDisplay(req.ctx.user)}, ${userDisplay(req.ctx.user)}
      from ticket_flows where id = ${id} on conflict (org_id, type) do nothing`.execute(req.ctx.db)
    const own = (await sql<{ id: string }>`select id from ticket_flows where org_id = ${req.ctx.orgId} and type = ${row.type}`.execute(req.ctx.db)).rows[0]!
    ;(req.params as Values).id = own.id
  })

  // ── Comments ──
  app.get('/api/v1/tickets/comments/', async (req) => {
    const q = req.query as Record<string, unknown>
    const t = await participantTicket(req, q.ticket_id)
    const rows = (await sql<RowOf<'ticket_comments'>>`select * from ticket_comments where ticket_id = ${t.id} order by date_created, id limit 1000`.execute(req.ctx.db)).rows
    return rows.map(commentOut)
  })
  app.post('/api/v1/tickets/comments/', async (req, reply) => {
    const q = req.query as Record<string, unknown>
    const b = body(req)
    const t = await participantTicket(req, q.ticket_id ?? b.ticket)
    const user = requireUser(req)
    const text = b.body
    if (typeof text !== 'string' || !text.trim()) throw validationError({ body: [tr(req.ctx.lang, 'This field is required.')] })
    if (text.length > 4096 || text.includes('\0')) throw validationError({ body: [tr(req.ctx.lang, 'Ensure this field has no more than {n} characters.', { n: 4096 })] })
    if (!(await allowedActions(req.ctx.db, t, user.id)).comment) throw new ApiError(400, { detail: tr(req.ctx.lang, 'The ticket is already closed'), code: 'ticket_closed' })
    const id = await addComment(req.ctx.db, t.id, user.id, userDisplay(user), text, 'common')
    const row = (await sql<RowOf<'ticket_comments'>>`select * from ticket_comments where id = ${id}`.execute(req.ctx.db)).rows[0]!
    return reply.status(201).send(commentOut(row))
  })

  // ── Components: a ticket's status and closing ──
  const superStatus = async (req: FastifyRequest) => {
    const id = (req.params as { id: string }).id
    const t = isUuid(id) ? await ticketRow(req.ctx.db, id) : undefined
    if (!t) throw notFound('Ticket')
    return t
  }
  app.get('/api/v1/tickets/super-tickets/:id/status/', async (req) => {
    await requirePerm(req, 'tickets.view_superticket', ORG_IDS.ROOT)
    const t = await superStatus(req)
    return { id: t.id, status: labeled(t.status, STATUS_CHOICES, req.ctx.lang), state: labeled(t.state, STATE_CHOICES, req.ctx.lang), processor: t.status === 'closed' ? t.updated_by : '' }
  })
  app.delete('/api/v1/tickets/super-tickets/:id/status/', async (req, reply) => {
    await requirePerm(req, 'tickets.change_superticket', ORG_IDS.ROOT)
    const t = await superStatus(req)
    await systemClose(req.server.services, t.id, userDisplay(requireUser(req)))
    return reply.status(204).send()
  })
  app.get('/api/v1/tickets/tickets/:id/session/', async (req) => {
    const t = await participantTicket(req, (req.params as { id: string }).id)
    const s = (await sql<Pick<RowOf<'terminal_sessions'>, 'id' | 'user' | 'asset' | 'account' | 'protocol' | 'login_from' | 'remote_addr' | 'is_finished' | 'date_start' | 'date_end' | 'org_id'> & { has_terminal: boolean }>`select s.id, s."user", s.asset, s.account, s.protocol, s.login_from, s.remote_addr, s.is_finished, s.date_start, s.date_end, s.org_id,
        s.terminal_id is not null as has_terminal
      from ticket_sessions ts join terminal_sessions s on s.id = ts.session_id where ts.ticket_id = ${t.id} limit 1`.execute(req.ctx.db)).rows[0]
    if (!s) throw notFound('Session')
    // lina's ticket session tab shows "monitor" and "terminate" by these two (as the sessions resource answers them)
    const { has_terminal: hasTerminal, ...session } = s
    return { ...session, can_join: false, can_terminate: !s.is_finished && !!hasTerminal }
  })
  app.post('/api/v1/tickets/ticket-session-relation/', async (req, reply) => {
    await requirePerm(req, 'tickets.change_superticket', ORG_IDS.ROOT)
    const b = body(req)
    const errors: Record<string, string[]> = {}
    for (const k of ['ticket', 'session']) if (!isUuid(b[k])) errors[k] = [tr(req.ctx.lang, 'Must be a valid UUID.')]
    if (Object.keys(errors).length) throw validationError(errors)
    const t = await ticketRow(req.ctx.db, String(b.ticket))
    if (!t) throw validationError({ ticket: [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(b.ticket) })] })
    const s = (await sql<{ id: string }>`select id from terminal_sessions where id = ${String(b.session)}`.execute(req.ctx.db)).rows[0]
    if (!s) throw validationError({ session: [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(b.session) })] })
    await sql`insert into ticket_sessions (id, ticket_id, session_id) values (${randomUUID()}, ${t.id}, ${s.id}) on conflict do nothing`.execute(req.ctx.db)
    return reply.status(201).send({ ticket: t.id, session: s.id })
  })

  // ── The mailed direct-approve link: GET shows the ticket and a button, POST approves (the token is single-use) ──
  const page = (title: string, inner: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#242424}
button{font:inherit;padding:.5rem 1.25rem;background:#0f6cbd;color:#fff;border:0;border-radius:4px;cursor:pointer}dt{font-weight:600}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${inner}</main></body></html>`
  app.get('/tickets/direct-approve/:token/', async (req, reply) => {
    const lang = req.ctx.lang
    const tok = await approveTokenRow(req.ctx.db, (req.params as { token: string }).token)
    const t = tok ? await ticketRow(req.ctx.db, tok.ticket_id) : undefined
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8')
    if (!tok || !t || t.status !== 'open' || t.approval_step !== tok.level) {
      return reply.status(404).send(page(tr(lang, 'Approve ticket'), `<p role="alert">${escapeHtml(tr(lang, 'This approve link is invalid, used or expired.'))}</p>`))
    }
    return reply.send(page(tr(lang, 'Approve ticket'), `<dl><dt>${escapeHtml(tr(lang, 'Title'))}</dt><dd>${escapeHtml(t.title)}</dd>
<dt>${escapeHtml(tr(lang, 'Applicant'))}</dt><dd>${escapeHtml(String(t.applicant_display))}</dd>
<dt>${escapeHtml(tr(lang, 'Serial number'))}</dt><dd>${escapeHtml(String(t.serial_num))}</dd></dl>
<form method="post"><button type="submit">${escapeHtml(tr(lang, 'Approve'))}</button></form>`))
  })
  app.post('/tickets/direct-approve/:token/', async (req, reply) => {
    const lang = req.ctx.lang
    const token = (req.params as { token: string }).token
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8')
    const bad = () => reply.status(404).send(page(tr(lang, 'Approve ticket'), `<p role="alert">${escapeHtml(tr(lang, 'This approve link is invalid, used or expired.'))}</p>`))
    // Spend the token first (one use, whatever follows), then act as its assignee under the ordinary rules.
    const tok = await req.ctx.db.transaction().execute(async (tx) => {
      const row = await approveTokenRow(tx, token, new Date(), true)
      if (!row) return undefined
      const { hashApproveToken } = await import('./core.ts')
      await sql`update ticket_approve_tokens set date_used = now() where token_hash = ${hashApproveToken(token)}`.execute(tx)
      return row
    })
    if (!tok) return bad()
    const t = await ticketRow(req.ctx.db, tok.ticket_id)
    if (!t || t.approval_step !== tok.level) return bad()
    try {
      await approveAs(req, tok.ticket_id, tok.user_id)
    } catch (e) {
      req.log.warn(`direct approve of ticket ${tok.ticket_id}: ${(e as Error).message}`)
      return bad()
    }
    return reply.send(page(tr(lang, 'Approve ticket'), `<p role="status">${escapeHtml(tr(lang, 'The ticket was approved.'))}</p>`))
  })

  // ── ACL reviews asked by terminal components ──
  app.post('/api/v1/acls/login-asset/check/', async (req) => {
    await requirePerm(req, 'acls.view_loginassetacl')
    const b = body(req)
    const errors: Record<string, string[]> = {}
    for (const k of ['user_id', 'asset_id']) if (!isUuid(b[k])) errors[k] = [tr(req.ctx.lang, b[k] ? 'Must be a valid UUID.' : 'This field is required.')]
    const account = b.account_username ?? ''
    if (typeof account !== 'string' || account.length > 128) errors.account_username = [tr(req.ctx.lang, 'Not a valid string.')]
    if (Object.keys(errors).length) throw validationError(errors)
    const review = await loginAssetReview(req, String(b.user_id), String(b.asset_id), account as string, typeof b.remote_addr === 'string' ? b.remote_addr : req.ip)
    if (!review) return { need_review: false }
    const url = `/api/v1/tickets/super-tickets/${review.ticketId}/status/`
    return {
      need_review: true, check_review_status: { method: 'GET', url }, close_review: { method: 'DELETE', url },
      ticket_detail_url: `/ui/tickets/tickets/login-host-confirm/${review.ticketId}`, reviewers: review.reviewers, ticket_id: review.ticketId,
    }
  })
  app.post('/api/v1/acls/command-filter-acls/command-review/', async (req) => {
    await requirePerm(req, 'acls.view_commandfilteracl')
    const b = body(req)
    const lang = req.ctx.lang
    const errors: Record<string, string[]> = {}
    for (const k of ['session_id', 'cmd_filter_acl_id']) if (!isUuid(b[k])) errors[k] = [tr(lang, b[k] ? 'Must be a valid UUID.' : 'This field is required.')]
    if (typeof b.run_command !== 'string' || !b.run_command) errors.run_command = [tr(lang, 'This field is required.')]
    else if (b.run_command.length > 4096) errors.run_command = [tr(lang, 'Ensure this field has no more than {n} characters.', { n: 4096 })]
    if (Object.keys(errors).length) throw validationError(errors)
    const s = (await sql<{ id: string; user_id: string; asset_id: string; asset: string; account: string; org_id: string }>`select id, user_id, asset_id, asset, account, org_id
      from terminal_sessions where id = ${String(b.session_id)} and (${req.ctx.orgId === ORG_IDS.ROOT} or org_id = ${req.ctx.orgId}::uuid)`.execute(req.ctx.db)).rows[0]
    if (!s || !isUuid(s.user_id)) throw validationError({ session_id: [tr(lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(b.session_id) })] })
    const acl = (await loadCommandAcls(req.ctx.db, s.org_id)).find((a) => a.id === String(b.cmd_filter_acl_id).toLowerCase())
    if (!acl) throw validationError({ cmd_filter_acl_id: [tr(lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(b.cmd_filter_acl_id) })] })
    const id = await openSystemTicket(req.server.services, {
      type: 'command_confirm', orgId: s.org_id, userId: s.user_id, reviewerIds: acl.reviewers.map((r) => r.id), sessionId: s.id,
      columns: {
        apply_run_user_id: s.user_id, apply_run_asset: s.asset.slice(0, 128), apply_run_account: s.account.slice(0, 128),
        apply_run_command: b.run_command as string, apply_from_session_id: s.id, apply_from_cmd_filter_acl_id: acl.id,
      },
    }, req.log)
    const url = `/api/v1/tickets/super-tickets/${id}/status/`
    return {
      check_ticket_api: { method: 'GET', url }, close_ticket_api: { method: 'DELETE', url },
      ticket_detail_page_url: `/ui/tickets/tickets/command-confirm/${id}`, assignees: acl.reviewers.map((r) => r.name),
    }
  })

  // Node suggestions (JumpServer's NodeViewSet `suggestions`, assets.match_node): the request form's node picker
  // for users who may not list nodes.
  app.get('/api/v1/assets/nodes/suggestions/', async (req) => {
    await requirePerm(req, 'assets.match_node')
    const q = req.query as Record<string, unknown>
    const limit = Math.min(100, Math.max(1, Number(q.limit) || 10))
    const offset = Math.max(0, Math.min(1_000_000, Number(q.offset) || 0))
    const search = typeof q.search === 'string' ? q.search.slice(0, 128) : ''
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    const where = sql`org_id = ${req.ctx.orgId}::uuid and (${search === ''} or full_value ilike ${like})`
    const count = (await sql<{ n: number }>`select count(*)::int as n from nodes where ${where}`.execute(req.ctx.db)).rows[0]!.n
    const results = (await sql<{ id: string; name: string; full_value: string }>`select id, value as name, full_value from nodes where ${where} order by full_value limit ${limit} offset ${offset}`.execute(req.ctx.db)).rows
    return { count, next: null, previous: null, results }
  })

  registerLoginConfirm(app)
}

/**
 * The login asset ACL decision for a connection; when it says review, a login_asset_confirm ticket is opened for
 * the ACL's reviewers. Answers undefined when no review is needed (accept, reject and notice are the caller's).
 */
export async function loginAssetReview(req: FastifyRequest, userId: string, assetId: string, account: string, ip: string, open = true): Promise<{ ticketId: string; reviewers: string[] } | undefined> {
  const db = req.ctx.db
  const user = (await sql<{ id: string; username: string }>`select id, username from users where id = ${userId}`.execute(db)).rows[0]
  const asset = (await sql<{ id: string; name: string; address: string; org_id: string }>`select id, name, address, org_id from assets
    where id = ${assetId} and (${req.ctx.orgId === ORG_IDS.ROOT} or org_id = ${req.ctx.orgId}::uuid)`.execute(db)).rows[0]
  if (!user || !asset) throw validationError({ [user ? 'asset_id' : 'user_id']: [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: user ? assetId : userId })] })
  const acls = (await sql<LoginAssetAclLike>`select id, name, org_id, priority, action, is_active, date_updated, users, assets, accounts, rules
    from login_asset_acls where org_id = ${asset.org_id}::uuid and is_active`.execute(db)).rows
  const d = decideLoginAsset(acls, { user: user.username, asset, account, ip, now: new Date(), tz: req.server.services.config.timeZone })
  if (d.action !== 'review' || !d.acl) return undefined
  const reviewers = (await sql<{ id: string; name: string }>`select u.id, u.name from login_asset_acl_reviewers r join users u on u.id = r.user_id
    where r.acl_id = ${d.acl.id} order by u.name`.execute(db)).rows
  if (!open) return { ticketId: '', reviewers: reviewers.map((r) => r.name) }
  const ticketId = await openSystemTicket(req.server.services, {
    type: 'login_asset_confirm', orgId: asset.org_id, userId: user.id, reviewerIds: reviewers.map((r) => r.id),
    columns: { apply_login_user_id: user.id, apply_login_asset_id: asset.id, apply_login_account: account.slice(0, 128) },
  }, req.log)
  return { ticketId, reviewers: reviewers.map((r) => r.name) }
}
