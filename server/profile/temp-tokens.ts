/**
 * Temporary passwords `/api/v1/authentication/temp-tokens/` (contract §5.9; JumpServer's TempTokenViewSet), while
 * the AUTH_TEMP_TOKEN setting is on: `POST` makes a one-time password (36 characters) for the caller, valid
 * TTL_SECONDS, answered once (the database keeps its SHA-256); lists show it masked; `PATCH <id>/expire/` ends
 * one now. A terminal component (the SSH gateway) accepts it as the user's password once: `consumeTempToken` marks
 * it verified in the same statement that checks it, so two logins cannot both use it (docs/api-auth.md).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import type { ResourceApi, ResourceDef } from '../engine/types.ts'
import { requireUser } from '../http/context.ts'
import { permissionDenied } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { getSetting } from '../settings/store.ts'

export const TTL_SECONDS = 300
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

export function newTempSecret(): string {
  // 36 characters from 62 (rejection sampling keeps them uniform): ~214 bits.
  let out = ''
  while (out.length < 36) {
    for (const b of randomBytes(48)) if (b < 248 && out.length < 36) out += ALPHABET[b % 62]
  }
  return out
}

async function enabled(db: DB): Promise<boolean> {
  return (await getSetting(db, 'AUTH_TEMP_TOKEN')) === true
}

async function createTempToken(req: FastifyRequest, reply: FastifyReply, api: ResourceApi) {
  const user = requireUser(req)
  const { db } = req.ctx
  if (!(await enabled(db))) throw permissionDenied(tr(req.ctx.lang, 'Temporary passwords are not enabled.'))
  const id = randomUUID()
  const secret = newTempSecret()
  await sql`insert into temp_tokens (id, user_id, username, secret, date_expired)
    values (${id}, ${user.id}, ${user.username}, ${hashSecret(secret)}, now() + make_interval(secs => ${TTL_SECONDS}))`.execute(db)
  const [row] = await api.serialize(req, [{ id }], { action: 'retrieve' })
  await api.audit(db, req, 'create', row!)
  return reply.status(201).send({ ...row, secret })
}

/**
 * For a terminal component's login: the user id when `secret` is a valid, unused temporary password of
 * `username` (and the setting is on); it is used up by this call. Undefined otherwise.
 */
export async function consumeTempToken(db: DB, username: string, secret: string): Promise<string | undefined> {
  if (!secret || secret.length !== 36 || !(await enabled(db))) return undefined
  const r = await sql<{ user_id: string }>`update temp_tokens set verified = true, date_verified = now(), date_updated = now()
    where username = ${username} and secret = ${hashSecret(secret)} and not verified and date_expired > now()
    returning user_id`.execute(db)
  return r.rows[0]?.user_id
}

export const tempTokens: ResourceDef<'temp_tokens'> = {
  name: 'authentication.temptoken',
  app: 'authentication',
  model: 'temptoken',
  verboseName: 'Temporary token',
  path: '/api/v1/authentication/temp-tokens/',
  table: 'temp_tokens',
  systemPerms: true,
  fields: [
    { name: 'id', type: 'uuid', label: 'ID', read_only: true },
    { name: 'username', type: 'string', label: 'Username', read_only: true },
    { name: 'secret', type: 'string', label: 'Secret', read_only: true, column: false, get: () => '******' },
    { name: 'verified', type: 'boolean', label: 'Verified', read_only: true },
    { name: 'is_valid', type: 'boolean', label: 'Is valid', read_only: true, expr: '(not t.verified and t.date_expired > now())' },
    { name: 'date_created', type: 'datetime', label: 'Date created', read_only: true },
    { name: 'date_updated', type: 'datetime', label: 'Date updated', read_only: true },
    { name: 'date_verified', type: 'datetime', label: 'Date verified', read_only: true },
    { name: 'date_expired', type: 'datetime', label: 'Date expired', read_only: true },
  ],
  scope: (ctx) => (ctx.user ? sql`t.user_id = ${ctx.user.id}` : sql`false`),
  ownObjects: true,
  filters: ['id', 'verified'],
  ordering: { fields: ['date_created', 'date_expired'], default: ['-date_created'] },
  verbs: ['list', 'retrieve', 'create'],
  display: (r) => String(r.username),
  hooks: { create: createTempToken },
  actions: [{
    path: 'expire', detail: true, method: 'PATCH', perm: 'authentication.change_temptoken', systemPerm: true,
    async handler(req, reply, api, id) {
      const row = await api.getObject(req, id!)
      await sql`update temp_tokens set date_expired = now(), date_updated = now() where id = ${row.id}`.execute(req.ctx.db)
      return reply.status(204).send()
    },
  }],
}

addMessages({
  'Temporary passwords are not enabled.': ['未启用临时密码。', '一時パスワードは有効になっていません。'],
  'Verified': ['已验证', '検証済み'],
})
