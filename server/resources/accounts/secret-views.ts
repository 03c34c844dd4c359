/**
 * Readable secrets (contract §4.16, §5.3): `GET /api/v1/accounts/account-secrets/<id>/` and
 * `/account-template-secrets/<id>/` answer the object with its secret and passphrase in clear, only with the
 * view-secret permission and a fresh MFA confirmation (requireConfirm: SECURITY_VIEW_AUTH_NEED_MFA,
 * SECURITY_MFA_VERIFY_TTL). Every answer that carries a secret writes an operate log "View" (no diff, never the
 * secret). `/account-secrets/<id>/histories/` lists the stored versions the same way.
 *
 * `GET /api/v1/accounts/change-secret-records/<id>/secret/` answers the new secret a change or push execution kept in
 * its record because the host may have taken it unverified (secret_state 'unknown', or 'pending' when the execution
 * never finished: server/resources/accounts/run.ts), under the same rules; 404 when the record keeps none.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requireConfirm } from '../../auth/confirm.ts'
import { recordOperate, resourceApi } from '../../engine/index.ts'
import type { ResourceDef } from '../../engine/types.ts'
import { requirePerm } from '../../http/context.ts'
import { ApiError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { openSecret } from './secrets.ts'

addMessages({ 'No new secret is kept in this record.': ['此记录中没有保存新密文。', 'この記録には新しいシークレットが保存されていません。'] })

export interface SecretView {
  /** List URL of the readable resource, e.g. `/api/v1/accounts/account-secrets/`. */
  path: string
  /** The resource whose objects are read (scope, 404s, the fields besides the secret). */
  def: ResourceDef
  perm: string
  /** Extra routes under the detail URL, e.g. histories. */
  histories?: boolean
}

async function logView(req: FastifyRequest, def: ResourceDef, row: { id?: unknown; org_id?: unknown; name?: unknown; username?: unknown }, what: string): Promise<void> {
  await recordOperate(req.ctx.db, req.ctx, {
    action: 'view', resourceType: def.verboseName, resource: `${what}: ${String(row.name ?? row.username ?? row.id)}`,
    resourceId: row.id, orgId: String(row.org_id ?? req.ctx.orgId),
  })
}

export function registerSecretView(app: FastifyInstance, v: SecretView): void {
  const api = resourceApi(v.def)
  const database = app.services.database
  const guard = async (req: FastifyRequest) => {
    await requirePerm(req, v.perm)
    await requireConfirm(req, 'mfa')
  }
  const detail = async (req: FastifyRequest) => {
    await guard(req)
    const id = (req.params as { id: string }).id
    const row = await api.getObject(req, id)
    const [shown] = await api.serialize(req, [row], { action: 'retrieve' })
    const out = {
      ...shown,
      secret: openSecret(database, v.def.table, String(row.id), 'secret', row.secret),
      passphrase: openSecret(database, v.def.table, String(row.id), 'passphrase', row.passphrase),
    }
    await logView(req, v.def, row, 'secret')
    return out
  }
  for (const url of [`${v.path}:id/`, `${v.path}:id`]) app.get(url, detail)
  if (!v.histories) return
  const histories = async (req: FastifyRequest) => {
    await guard(req)
    const row = await api.getObject(req, (req.params as { id: string }).id)
    const r = await req.ctx.db.selectFrom('account_secret_histories').select(['id', 'secret_type', 'secret', 'version', 'created_by', 'date_created'])
      .where('account_id', '=', String(row.id)).orderBy('version', 'desc').limit(100).execute()
    await logView(req, v.def, row, 'secret histories')
    return r.map((h) => ({
      id: h.id, secret_type: h.secret_type, version: h.version, created_by: h.created_by,
      date_created: h.date_created,
      secret: openSecret(database, 'account_secret_histories', String(h.id), 'secret', h.secret),
    }))
  }
  for (const url of [`${v.path}:id/histories/`, `${v.path}:id/histories`]) app.get(url, histories)
}

/** The new secret kept in a change-secret record (see the head of this file). */
export function registerPendingSecretView(app: FastifyInstance, def: ResourceDef, perm: string): void {
  const api = resourceApi(def)
  const database = app.services.database
  const view = async (req: FastifyRequest) => {
    await requirePerm(req, perm)
    await requireConfirm(req, 'mfa')
    const row = await api.getObject(req, (req.params as { id: string }).id)
    if (!row.pending_secret || !['pending', 'unknown'].includes(String(row.secret_state))) {
      throw new ApiError(404, { detail: tr(req.ctx.lang, 'No new secret is kept in this record.'), code: 'not_found' })
    }
    const out = {
      id: row.id, asset_name: row.asset_name, username: row.username, secret_type: row.secret_type, secret_state: row.secret_state,
      secret: openSecret(database, def.table, String(row.id), 'secret', row.pending_secret as string),
      passphrase: openSecret(database, def.table, String(row.id), 'passphrase', row.pending_passphrase as string),
    }
    await recordOperate(req.ctx.db, req.ctx, {
      action: 'view', resourceType: def.verboseName, resource: `new secret: ${String(row.username)}@${String(row.asset_name)}`, resourceId: row.id, orgId: req.ctx.orgId,
    })
    return out
  }
  for (const url of [`${def.path}:id/secret/`, `${def.path}:id/secret`]) app.get(url, view)
}
