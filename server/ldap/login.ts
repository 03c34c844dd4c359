/**
 * The LDAP backend of the login (server/auth/authenticate.ts), when AUTH_LDAP is on: the password of an LDAP user,
 * or of a user not known yet, is checked by the directory. A user seen for the first time is created with source
 * "ldap" in AUTH_LDAP_SYNC_ORG_ID (unless ONLY_ALLOW_EXIST_USER_AUTH); a known one gets the directory's name and
 * email. A failed or unreachable directory is a failed login (the reason is logged, never shown).
 */
import type { FastifyRequest } from 'fastify'
import { ORG_IDS } from '../rbac/catalog.ts'
import { allSettings } from '../settings/store.ts'
import { authenticate, LdapError, ldapConfig } from './client.ts'
import { upsertLdapUser } from './sync.ts'

export async function ldapEnabled(req: FastifyRequest): Promise<boolean> {
  return (await allSettings(req.ctx.db)).get('AUTH_LDAP') === true
}

/** The id of the signed-in user, or undefined when the directory refuses (or may not create the user). */
export async function ldapLogin(req: FastifyRequest, username: string, password: string, exists: boolean): Promise<string | undefined> {
  const db = req.ctx.db
  const settings = await allSettings(db)
  if (!exists && settings.get('ONLY_ALLOW_EXIST_USER_AUTH') === true) return undefined
  let found
  try {
    found = await authenticate(await ldapConfig(db, req.server.services.config), username, password)
  } catch (e) {
    if (!(e instanceof LdapError)) throw e
    req.log.info({ username, stage: e.stage, reason: e.message }, 'LDAP login refused')
    return undefined
  }
  // the directory may match case-insensitively: the account is the name that was typed and matched
  const orgId = String(settings.get('AUTH_LDAP_SYNC_ORG_ID') ?? '') || ORG_IDS.DEFAULT
  const r = await db.transaction().execute((tx) => upsertLdapUser(tx, { ...found, username }, orgId, 'System'))
  return r?.id
}
