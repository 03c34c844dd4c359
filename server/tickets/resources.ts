/**
 * Tickets `/api/v1/tickets/tickets/` and the four typed endpoints (kinds of one base on the one `tickets` table,
 * as assets' kinds), flows `/api/v1/tickets/flows/` (contract §5.7; JumpServer 3.2 apps/tickets; docs/tickets.md).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB, RowOf } from '../db/connection.ts'
import { kindOf } from '../engine/derive.ts'
import { userDisplay } from '../engine/index.ts'
import { isUuid } from '../engine/parse.ts'
import type { ActionDef, Ctx, FieldDef, LoadArgs, ResourceApi, ResourceDef, StoredRow } from '../engine/types.ts'
import { bodyObject, type Values } from '../http/body.ts'
import { requireUser } from '../http/context.ts'
import { ApiError, validationError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, updatedBy } from '../resources/common.ts'
import { ACTION_BITS, ACTION_TREE, ACCOUNT_ALIASES } from '../resources/perms/permissions.ts'
import { applyAction, flowFor, openTicket, processMaps, ruleAssignees, STRATEGIES, TicketError, type FlowRule, type Strategy, type TicketRow, type TicketType } from './core.ts'
import { afterTransition, afterOpen } from './notify.ts'
import { STATE_CHOICES, STATUS_CHOICES, STRATEGY_CHOICES, TYPE_CHOICES } from './choices.ts'
import './messages.ts'

const participantScope = (ctx: Ctx) => (ctx.user ? sql`t.participants @> array[${ctx.user.id}]::uuid[]` : sql`false`)
const uuidFilter = (col: string) => ({
  name: col === 'applicant_id' ? 'applicant' : col,
  apply: (v: string) => (isUuid(v) ? sql`${sql.ref(`t.${col}`)} = ${v}` : sql`false`),
})

const baseFields: FieldDef[] = [
  idField(),
  { name: 'title', type: 'string', label: 'Title', required: true, max_length: 256 },
  { name: 'type', type: 'labeled_choice', label: 'Type', read_only: true, choices: TYPE_CHOICES },
  { name: 'state', type: 'labeled_choice', label: 'State', read_only: true, choices: STATE_CHOICES },
  { name: 'status', type: 'labeled_choice', label: 'Status', read_only: true, choices: STATUS_CHOICES },
  { name: 'serial_num', type: 'string', label: 'Serial number', read_only: true },
  { name: 'applicant', type: 'fk', label: 'Applicant', read_only: true, relation: { resource: 'users.user', attrs: ['id', 'name', 'username'], unscoped: true } },
  // {value, label} as JumpServer's TicketLevel: lina reads `approval_step.value` (Comments.vue, TicketDetail.vue)
  { name: 'approval_step', type: 'labeled_choice', label: 'Approval step', read_only: true, choices: [{ value: 1, label: 'One level' }, { value: 2, label: 'Two level' }] },
  {
    name: 'process_map', type: 'field', label: 'Process map', read_only: true, column: false,
    load: async (ids, { db }) => processMaps(db, ids as string[]),
  },
  { name: 'rel_snapshot', type: 'json', label: 'Relation snapshot', read_only: true },
  commentField,
  { name: 'org_id', type: 'string', label: 'Organization ID', read_only: true },
  { name: 'org_name', type: 'string', label: 'Organization name', read_only: true, expr: '(select o.name from organizations o where o.id = t.org_id)' },
  createdBy,
  updatedBy,
  dateCreated,
  dateUpdated,
]

export const tickets: ResourceDef<'tickets'> = {
  name: 'tickets.ticket',
  app: 'tickets',
  model: 'ticket',
  verboseName: 'Ticket',
  path: '/api/v1/tickets/tickets/',
  table: 'tickets',
  systemPerms: true,
  fields: baseFields,
  // The caller's tickets, as applicant or as an assignee of any step, in every organization.
  scope: participantScope,
  ownObjects: true,
  search: ['title', 'serial_num'],
  filters: [
    'id', 'title', 'type', 'status', 'state',
    uuidFilter('applicant_id'),
    // JumpServer's `assignees__id`: the assignees of the ticket's current step.
    { name: 'assignees__id', apply: (v) => (isUuid(v) ? sql`t.current_assignees @> array[${v}]::uuid[]` : sql`false`) },
    { name: 'relevant_asset', apply: (v) => (isUuid(v) ? sql`(t.apply_login_asset_id = ${v} or exists (select 1 from ticket_apply_assets x where x.ticket_id = t.id and x.asset_id = ${v}))` : sql`false`) },
    { name: 'relevant_command', apply: (v) => sql`t.apply_run_command ilike ${`%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` },
  ],
  ordering: { fields: ['date_created', 'date_updated', 'title', 'serial_num', 'state', 'status'], default: ['-date_created'] },
  verbs: ['list', 'retrieve'],
  perms: { view: 'tickets.view_ticket' },
  noAudit: true,
  display: (r) => String(r.title),
}

/** The fields an approver may change on an asset request before approving. */
export const APPLY_ASSET_EDITABLE = ['apply_nodes', 'apply_assets', 'apply_accounts', 'apply_actions', 'apply_date_start', 'apply_date_expired'] as const

const applyAssetFields: Array<FieldDef<StoredRow<'tickets'>>> = [
  {
    name: 'apply_nodes', type: 'm2m', label: 'Node', default: [],
    relation: { resource: 'assets.node', attrs: ['id', 'name', 'full_value'], unscoped: true, through: { table: 'ticket_apply_nodes', from: 'ticket_id', to: 'node_id' } },
  },
  {
    name: 'apply_assets', type: 'm2m', label: 'Asset', default: [],
    relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'], unscoped: true, through: { table: 'ticket_apply_assets', from: 'ticket_id', to: 'asset_id' } },
  },
  { name: 'apply_accounts', type: 'list', label: 'Apply accounts', default: ['@ALL'], child: { name: 'apply_accounts', type: 'string', max_length: 128 } },
  { name: 'apply_actions', type: 'tree', label: 'Apply actions', tree: ACTION_TREE, bits: ACTION_BITS, default: ['connect', 'upload', 'download', 'copy', 'paste'] },
  { name: 'apply_date_start', type: 'datetime', label: 'Date start', required: true },
  { name: 'apply_date_expired', type: 'datetime', label: 'Date expired', required: true },
  { name: 'apply_permission_name', type: 'string', label: 'Permission name', read_only: true },
]

const scopeType = (type: TicketType) => () => sql`t.type = ${type}`

export const applyAssetTickets = kindOf(tickets, {
  name: 'tickets.applyassetticket', model: 'applyassetticket', verboseName: 'Apply Asset Ticket', path: '/api/v1/tickets/apply-asset-tickets/',
  fields: applyAssetFields, scope: scopeType('apply_asset'),
})
export const applyLoginTickets = kindOf(tickets, {
  name: 'tickets.applyloginticket', model: 'applyloginticket', verboseName: 'Apply Login Ticket', path: '/api/v1/tickets/apply-login-tickets/',
  fields: [
    { name: 'apply_login_ip', type: 'string', label: 'Login IP', read_only: true },
    { name: 'apply_login_city', type: 'string', label: 'Login city', read_only: true },
    { name: 'apply_login_datetime', type: 'datetime', label: 'Login datetime', read_only: true },
  ],
  scope: scopeType('login_confirm'),
})
export const applyLoginAssetTickets = kindOf(tickets, {
  name: 'tickets.applyloginassetticket', model: 'applyloginassetticket', verboseName: 'Apply Login Asset Ticket', path: '/api/v1/tickets/apply-login-asset-tickets/',
  fields: [
    { name: 'apply_login_user', type: 'fk', label: 'Login user', read_only: true, relation: { resource: 'users.user', attrs: ['id', 'name', 'username'], unscoped: true } },
    { name: 'apply_login_asset', type: 'fk', label: 'Login asset', read_only: true, relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'], unscoped: true } },
    { name: 'apply_login_account', type: 'string', label: 'Login account', read_only: true },
  ],
  scope: scopeType('login_asset_confirm'),
})
export const applyCommandTickets = kindOf(tickets, {
  name: 'tickets.applycommandticket', model: 'applycommandticket', verboseName: 'Apply Command Ticket', path: '/api/v1/tickets/apply-command-tickets/',
  fields: [
    { name: 'apply_run_user', type: 'fk', label: 'Run user', read_only: true, relation: { resource: 'users.user', attrs: ['id', 'name', 'username'], unscoped: true } },
    { name: 'apply_run_asset', type: 'string', label: 'Run asset', read_only: true },
    { name: 'apply_run_account', type: 'string', label: 'Run account', read_only: true },
    { name: 'apply_run_command', type: 'string', label: 'Run command', read_only: true },
    { name: 'apply_from_session', type: 'string', label: 'Session', read_only: true, column: 'apply_from_session_id' },
    { name: 'apply_from_cmd_filter_acl', type: 'string', label: 'Command filter ACL', read_only: true, column: 'apply_from_cmd_filter_acl_id' },
  ],
  scope: scopeType('command_confirm'),
})

/** Maps a TicketError to the answer: 403 refusals, 400 for a closed ticket (JumpServer's AlreadyClosed). */
export function ticketErrorReply(e: unknown, lang: Ctx['lang']): never {
  if (e instanceof TicketError) {
    if (e.kind === 'closed') throw new ApiError(400, { detail: tr(lang, 'The ticket is already closed'), code: 'ticket_closed' })
    if (e.kind === 'forbidden') throw new ApiError(403, { detail: tr(lang, 'You are not allowed to do this on the ticket'), code: 'permission_denied' })
    throw new ApiError(404, { detail: tr(lang, 'Ticket not found'), code: 'object_does_not_exist' })
  }
  throw e
}

interface ApplyAssetValues { nodes?: string[]; assets?: string[]; accounts?: string[]; actions?: number; start?: Date; expired?: Date }

/** Parses the asset-request fields of a body (open or approve), checking ids against the ticket's organization. */
async function parseApplyAsset(req: FastifyRequest, body: Values, orgId: string, partial: boolean, db = req.ctx.db): Promise<ApplyAssetValues> {
  const ctx = req.ctx
  const errors: Record<string, string[]> = {}
  const out: ApplyAssetValues = {}
  const ids = async (field: string, table: 'assets' | 'nodes') => {
    const raw = body[field]
    if (raw === undefined) return undefined
    if (!Array.isArray(raw) || raw.length > 1000) { errors[field] = [tr(ctx.lang, 'Expected a list of items but got type "{type}".', { type: typeof raw })]; return undefined }
    const list = [...new Set(raw.map((v) => (v && typeof v === 'object' ? (v as Values).id : v)))]
    const bad = list.filter((v) => !isUuid(v))
    if (bad.length) { errors[field] = [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(bad[0]) })]; return undefined }
    if (!list.length) return []
    const found = new Set((await sql<{ id: string }>`select id from ${sql.table(table)} where id = any(${list}::uuid[]) and org_id = ${orgId}`.execute(db)).rows.map((r) => r.id))
    const missing = list.filter((v) => !found.has(String(v)))
    if (missing.length) { errors[field] = [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: String(missing[0]) })]; return undefined }
    return list as string[]
  }
  out.nodes = await ids('apply_nodes', 'nodes')
  out.assets = await ids('apply_assets', 'assets')
  if (body.apply_accounts !== undefined) {
    const a = body.apply_accounts
    if (!Array.isArray(a) || a.length > 200 || a.some((x) => typeof x !== 'string' || x.length > 128 || x.includes('\0'))) errors.apply_accounts = [tr(ctx.lang, 'Not a valid string.')]
    else {
      const list = [...new Set((a as string[]).map((x) => x.trim()).filter(Boolean))]
      const badAlias = list.find((x) => x.startsWith('@') && !ACCOUNT_ALIASES.includes(x))
      if (badAlias) errors.apply_accounts = [tr(ctx.lang, 'Unknown account alias: {alias}', { alias: badAlias })]
      else out.accounts = list
    }
  }
  if (body.apply_actions !== undefined) {
    const a = body.apply_actions
    const list = Array.isArray(a) ? a.map((x) => (x && typeof x === 'object' ? (x as Values).value : x)) : undefined
    if (!list || list.some((x) => typeof x !== 'string' || !(x in ACTION_BITS) && x !== 'all')) errors.apply_actions = [tr(ctx.lang, '"{input}" is not a valid choice.', { input: String(list?.find((x) => typeof x !== 'string' || !(x in ACTION_BITS)) ?? a) })]
    else out.actions = list.includes('all') ? Object.values(ACTION_BITS).reduce((s, b) => s | b, 0) : (list as string[]).reduce((s, x) => s | ACTION_BITS[x]!, 0)
  }
  const date = (field: string) => {
    const v = body[field]
    if (v === undefined) { if (!partial) errors[field] = [tr(ctx.lang, 'This field is required.')]; return undefined }
    const d = typeof v === 'string' || typeof v === 'number' ? new Date(v) : undefined
    if (!d || Number.isNaN(d.getTime()) || d.getFullYear() > 9999) { errors[field] = [tr(ctx.lang, 'Datetime has wrong format. Use one of these formats instead: {formats}.', { formats: 'YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]' })]; return undefined }
    return d
  }
  out.start = date('apply_date_start')
  out.expired = date('apply_date_expired')
  if (Object.keys(errors).length) throw validationError(errors)
  return out
}

async function openApplyAsset(req: FastifyRequest, reply: FastifyReply, api: ResourceApi<RowOf<'tickets'>>) {
  const ctx = req.ctx
  const user = requireUser(req)
  const body = bodyObject(req)
  const errors: Record<string, string[]> = {}
  const title = typeof body.title === 'string' ? body.title.trim() : ''
  if (!title) errors.title = [tr(ctx.lang, 'This field is required.')]
  else if (title.length > 256 || title.includes('\0')) errors.title = [tr(ctx.lang, 'Ensure this field has no more than {n} characters.', { n: 256 })]
  const comment = typeof body.comment === 'string' ? body.comment : ''
  if (comment.length > 4096 || comment.includes('\0')) errors.comment = [tr(ctx.lang, 'Ensure this field has no more than {n} characters.', { n: 4096 })]
  let orgId = typeof body.org_id === 'string' && body.org_id ? body.org_id : ctx.orgId
  if (!isUuid(orgId) || orgId === ORG_IDS.ROOT) errors.org_id = [tr(ctx.lang, 'This field is required.')]
  else {
    // The applicant must belong to the organization the request is for.
    const member = (await sql<{ n: number }>`select count(*)::int as n from users where id = ${user.id} and org_ids @> array[${orgId}]::uuid[]`.execute(ctx.db)).rows[0]!.n > 0
    if (!member) errors.org_id = [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: orgId })]
  }
  if (Object.keys(errors).length) throw validationError(errors)
  orgId = orgId.toLowerCase()
  const v = await parseApplyAsset(req, body, orgId, false)
  if (!v.nodes?.length && !v.assets?.length) throw validationError({ apply_assets: [tr(ctx.lang, 'Choose assets or nodes')] })
  if (v.start && v.expired && v.expired.getTime() <= v.start.getTime()) throw validationError({ apply_date_expired: [tr(ctx.lang, 'The expiry date must be after the start date.')] })
  const flow = await flowFor(ctx.db, 'apply_asset', orgId)
  if (!flow) throw validationError({ type: [tr(ctx.lang, 'No ticket flow')] })
  const levels: string[][] = []
  for (const rule of flow.rules.slice(0, flow.approval_level)) levels.push(await ruleAssignees(ctx.db, rule.strategy, orgId, rule.assignees ?? []))
  if (levels.some((l) => !l.length)) throw validationError({ type: [tr(ctx.lang, 'The ticket flow has a level without assignees')] })
  const display = userDisplay(user)
  const id = await ctx.db.transaction().execute(async (tx) => {
    const { randomUUID } = await import('node:crypto')
    const tid = randomUUID()
    const permName = `Created by ticket (${title.slice(0, 80)}-${tid.slice(0, 4)})`
    const exists = (await sql<{ n: number }>`select count(*)::int as n from asset_permissions where org_id = ${orgId} and name = ${permName}`.execute(tx)).rows[0]!.n > 0
    if (exists) throw validationError({ title: [tr(ctx.lang, 'Permission named "{name}" already exists', { name: permName })] })
    await openTicket(tx, {
      id: tid, type: 'apply_asset', orgId, applicantId: user.id, applicantDisplay: display, title, comment, flowId: flow.id, levels,
      columns: {
        apply_accounts: v.accounts ?? ['@ALL'], apply_actions: v.actions ?? ACTION_BITS.connect! | ACTION_BITS.upload! | ACTION_BITS.download! | ACTION_BITS.copy! | ACTION_BITS.paste!,
        apply_date_start: v.start, apply_date_expired: v.expired, apply_permission_name: permName,
      },
    })
    await setLinks(tx, tid, v)
    return tid
  })
  await afterOpen(req.server.services, id, req.log)
  const [row] = await api.serialize(req, [{ id }], { action: 'retrieve' })
  return reply.status(201).send(row)
}

async function setLinks(tx: DB, id: string, v: ApplyAssetValues) {
  if (v.nodes) {
    await sql`delete from ticket_apply_nodes where ticket_id = ${id}`.execute(tx)
    if (v.nodes.length) await sql`insert into ticket_apply_nodes (ticket_id, node_id) select ${id}, n from unnest(${v.nodes}::uuid[]) n`.execute(tx)
  }
  if (v.assets) {
    await sql`delete from ticket_apply_assets where ticket_id = ${id}`.execute(tx)
    if (v.assets.length) await sql`insert into ticket_apply_assets (ticket_id, asset_id) select ${id}, a from unnest(${v.assets}::uuid[]) a`.execute(tx)
  }
}

/** Creates the asset permission of an approved request (handlers/apply_asset.py): id = the ticket's. */
export async function createPermissionFromTicket(tx: DB, t: TicketRow, approvers: string): Promise<void> {
  const applicant = (await sql<{ name: string; username: string }>`select name, username from users where id = ${t.applicant_id}`.execute(tx)).rows[0]
  const comment = `Title: ${t.title}\nApplicant: ${applicant ? `${applicant.name}(${applicant.username})` : ''}\nProcessor: ${approvers}\nID: ${t.id}`
  const r = await sql`insert into asset_permissions (id, name, org_id, accounts, protocols, actions, is_active, date_start, date_expired, from_ticket, comment, created_by, updated_by)
    select id, apply_permission_name, org_id, coalesce(apply_accounts, '["@ALL"]'::jsonb), '["all"]'::jsonb, coalesce(apply_actions, 1), true,
      coalesce(apply_date_start, now()), coalesce(apply_date_expired, now() + interval '70 years'), true, ${comment}, ${`ApplyAssetTicket:${t.id}`}, ${`ApplyAssetTicket:${t.id}`}
    from tickets where id = ${t.id} on conflict do nothing`.execute(tx)
  if (!Number(r.numAffectedRows ?? 0)) return
  if (t.applicant_id) await sql`insert into asset_permission_users (assetpermission_id, user_id) values (${t.id}, ${t.applicant_id}) on conflict do nothing`.execute(tx)
  await sql`insert into asset_permission_nodes (assetpermission_id, node_id) select ticket_id, node_id from ticket_apply_nodes where ticket_id = ${t.id} on conflict do nothing`.execute(tx)
  await sql`insert into asset_permission_assets (assetpermission_id, asset_id) select ticket_id, asset_id from ticket_apply_assets where ticket_id = ${t.id} on conflict do nothing`.execute(tx)
}

/** What a final approval does besides the state: an asset request's permission, a waiting connection token. */
export async function finalApproveEffects(tx: DB, t: TicketRow, display: string): Promise<void> {
  if (t.type === 'apply_asset') await createPermissionFromTicket(tx, t, display)
  if (t.type === 'login_asset_confirm') await sql`update connection_tokens set is_active = true, date_updated = now() where from_ticket_id = ${t.id}`.execute(tx)
}

/** Runs an action for the request's user on a ticket the user can see (others: 404, as the scope hides it). */
async function act(req: FastifyRequest, api: ResourceApi, id: string, action: 'approve' | 'reject' | 'close') {
  const ctx = req.ctx
  const user = requireUser(req)
  const row = await api.getObject(req, id)
  const display = userDisplay(user)
  let transition
  try {
    transition = await ctx.db.transaction().execute(async (tx) => {
      let extra = ''
      if (action === 'approve' && row.type === 'apply_asset') extra = await applyAssetEdits(req, tx, row.id as string, row.org_id as string, user.id)
      return applyAction(tx, row.id as string, user.id, display, action, {
        commentExtra: extra,
        beforeFinalApprove: async (t) => {
          if (t.type !== 'apply_asset') return finalApproveEffects(tx, t, display)
          const n = (await sql<{ nodes: number; assets: number; accounts: number }>`select
              (select count(*)::int from ticket_apply_nodes where ticket_id = ${t.id}) as nodes,
              (select count(*)::int from ticket_apply_assets where ticket_id = ${t.id}) as assets,
              coalesce(jsonb_array_length(apply_accounts), 0) as accounts from tickets where id = ${t.id}`.execute(tx)).rows[0]!
          if (!n.nodes && !n.assets) throw validationError({ apply_assets: [tr(ctx.lang, 'Choose assets or nodes')] })
          if (!n.accounts) throw validationError({ apply_accounts: [tr(ctx.lang, 'This field is required.')] })
          await finalApproveEffects(tx, t, display)
        },
      })
    })
  } catch (e) {
    if (process.env.DEBUG_TICKETS) console.error(e)
    ticketErrorReply(e, ctx.lang)
  }
  await afterTransition(req.server.services, transition, req.log)
  return 'ok'
}

/** An approver's edits of an asset request (only the current step's assignees reach this); a comment suffix. */
async function applyAssetEdits(req: FastifyRequest, tx: DB, id: string, orgId: string, userId: string): Promise<string> {
  const body = bodyObject(req)
  const touched = APPLY_ASSET_EDITABLE.filter((f) => body[f] !== undefined)
  if (!touched.length) return ''
  // Check the caller may approve before changing anything.
  const t = (await sql<TicketRow>`select * from tickets where id = ${id} for update`.execute(tx)).rows[0]!
  const mine = (await sql<{ n: number }>`select count(*)::int as n from ticket_assignees where ticket_id = ${id} and level = ${t.approval_step} and user_id = ${userId}`.execute(tx)).rows[0]!.n > 0
  if (t.status !== 'open' || !mine || t.applicant_id === userId) return ''
  const v = await parseApplyAsset(req, body, orgId, true, tx)
  const start = v.start ?? (t.apply_date_start as Date)
  const end = v.expired ?? (t.apply_date_expired as Date)
  if (start && end && new Date(end).getTime() <= new Date(start).getTime()) throw validationError({ apply_date_expired: [tr(req.ctx.lang, 'The expiry date must be after the start date.')] })
  await sql`update tickets set
      apply_accounts = coalesce(${v.accounts ? JSON.stringify(v.accounts) : null}::jsonb, apply_accounts),
      apply_actions = coalesce(${v.actions ?? null}::int, apply_actions),
      apply_date_start = coalesce(${v.start ?? null}::timestamptz, apply_date_start),
      apply_date_expired = coalesce(${v.expired ?? null}::timestamptz, apply_date_expired)
    where id = ${id}`.execute(tx)
  await setLinks(tx, id, v)
  return ` (${touched.join(', ')})`
}

const detailAction = (path: string, method: ActionDef['method'], action: 'approve' | 'reject' | 'close'): ActionDef => ({
  // JumpServer answers Response('ok'): the JSON string "ok"
  path, detail: true, method, perm: null, handler: async (req, reply, api, id) => reply.type('application/json').send(JSON.stringify(await act(req, api, id!, action))),
})
const TICKET_ACTIONS: ActionDef[] = [
  detailAction('approve', 'PUT', 'approve'), detailAction('approve', 'PATCH', 'approve'),
  detailAction('reject', 'PUT', 'reject'), detailAction('close', 'PUT', 'close'),
]

tickets.actions = TICKET_ACTIONS
for (const k of [applyLoginTickets, applyLoginAssetTickets, applyCommandTickets]) k.actions = TICKET_ACTIONS
applyAssetTickets.actions = [...TICKET_ACTIONS, { path: 'open', detail: false, method: 'POST', perm: null, createForm: true, handler: openApplyAsset }]

// ─── Flows ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The flows of an organization: its own and the root's (ROOT: every one), in the list and by id alike.
 * `?effective=1` lists only the flows that apply — the root's flow of a type the organization has overridden left
 * out (JumpServer's `get_org_related_flows`); the console's list asks it.
 */
const flowScope = (ctx: Ctx) => ctx.orgId === ORG_IDS.ROOT ? undefined : sql`t.org_id in (${ctx.orgId}, ${ORG_IDS.ROOT})`
const effectiveFlows = {
  name: 'effective',
  apply: (v: string, ctx: Ctx) => (v === '1' && ctx.orgId !== ORG_IDS.ROOT
    ? sql`not (t.org_id = ${ORG_IDS.ROOT} and exists (select 1 from ticket_flows f where f.org_id = ${ctx.orgId} and f.type = t.type))`
    : undefined),
}

/** A flow's stored rules (a JSON list written by the flow's validation). */
const rulesOf = (r: Pick<RowOf<'ticket_flows'>, 'rules'>) => (Array.isArray(r.rules) ? r.rules : []) as unknown as FlowRule[]

async function rulesOut(_ids: unknown[], { db, rows }: LoadArgs<RowOf<'ticket_flows'>>): Promise<Map<unknown, unknown>> {
  const userIds = [...new Set(rows.flatMap((r) => rulesOf(r).flatMap((x) => x.assignees ?? [])))]
  const names = new Map((userIds.length ? (await sql<{ id: string; d: string }>`select id, name || '(' || username || ')' as d from users where id = any(${userIds}::uuid[])`.execute(db)).rows : []).map((u) => [u.id, u.d]))
  const out = new Map<unknown, unknown>()
  for (const r of rows) {
    const list = rulesOf(r).slice(0, Number(r.approval_level ?? 1))
    const mapped = []
    for (const [i, rule] of list.entries()) {
      const assignees = rule.strategy === 'custom_user' ? (rule.assignees ?? []) : await ruleAssignees(db, rule.strategy, String(r.org_id), [])
      mapped.push({
        level: i + 1,
        strategy: { value: rule.strategy, label: STRATEGY_CHOICES.find((c) => c.value === rule.strategy)?.label ?? rule.strategy },
        assignees_read_only: assignees,
        assignees_display: assignees.map((a) => names.get(a) ?? a),
      })
    }
    out.set(r.id, mapped)
  }
  return out
}

export const flows: ResourceDef<'ticket_flows'> = {
  name: 'tickets.ticketflow',
  app: 'tickets',
  model: 'ticketflow',
  verboseName: 'Ticket flow',
  path: '/api/v1/tickets/flows/',
  table: 'ticket_flows',
  systemPerms: true,
  fields: [
    idField(),
    { name: 'type', type: 'labeled_choice', label: 'Type', read_only: true, choices: TYPE_CHOICES.slice(0, 1) },
    { name: 'approval_level', type: 'choice', label: 'Approval level', required: true, choices: [{ value: 1, label: 'One level' }, { value: 2, label: 'Two level' }], default: 1 },
    {
      name: 'rules', type: 'nested_many', label: 'Rules', required: true, column: 'rules',
      children: [
        { name: 'level', type: 'integer', label: 'Approve level', read_only: true },
        { name: 'strategy', type: 'labeled_choice', label: 'Approve strategy', choices: STRATEGY_CHOICES, required: true },
        { name: 'assignees', type: 'list', label: 'Assignees', write_only: true, default: [], child: { name: 'assignees', type: 'uuid' } },
        { name: 'assignees_read_only', type: 'list', label: 'Assignees', read_only: true },
        { name: 'assignees_display', type: 'list', label: 'Assignees display', read_only: true },
      ],
      load: rulesOut,
      validate: (v: unknown) => (Array.isArray(v) && v.length >= 1 && v.length <= 2 ? undefined : 'Ensure this field has 1 or 2 elements.'),
    },
    { name: 'org_id', type: 'string', label: 'Organization ID', read_only: true },
    { name: 'org_name', type: 'string', label: 'Organization name', read_only: true, expr: '(select o.name from organizations o where o.id = t.org_id)' },
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  scope: flowScope,
  filters: ['id', 'type', effectiveFlows],
  ordering: { fields: ['date_created', 'type'], default: ['type'] },
  verbs: ['list', 'retrieve', 'update'],
  auditOrg: 'current',
  display: (r) => String(r.type),
  hooks: {
    async validate(values, ctx) {
      const rules = values.rules as Array<{ strategy: unknown; assignees?: unknown[] }> | undefined
      if (!rules) return undefined
      const level = Number(values.approval_level ?? rules.length)
      const errs: Record<string, unknown>[] = []
      let bad = false
      const out: FlowRule[] = []
      for (const r of rules) {
        const strategy = (r.strategy && typeof r.strategy === 'object' ? (r.strategy as Values).value : r.strategy) as Strategy
        const assignees = [...new Set((r.assignees ?? []).map(String))]
        const e: Record<string, unknown> = {}
        if (!STRATEGIES.includes(strategy)) e.strategy = [tr(ctx.lang, '"{input}" is not a valid choice.', { input: String(strategy) })]
        if (strategy === 'custom_user') {
          if (!assignees.length) e.assignees = [tr(ctx.lang, 'This field is required.')]
          else if (assignees.some((a) => !isUuid(a))) e.assignees = [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: assignees.find((a) => !isUuid(a))! })]
          else {
            const found = (await sql<{ id: string }>`select id from users where id = any(${assignees}::uuid[])`.execute(ctx.db)).rows.length
            if (found !== assignees.length) e.assignees = [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: assignees[0]! })]
          }
        }
        if (Object.keys(e).length) bad = true
        errs.push(e)
        out.push({ strategy, assignees: strategy === 'custom_user' ? assignees : [] })
      }
      if (bad) return { rules: errs }
      if (out.length < level) return { rules: [tr(ctx.lang, 'Each approval level needs a rule')] }
      values.rules = out.slice(0, level)
      return undefined
    },
  },
}

export const TICKET_RESOURCES = [tickets, applyAssetTickets, applyLoginTickets, applyLoginAssetTickets, applyCommandTickets, flows]
