/**
 * `POST /api/v1/accounts/accounts/tasks/` `{action: verify|push, accounts: [ids]}` → 201 `{task}` (contract §5.3):
 * verify logs in with each stored secret (connectivity, date_verified); push creates the OS account and verifies.
 * Needs `accounts.verify_account` / `accounts.push_account`; the accounts must be in the caller's organization.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { userDisplay } from '../../engine/index.ts'
import { requirePerm, requireUser } from '../../http/context.ts'
import { validationError } from '../../http/errors.ts'
import { tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { taskRunner } from '../../tasks/service.ts'
import { ACCOUNT_TASK } from './run.ts'

export function registerAccountTasks(app: FastifyInstance): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const ctx = req.ctx
    const user = requireUser(req)
    const body = req.body as Record<string, unknown> | null
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw validationError({ non_field_errors: [tr(ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: Array.isArray(body) ? 'list' : typeof body })] })
    const action = body.action
    if (action !== 'verify' && action !== 'push') throw validationError({ action: [tr(ctx.lang, '"{input}" is not a valid choice.', { input: String(action ?? '') })] })
    await requirePerm(req, action === 'verify' ? 'accounts.verify_account' : 'accounts.push_account')
    const raw = Array.isArray(body.accounts) ? body.accounts : []
    const ids = raw.map((x) => String(x && typeof x === 'object' ? (x as { id?: unknown }).id : x)).filter((x) => /^[0-9a-f-]{36}$/i.test(x))
    if (!ids.length || ids.length !== raw.length || ids.length > 1000) throw validationError({ accounts: [tr(ctx.lang, 'This field is required.')] })
    const inOrg = ctx.orgId === ORG_IDS.ROOT ? sql`` : sql`and org_id = ${ctx.orgId}`
    const found = (await sql<{ id: string }>`select id from accounts where id in (${sql.join(ids)}) ${inOrg}`.execute(ctx.db)).rows
    if (found.length !== new Set(ids).size) throw validationError({ accounts: [tr(ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: ids.find((i) => !found.some((f) => f.id === i))! })] })
    const task = await taskRunner(req.server)!.enqueue(ACCOUNT_TASK, { kwargs: { action, accounts: found.map((f) => f.id) }, creatorId: user.id, creator: userDisplay(user), lang: req.ctx.lang })
    return reply.status(201).send({ task })
  }
  app.post('/api/v1/accounts/accounts/tasks/', handler)
  app.post('/api/v1/accounts/accounts/tasks', handler)
}
