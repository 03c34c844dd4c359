/**
 * Connection tokens `/api/v1/authentication/connection-token/` (contract §5.9): a user's ticket to one granted
 * account and protocol on one asset, for a terminal component. Own tokens only. Created only when a valid
 * permission grants the asset, the account and the protocol with the connect action (grants.ts); the token's
 * actions are that account's merged actions. The value is answered once, by the create; the database keeps its
 * SHA-256 only, lists show it masked. `PATCH …/<id>/expire/` ends a token now.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { userDisplay } from '../../engine/index.ts'
import { isUuid } from '../../engine/parse.ts'
import type { ResourceApi, ResourceDef } from '../../engine/types.ts'
import type { Values } from '../../http/body.ts'
import type { RowOf } from '../../db/connection.ts'
import { requireUser } from '../../http/context.ts'
import { ApiError, validationError } from '../../http/errors.ts'
import { tr } from '../../i18n.ts'
import { prepareWrite } from '../../engine/write.ts'
import { sealSecret } from '../accounts/secrets.ts'
import { ACTION_BITS, ACTION_TREE } from './permissions.ts'
import { assetGrant } from './grants.ts'
import { getSetting, settingDefault } from '../../settings/store.ts'
import './messages.ts'
import { loginAssetReview } from '../../tickets/routes.ts'
import { createdBy } from '../common.ts'

/** A token lives at most this long (reusable or not); the default is five minutes, as JumpServer's. */
const MAX_TTL_MS = 30 * 86400_000
const DEFAULT_TTL_MS = 5 * 60_000

export const hashToken = (value: string) => createHash('sha256').update(value).digest('hex')

async function createToken(req: FastifyRequest, reply: FastifyReply, api: ResourceApi<RowOf<'connection_tokens'>>) {
  const ctx = req.ctx
  const user = requireUser(req)
  // The engine's parsing first (types, lengths, NUL bytes, the asset's existence): 400 field errors, as any create.
  const { prepared, errors: parseErrors } = await prepareWrite(ctx.db, connectionTokens, connectionTokens.fields, req.body ?? {}, ctx, { op: 'create', partial: false, req })
  if (parseErrors) throw validationError(parseErrors)
  const body = prepared!.values
  const str = (v: unknown) => (v && typeof v === 'object' && !(v instanceof Date) ? String((v as Values).id ?? (v as Values).value ?? '') : v === undefined || v === null ? '' : String(v))
  const assetId = str(body.asset)
  const account = str(body.account)
  const protocol = str(body.protocol)
  const connectMethod = str(body.connect_method || 'web_cli')
  const inputUsername = str(body.input_username)
  const reusable = body.is_reusable === true
  const errors: Record<string, string[]> = {}
  const required = tr(ctx.lang, 'This field is required.')
  let expires = new Date(Date.now() + DEFAULT_TTL_MS)
  if (body.date_expired !== undefined && body.date_expired !== null && body.date_expired !== '') {
    const d = new Date(body.date_expired as string | Date)
    if (Number.isNaN(d.getTime()) || d.getTime() <= Date.now() || d.getTime() > Date.now() + MAX_TTL_MS) errors.date_expired = [tr(ctx.lang, 'Connection tokens expire in 1 to 30 days.')]
    else expires = d
  }
  if (Object.keys(errors).length) throw validationError(errors)
  const notGranted = () => validationError({ asset: [tr(ctx.lang, 'The asset is not granted to you, or the permission is not valid now.')] })
  const asset = isUuid(assetId) ? await ctx.db.selectFrom('assets').select(['id', 'org_id']).where('id', '=', assetId).executeTakeFirst() : undefined
  if (!asset) throw notGranted()
  const grant = await assetGrant(ctx.db, { kind: 'user', id: user.id }, asset.org_id, asset.id, user.username)
  if (!grant) throw notGranted()
  const acc = grant.accounts.find((a) => a.alias === account || (a.id !== null && (a.id === account || a.username === account)))
  if (!acc || (acc.actions & ACTION_BITS.connect!) === 0) throw validationError({ account: [tr(ctx.lang, 'The account is not granted to you on this asset.')] })
  const hasProtocol = (await sql<{ n: number }>`select count(*)::int as n from asset_protocols where asset_id = ${asset.id} and name = ${protocol}`.execute(ctx.db)).rows[0]!.n > 0
  if (!hasProtocol || (grant.protocols !== 'all' && !grant.protocols.has(protocol))) throw validationError({ protocol: [tr(ctx.lang, 'The protocol is not granted to you on this asset.')] })
  if (acc.alias === '@INPUT' && !inputUsername) throw validationError({ input_username: [required] })
  // A login asset ACL with review (server/tickets): refused unless `?create_ticket=1`, which opens a ticket for
  // the reviewers and creates the token inactive until its approval (JumpServer's `acl_review`).
  const createTicket = ['1', 'true'].includes(String((req.query as Record<string, unknown> | undefined)?.create_ticket ?? ''))
  const review = await loginAssetReview(req, user.id, asset.id, acc.alias === '@INPUT' ? inputUsername : acc.username ?? acc.alias, req.ip, createTicket)
  if (review && !createTicket) throw new ApiError(400, { detail: tr(ctx.lang, 'Login needs a reviewer\'s approval'), code: 'acl_review' })
  const id = randomUUID()
  const value = randomBytes(27).toString('base64url')
  // decrypted by the parsing (an `encrypted` field)
  const secret = str(body.input_secret)
  await sql`insert into connection_tokens (id, value, user_id, asset_id, org_id, account, input_username, input_secret, protocol, connect_method,
      actions, is_reusable, date_expired, created_by, updated_by, is_active, from_ticket_id)
    values (${id}, ${hashToken(value)}, ${user.id}, ${asset.id}, ${asset.org_id}, ${acc.alias}, ${acc.alias === '@USER' ? user.username : inputUsername},
      ${secret ? sealSecret(req.server.services.database, 'connection_tokens', id, 'input_secret', secret) : ''}, ${protocol}, ${connectMethod},
      ${acc.actions}, ${reusable}, ${expires}, ${userDisplay(user)}, ${userDisplay(user)}, ${!review}, ${review?.ticketId ?? null})`.execute(ctx.db)
  const [row] = await api.serialize(req, [{ id }], { action: 'retrieve' })
  await api.audit(ctx.db, req, 'create', { ...row!, org_id: asset.org_id })
  return reply.status(201).send({ ...row, value, ssh: await sshCommand(req, id) })
}

/**
 * How the `ssh` client reaches the built-in SSH gateway with this token (the Connect dialog shows it): the host of
 * the Site URL setting (the request's host while the Site URL is the default), the gateway's port; null when the
 * gateway is off. The password is the token's value.
 */
async function sshCommand(req: FastifyRequest, tokenId: string): Promise<{ host: string; port: number; username: string; command: string } | null> {
  const port = sshGatewayPort(req.server)
  if (!port) return null
  const site = String((await getSetting(req.ctx.db, 'SITE_URL')) ?? '')
  const fromSite = site && site !== settingDefault(req.ctx.db, 'SITE_URL') ? (() => { try { return new URL(site).hostname } catch { return '' } })() : ''
  const fromRequest = (() => { try { return new URL(`http://${req.headers.host ?? ''}`).hostname } catch { return '' } })()
  const host = fromSite || fromRequest || '127.0.0.1'
  const username = `JMS-${tokenId}`
  const shown = host.includes(':') ? `[${host}]` : host
  return { host, port, username, command: `ssh ${username}@${shown} -p ${port}` }
}

/** The SSH gateway's port of this server (0 when it is off); the terminal module sets it. */
const gatewayPorts = new WeakMap<object, number>()
export function setSshGatewayPort(app: object, port: number): void {
  gatewayPorts.set(app, port)
}
export function sshGatewayPort(app: FastifyRequest['server']): number {
  return gatewayPorts.get(app) ?? app.services.config.sshPort
}

export const connectionTokens: ResourceDef<'connection_tokens'> = {
  name: 'authentication.connectiontoken',
  app: 'authentication',
  model: 'connectiontoken',
  verboseName: 'Connection token',
  path: '/api/v1/authentication/connection-token/',
  table: 'connection_tokens',
  systemPerms: true,
  fields: [
    { name: 'id', type: 'uuid', label: 'ID', read_only: true },
    { name: 'value', type: 'string', label: 'Value', read_only: true, column: false, get: () => '******' },
    { name: 'user', type: 'fk', label: 'User', read_only: true, relation: { resource: 'users.user', attrs: ['id', 'name', 'username'], unscoped: true } },
    { name: 'asset', type: 'fk', label: 'Asset', required: true, relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'], unscoped: true } },
    { name: 'account', type: 'string', label: 'Account', required: true, max_length: 128 },
    { name: 'input_username', type: 'string', label: 'Input username', max_length: 128, default: '' },
    { name: 'input_secret', type: 'string', label: 'Input secret', write_only: true, encrypted: true, secret: true, max_length: 1024, default: '' },
    { name: 'protocol', type: 'string', label: 'Protocol', required: true, max_length: 32 },
    { name: 'connect_method', type: 'string', label: 'Connect method', max_length: 32, default: 'web_cli' },
    { name: 'actions', type: 'tree', label: 'Action', read_only: true, tree: ACTION_TREE, bits: ACTION_BITS },
    { name: 'is_reusable', type: 'boolean', label: 'Reusable', default: false },
    { name: 'is_active', type: 'boolean', label: 'Active', default: true },
    { name: 'from_ticket', type: 'boolean', label: 'From ticket', read_only: true, expr: '(t.from_ticket_id is not null)' },
    {
      name: 'from_ticket_info', type: 'json', label: 'From ticket', read_only: true,
      expr: `(case when t.from_ticket_id is null then null else json_build_object(
        'check_ticket_api', json_build_object('method', 'GET', 'url', '/api/v1/tickets/super-tickets/' || t.from_ticket_id || '/status/'),
        'close_ticket_api', json_build_object('method', 'DELETE', 'url', '/api/v1/tickets/super-tickets/' || t.from_ticket_id || '/status/'),
        'ticket_detail_page_url', '/ui/tickets/tickets/login-host-confirm/' || t.from_ticket_id) end)`,
    },
    { name: 'date_expired', type: 'datetime', label: 'Date expired' },
    { name: 'expire_time', type: 'integer', label: 'Expire time', read_only: true, expr: '(greatest(0, extract(epoch from t.date_expired - now()))::int)' },
    { name: 'is_expired', type: 'boolean', label: 'Is expired', read_only: true, expr: '(t.date_expired <= now())' },
    { name: 'org_id', type: 'string', label: 'Organization ID', read_only: true },
    { name: 'org_name', type: 'string', label: 'Organization name', read_only: true, expr: '(select o.name from organizations o where o.id = t.org_id)' },
    createdBy,
    { name: 'date_created', type: 'datetime', label: 'Date created', read_only: true },
  ],
  // Own tokens only, in every organization.
  scope: (ctx) => (ctx.user ? sql`t.user_id = ${ctx.user.id}` : sql`false`),
  ownObjects: true,
  search: ['account', 'protocol'],
  filters: ['id', 'asset', 'account', 'protocol', 'is_active'],
  ordering: { fields: ['date_created', 'date_expired', 'account'], default: ['-date_created'] },
  verbs: ['list', 'retrieve', 'create', 'destroy', 'bulk_destroy'],
  bulkDelete: 'ids',
  display: (r) => `${String(r.account)}@${String(r.protocol)}`,
  hooks: { create: createToken },
  actions: [{
    path: 'expire', detail: true, method: 'PATCH', perm: 'authentication.change_connectiontoken', systemPerm: true,
    async handler(req, reply, api, id) {
      const row = await api.getObject(req, id!)
      await req.ctx.db.updateTable('connection_tokens').set({ date_expired: sql`now()`, date_updated: sql`now()` }).where('id', '=', String(row.id)).execute()
      return reply.status(204).send()
    },
  }],
}
