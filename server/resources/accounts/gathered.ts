/**
 * `POST /api/v1/accounts/gathered-accounts/sync-accounts/ {gathered_account_ids}` → 201 (JumpServer 3.2's
 * GatheredAccountViewSet.sync_accounts, lina's "Sync" on a gathered account): each gathered account becomes a
 * managed account of its asset (source `collected`, no secret) unless the asset already has that username.
 * Needs `accounts.add_account` (it creates accounts); the gathered accounts must be in the caller's organization.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { userDisplay } from '../../engine/index.ts'
import { requirePerm, requireUser } from '../../http/context.ts'
import { validationError } from '../../http/errors.ts'
import { tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import type { RowOf } from '../../db/connection.ts'

export function registerGatheredSync(app: FastifyInstance): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const ctx = req.ctx
    const user = requireUser(req)
    await requirePerm(req, 'accounts.add_account')
    const body = req.body as Record<string, unknown> | null
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw validationError({ non_field_errors: [tr(ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: Array.isArray(body) ? 'list' : typeof body })] })
    const raw = Array.isArray(body.gathered_account_ids) ? body.gathered_account_ids : []
    const ids = raw.map(String).filter((x) => /^[0-9a-f-]{36}$/i.test(x))
    if (!ids.length || ids.length !== raw.length || ids.length > 1000) throw validationError({ gathered_account_ids: [tr(ctx.lang, 'This field is required.')] })
    const inOrg = ctx.orgId === ORG_IDS.ROOT ? sql`` : sql`and org_id = ${ctx.orgId}`
    const found = (await sql<Pick<RowOf<'gathered_accounts'>, 'id' | 'org_id' | 'asset_id' | 'username'>>`select id, org_id, asset_id, username from gathered_accounts where id in (${sql.join(ids)}) ${inOrg}`.execute(ctx.db)).rows
    const missing = ids.find((i) => !found.some((f) => f.id === i))
    if (missing) throw validationError({ gathered_account_ids: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: missing })] })
    await ctx.db.transaction().execute(async (tx) => {
      for (const g of found) {
        await sql`insert into accounts (id, org_id, asset_id, name, username, source, created_by)
          select ${randomUUID()}, ${g.org_id}, ${g.asset_id}, ${g.username}, ${g.username}, 'collected', ${userDisplay(user).slice(0, 128)}
          where not exists (select 1 from accounts where asset_id = ${g.asset_id} and (username = ${g.username} or name = ${g.username}))`.execute(tx)
      }
    })
    return reply.status(201).send()
  }
  app.post('/api/v1/accounts/gathered-accounts/sync-accounts/', handler)
  app.post('/api/v1/accounts/gathered-accounts/sync-accounts', handler)
}
