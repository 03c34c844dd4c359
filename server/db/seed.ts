import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { hashPassword } from '../auth/password.ts'
import { BUILTIN_ROLES, ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import type { DB } from './connection.ts'

export interface SeedResult {
  /** Set only when the administrator was created by this call and its password was generated. */
  generatedAdminPassword?: string
  adminCreated: boolean
}

/** First start: organizations, built-in roles, the administrator (SystemAdmin, and OrgAdmin of DEFAULT). Idempotent. */
export async function seed(db: DB, opts: { adminPassword?: string } = {}): Promise<SeedResult> {
  await sql`insert into organizations (id, name, builtin, comment) values
    (${ORG_IDS.DEFAULT}, 'DEFAULT', true, ''), (${ORG_IDS.SYSTEM}, 'SYSTEM', true, '')
    on conflict (id) do nothing`.execute(db)
  for (const role of BUILTIN_ROLES) {
    await sql`insert into roles (id, name, scope, builtin, created_by) values (${role.id}, ${role.name}, ${role.scope}, true, 'System')
      on conflict (id) do nothing`.execute(db)
  }
  const existing = await sql<{ id: string }>`select id from users where username = 'admin'`.execute(db)
  if (existing.rows.length) return { adminCreated: false }
  const generated = opts.adminPassword ? undefined : randomBytes(12).toString('base64url')
  const password = opts.adminPassword ?? generated!
  const id = randomUUID()
  await db.transaction().execute(async (tx) => {
    await sql`insert into users (id, name, username, email, password_hash, is_first_login, need_update_password, created_by, source, date_expired, date_password_last_updated)
      values (${id}, 'Administrator', 'admin', 'admin@example.com', ${await hashPassword(password)}, true, ${generated !== undefined}, 'System', 'local',
              now() + interval '70 years', now())`.execute(tx)
    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id, created_by)
      values (${randomUUID()}, ${id}, ${ROLE_IDS.SystemAdmin}, 'system', null, 'System')`.execute(tx)
    // As JumpServer's first migration does (rbac `set_admin_roles`), the administrator is also OrgAdmin of DEFAULT,
    // so a fresh install's first user list is not empty (docs/decisions/the-administrator-is-orgadmin-of-default-on-a.md).
    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id, created_by)
      values (${randomUUID()}, ${id}, ${ROLE_IDS.OrgAdmin}, 'org', ${ORG_IDS.DEFAULT}, 'System')`.execute(tx)
  })
  return { adminCreated: true, generatedAdminPassword: generated }
}

/**
 * The "Log in:" line printed at start. After the first start it depends on the administrator's state: while the
 * generated password still has to be changed it is the one printed then; once changed (the first login insists),
 * it is their own — never point them back at a password they were made to replace (issue 17).
 */
export async function adminLoginHint(db: DB, seeded: SeedResult, opts: { adminPasswordSet: boolean }): Promise<string> {
  if (seeded.generatedAdminPassword) return `admin / ${seeded.generatedAdminPassword}   (generated now and shown once; you will be asked to change it)`
  if (seeded.adminCreated) return 'admin / the ADMIN_PASSWORD you set'
  const row = (await sql<{ need_update_password: boolean; is_first_login: boolean }>`
    select need_update_password, is_first_login from users where username = 'admin'`.execute(db)).rows[0]
  if (!row) return 'admin does not exist any more: log in as another administrator'
  if (row.need_update_password || row.is_first_login) {
    return opts.adminPasswordSet
      ? 'admin / the ADMIN_PASSWORD set at first start (you will be asked to change it)'
      : 'admin / the password printed at first start (you will be asked to change it)'
  }
  return 'admin / your own password (the first password was replaced at first login)'
}
