import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { requireUser } from '../http/context.ts'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import { getSetting } from '../settings/store.ts'

/**
 * May the user see this organization? Members (any org role there) and holders of a system role above User
 * (system admins and auditors see every organization). DEFAULT is always answered.
 */
async function maySee(db: DB, userId: string, orgId: string): Promise<boolean> {
  if (orgId === ORG_IDS.DEFAULT) return true
  const r = await sql`select 1 from role_bindings where user_id = ${userId}
    and ((scope = 'org' and org_id = ${orgId} and ${orgId} <> ${ORG_IDS.ROOT}) or (scope = 'system' and role_id <> ${ROLE_IDS.User})) limit 1`.execute(db)
  return r.rows.length > 0
}

/**
 * `GET /api/v1/orgs/orgs/current/[?oid=]` (contract §4.3): the organization resolved as in §1.6 — when the user
 * may see it; another organization's id or name falls back to DEFAULT like an unknown value (no name leaks).
 */
export function registerCurrentOrg(app: FastifyInstance): void {
  app.get('/api/v1/orgs/orgs/current/', async (req) => {
    const user = requireUser(req)
    const id = (await maySee(req.ctx.db, user.id, req.ctx.orgId)) ? req.ctx.orgId : ORG_IDS.DEFAULT
    if (id === ORG_IDS.ROOT) {
      const name = String((await getSetting(req.ctx.db, 'GLOBAL_ORG_DISPLAY_NAME')) || '') || 'GLOBAL'
      return { id, name, is_default: false, is_root: true, comment: '' }
    }
    const org = (await sql<{ name: string; comment: string }>`select name, comment from organizations where id = ${id}`.execute(req.ctx.db)).rows[0]
    return { id, name: org?.name ?? 'DEFAULT', is_default: id === ORG_IDS.DEFAULT, is_root: false, comment: org?.comment ?? '' }
  })
}
