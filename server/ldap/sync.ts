/**
 * Importing LDAP users: a new user is created with source "ldap" (no local password), an existing one of source
 * ldap gets the directory's name, email and phone; each joins the organization as OrgUser. Users of another
 * source are left alone (reported). The periodic import (task LDAP_SYNC_TASK, schedule from the LDAP settings)
 * imports every user into AUTH_LDAP_SYNC_ORG_ID when LDAP is enabled.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { ServerConfig } from '../config.ts'
import type { Database, DB } from '../db/connection.ts'
import { addMessages } from '../i18n.ts'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import { LDAP_SYNC_TASK } from '../settings/declarations.ts'
import { allSettings } from '../settings/store.ts'
import { NOTIFICATION_TEXTS } from '../notifications/catalog.ts'
import { notify } from '../notifications/notify.ts'
import { defineTask } from '../tasks/kinds.ts'
import { ldapConfig, listUsers, type LdapUser } from './client.ts'

export interface ImportResult { created: number; updated: number; skipped: string[] }

const clip = (s: string, n = 128) => s.slice(0, n)

/** The email to store: the directory's, else username@EMAIL_SUFFIX (emails are unique and required). */
async function emailOf(db: DB, u: LdapUser, suffix: string, selfId?: string): Promise<string> {
  const wanted = clip(u.email || `${u.username}@${suffix}`)
  const taken = (await sql<{ id: string }>`select id from users where email = ${wanted}`.execute(db)).rows[0]
  return taken && taken.id !== selfId ? clip(`${u.username}@${suffix}`) : wanted
}

/** Creates or updates one LDAP user and binds them to the organization; returns the user id. */
export async function upsertLdapUser(db: DB, u: LdapUser, orgId: string | undefined, by: string): Promise<{ id: string; created: boolean } | undefined> {
  const suffix = String((await allSettings(db)).get('EMAIL_SUFFIX') ?? 'example.com') || 'example.com'
  const existing = (await sql<{ id: string; source: string }>`select id, source from users where username = ${clip(u.username)}`.execute(db)).rows[0]
  if (existing && existing.source !== 'ldap') return undefined
  let id = existing?.id
  if (id) {
    const email = await emailOf(db, u, suffix, id)
    await sql`update users set name = ${clip(u.name || u.username)}, email = ${email}, phone = coalesce(${u.phone || null}, phone),
      updated_by = ${clip(by)}, date_updated = now() where id = ${id}`.execute(db)
  } else {
    id = randomUUID()
    const email = await emailOf(db, u, suffix)
    await sql`insert into users (id, name, username, email, phone, source, created_by, updated_by)
      values (${id}, ${clip(u.name || u.username)}, ${clip(u.username)}, ${email}, ${u.phone || null}, 'ldap', ${clip(by)}, ${clip(by)})`.execute(db)
    await sql`insert into role_bindings (id, user_id, role_id, scope) values (${randomUUID()}, ${id}, ${ROLE_IDS.User}, 'system')`.execute(db)
  }
  if (orgId && orgId !== ORG_IDS.ROOT && orgId !== ORG_IDS.SYSTEM) {
    const bound = (await sql`select 1 from role_bindings where user_id = ${id} and scope = 'org' and org_id = ${orgId}`.execute(db)).rows.length
    if (!bound) await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (${randomUUID()}, ${id}, ${ROLE_IDS.OrgUser}, 'org', ${orgId})`.execute(db)
  }
  return { id, created: !existing }
}

export async function importUsers(db: DB, users: LdapUser[], orgId: string | undefined, by: string): Promise<ImportResult> {
  const result: ImportResult = { created: 0, updated: 0, skipped: [] }
  for (const u of users) {
    const r = await db.transaction().execute((tx) => upsertLdapUser(tx, u, orgId, by))
    if (!r) result.skipped.push(u.username)
    else if (r.created) result.created++
    else result.updated++
  }
  return result
}

/** The server configuration (its SECRET_KEY opens the bind password) of each database the task runs on. */
const configs = new WeakMap<Database, ServerConfig>()

/** The periodic import: every directory user into AUTH_LDAP_SYNC_ORG_ID (nothing while LDAP is disabled). */
export function defineLdapSyncTask(database: Database, config: ServerConfig): void {
  configs.set(database, config)
  defineTask({
    name: LDAP_SYNC_TASK,
    displayName: 'Periodic import LDAP user',
    comment: 'Imports the users of the LDAP directory into the organization of the LDAP settings',
    queue: 'ansible',
    schedule: { interval: 24, enabled: false },
    async run(ctx) {
      const s = await allSettings(ctx.db)
      if (s.get('AUTH_LDAP') !== true) {
        await ctx.log('LDAP authentication is not enabled: nothing to import')
        return { created: 0, updated: 0, skipped: [] }
      }
      const config = configs.get(ctx.database)
      if (!config) throw new Error('no server configuration for this database')
      const cfg = await ldapConfig(ctx.db, config)
      const users = await listUsers(cfg)
      await ctx.log(`${users.length} users found in ${cfg.uri}`)
      const orgId = String(s.get('AUTH_LDAP_SYNC_ORG_ID') ?? '') || ORG_IDS.DEFAULT
      const r = await importUsers(ctx.db, users, orgId, 'System')
      await ctx.log(`created ${r.created}, updated ${r.updated}, skipped ${r.skipped.length}${r.skipped.length ? ` (not LDAP users: ${r.skipped.slice(0, 20).join(', ')})` : ''}`)
      await notify(ctx.database, 'LdapImportResultMsg', { subject: NOTIFICATION_TEXTS.ldapSubject, message: NOTIFICATION_TEXTS.ldapBody,
        vars: { created: r.created, updated: r.updated, skipped: r.skipped.length } }, (t) => void ctx.log(t))
        .catch((e: Error) => ctx.log(`the result message was not sent: ${e.message}`))
      return r
    },
  })
}

addMessages({
  'Periodic import LDAP user': ['周期导入 LDAP 用户', 'LDAP ユーザーの定期インポート'],
  'Imports the users of the LDAP directory into the organization of the LDAP settings': [
    '将 LDAP 目录中的用户导入 LDAP 设置中的组织', 'LDAP ディレクトリのユーザーを LDAP 設定の組織にインポートします'],
})
