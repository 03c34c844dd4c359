import type { FastifyRequest } from 'fastify'
import { ORG_IDS } from '../rbac/catalog.ts'

/**
 * Who may read an execution's log and result: holders of `ops.view_celerytask` (system scope), and the user who
 * started it. Anyone else gets the same answer as for an unknown id.
 */
export async function mayReadExecution(req: FastifyRequest, id: string): Promise<boolean> {
  const user = req.ctx.user
  if (!user) return false
  const row = await req.ctx.db.selectFrom('task_executions').select('creator_id').where('id', '=', id).executeTakeFirst()
  if (!row) return false
  if (row.creator_id === user.id) return true
  return (await req.ctx.permsIn(ORG_IDS.ROOT)).has('ops.view_celerytask')
}
