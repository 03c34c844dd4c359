import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { requireUser } from '../http/context.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { getSetting } from '../settings/store.ts'

/** `GET /api/v1/orgs/orgs/current/[?oid=]` (contract §4.3): the organization resolved as in §1.6. */
export function registerCurrentOrg(app: FastifyInstance): void {
  app.get('/api/v1/orgs/orgs/current/', async (req) => {
    requireUser(req)
    const id = req.ctx.orgId
    if (id === ORG_IDS.ROOT) {
      const name = String((await getSetting(req.ctx.db, 'GLOBAL_ORG_DISPLAY_NAME')) || '') || 'GLOBAL'
      return { id, name, is_default: false, is_root: true, comment: '' }
    }
    const org = (await sql<{ name: string; comment: string }>`select name, comment from organizations where id = ${id}`.execute(req.ctx.db)).rows[0]
    return { id, name: org?.name ?? 'DEFAULT', is_default: id === ORG_IDS.DEFAULT, is_root: false, comment: org?.comment ?? '' }
  })
}
