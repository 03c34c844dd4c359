/**
 * Shared set-up of the security suite: an organization "Acme" with its admin, auditor and a member, a user of
 * another organization only, and the system roles (admin, auditor).
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { ROLE_IDS } from '../rbac/catalog.ts'
import type { TestClient, TestServer } from '../testing.ts'

export interface World {
  acme: string
  other: string
  ids: Record<'admin' | 'acmeAdmin' | 'acmeAuditor' | 'member' | 'outsider' | 'sysAuditor' | 'dual', string>
  as(name: 'admin' | 'acmeAdmin' | 'acmeAuditor' | 'member' | 'outsider' | 'sysAuditor'): Promise<TestClient>
}

export async function makeWorld(t: TestServer): Promise<World> {
  const acme = randomUUID()
  const other = randomUUID()
  await sql`insert into organizations (id, name) values (${acme}, 'Acme'), (${other}, 'Other')`.execute(t.database.db)
  const pw = 'Str0ng-Passw0rd!'
  const ids = {
    admin: t.adminId,
    acmeAdmin: await t.createUser({ username: 'acme_admin', orgRoles: [ROLE_IDS.OrgAdmin], orgId: acme, password: pw }),
    acmeAuditor: await t.createUser({ username: 'acme_auditor', orgRoles: [ROLE_IDS.OrgAuditor], orgId: acme, password: pw }),
    member: await t.createUser({ username: 'member', orgRoles: [ROLE_IDS.OrgUser], orgId: acme, password: pw }),
    outsider: await t.createUser({ username: 'outsider', orgRoles: [ROLE_IDS.OrgUser], orgId: other, password: pw }),
    sysAuditor: await t.createUser({ username: 'sys_auditor', systemRoles: [ROLE_IDS.SystemAuditor], orgRoles: [], password: pw }),
    // In Acme and in Other: the Acme admin does not manage all of this user's organizations.
    dual: await t.createUser({ username: 'dual', orgRoles: [ROLE_IDS.OrgUser], orgId: acme, password: pw }),
  }
  await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (${randomUUID()}, ${ids.dual}, ${ROLE_IDS.OrgUser}, 'org', ${other})`.execute(t.database.db)
  const usernames = { admin: 'admin', acmeAdmin: 'acme_admin', acmeAuditor: 'acme_auditor', member: 'member', outsider: 'outsider', sysAuditor: 'sys_auditor' }
  return {
    acme, other, ids,
    async as(name) {
      const c = await t.as(usernames[name])
      c.headers['accept-language'] = 'en'
      c.headers['x-jms-org'] = name === 'admin' || name === 'sysAuditor' ? 'ROOT' : acme
      return c
    },
  }
}

export const USERS = '/api/v1/users/users/'
export const ACLS = '/api/v1/acls/login-acls/'
