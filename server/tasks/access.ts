import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { ORG_IDS } from '../rbac/catalog.ts'

/**
 * Who may read an execution's log and result: holders of `ops.view_celerytask` (system scope), and the user who
 * started it. Anyone else gets the same answer as for an unknown id.
 */
export async function mayReadExecution(req: FastifyRequest, id: string): Promise<boolean> {
  const user = req.ctx.user
  if (!user) return false
  const row = (await sql<{ creator_id: string | null }>`select creator_id from task_executions where id = ${id}`.execute(req.ctx.db)).rows[0]
  if (!row) return false
  if (row.creator_id === user.id) return true
  return (await req.ctx.permsIn(ORG_IDS.ROOT)).has('ops.view_celerytask')
}
