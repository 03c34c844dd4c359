/**
 * The user's own API keys `/api/v1/authentication/access-keys/` (contract §5.9; JumpServer's AccessKeyViewSet):
 * id, secret, is_active, date_last_used, date_created. `POST` with an empty body creates a key for the caller and
 * answers its secret once (stored sealed; lists show it masked); at most MAX_KEYS per user. When the user has MFA
 * bound, the creation needs a fresh MFA confirmation (the confirm mechanism, docs/import-export.md). `PATCH
 * {is_active}` turns a key off or on, `DELETE` removes it; either takes effect on the next request, since every
 * signed request reads the key (server/auth/signature.ts, the authenticator of every API in server/http/context.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { requireConfirm } from '../auth/confirm.ts'
import { sealerFor } from '../auth/otp-store.ts'
import { createAccessKey } from '../auth/signature.ts'
import type { ResourceApi, ResourceDef } from '../engine/types.ts'
import { prepareWrite } from '../engine/write.ts'
import { requireUser } from '../http/context.ts'
import { validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'

/** A bound on each user's keys (every key is read on its signed requests; a script needs one or two). */
export const MAX_KEYS = 100

/** A user with MFA bound needs a fresh MFA confirmation (400 `{code: 'mfa'}` otherwise). */
async function confirmed(req: FastifyRequest): Promise<void> {
  const user = requireUser(req)
  const u = (await sql<{ otp_secret: string }>`select otp_secret from users where id = ${user.id}`.execute(req.ctx.db)).rows[0]
  if (u?.otp_secret) await requireConfirm(req, 'mfa')
}

async function createKey(req: FastifyRequest, reply: FastifyReply, api: ResourceApi) {
  const user = requireUser(req)
  const { db } = req.ctx
  await confirmed(req)
  const n = (await sql<{ n: number }>`select count(*)::int as n from access_keys where user_id = ${user.id}`.execute(db)).rows[0]!.n
  if (n >= MAX_KEYS) throw validationError({ non_field_errors: [tr(req.ctx.lang, 'A user has at most {n} API keys.', { n: MAX_KEYS })] })
  // the engine's parsing of the body (is_active; read-only fields ignored): 400 field errors, as any create
  const { prepared, errors } = await prepareWrite(db, accessKeys, accessKeys.fields, req.body ?? {}, req.ctx, { op: 'create', partial: false, req })
  if (errors) throw validationError(errors)
  const key = await createAccessKey(db, sealerFor(req.server.services.config), user.id)
  if (prepared!.values.is_active === false) await sql`update access_keys set is_active = false where id = ${key.id}`.execute(db)
  const [row] = await api.serialize(req, [{ id: key.id }], { action: 'retrieve' })
  await api.audit(db, req, 'create', row!)
  return reply.status(201).send({ ...row, secret: key.secret })
}

export const accessKeys: ResourceDef<'access_keys'> = {
  name: 'authentication.accesskey',
  app: 'authentication',
  model: 'accesskey',
  verboseName: 'Access key',
  path: '/api/v1/authentication/access-keys/',
  table: 'access_keys',
  systemPerms: true,
  fields: [
    { name: 'id', type: 'uuid', label: 'ID', read_only: true },
    { name: 'secret', type: 'string', label: 'Access key secret', read_only: true, column: false, get: () => '******' },
    { name: 'is_active', type: 'boolean', label: 'Active', default: true },
    { name: 'date_last_used', type: 'datetime', label: 'Date last used', read_only: true },
    { name: 'date_created', type: 'datetime', label: 'Date created', read_only: true },
    { name: 'date_updated', type: 'datetime', label: 'Date updated', read_only: true, column: 'date_updated' },
  ],
  // Own keys only, whatever the organization.
  scope: (ctx) => (ctx.user ? sql`t.user_id = ${ctx.user.id}` : sql`false`),
  ownObjects: true,
  filters: ['id', 'is_active'],
  ordering: { fields: ['date_created', 'date_last_used', 'is_active'], default: ['-date_created'] },
  verbs: ['list', 'retrieve', 'create', 'update', 'destroy'],
  display: (r) => String(r.id),
  hooks: { create: createKey },
  // The console's confirm flow asks this GET first (the confirm machine checks a protected URL): `{}` when a key
  // may be created now, 400 `{code: 'mfa'}` when the user must confirm.
  actions: [{
    path: 'create-check', detail: false, method: 'GET', perm: 'authentication.add_accesskey', systemPerm: true,
    async handler(req) {
      await confirmed(req)
      return {}
    },
  }],
}

addMessages({
  'Date last used': ['最后使用日期', '最終使用日'],
  'A user has at most {n} API keys.': ['每个用户最多 {n} 个 API 密钥。', '1 人のユーザーが持てる API キーは最大 {n} 個です。'],
})
