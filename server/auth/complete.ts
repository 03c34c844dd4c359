/**
 * Completing a web login: new session id (the old row is deleted; the RSA key pair is kept so the login page
 * can still encrypt), user + login time + organization in the session, last_login, failure counter reset,
 * success log, and the `jms_session_expire` mark the console checks (contract §1.7).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { cookieNames } from '../http/context.ts'
import { newSession, rotateSession } from '../http/session.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { orgListsFor } from '../rbac/perms.ts'
import { getSetting } from '../settings/store.ts'
import { requestLicense } from '../startup/license.ts'
import { checkNewIpLogin } from '../notifications/events.ts'
import { normalizeIp } from './ip-match.ts'
import { clearFailures } from './limits.ts'
import { type MfaFlag, writeLoginLog } from './login-log.ts'

/** First organization the user works in (console, then workbench), else DEFAULT. */
export async function homeOrg(req: FastifyRequest, userId: string): Promise<string> {
  const license = await requestLicense(req)
  const rootName = (await getSetting<string>(req.ctx.db, 'GLOBAL_ORG_DISPLAY_NAME')) || 'GLOBAL'
  const lists = await orgListsFor(req.ctx.db, userId, { licensed: license.valid, rootName })
  const first = [...lists.console_orgs, ...lists.workbench_orgs].find((o) => !o.is_root)
  return first?.id ?? ORG_IDS.DEFAULT
}

/** Bookkeeping shared by web and token logins. */
export async function recordSuccess(req: FastifyRequest, user: { id: string; username: string }, type: 'W' | 'T', mfa: MfaFlag, backend?: string): Promise<void> {
  await clearFailures(req.ctx.db, user.username, req.ip)
  await sql`update users set last_login = now() where id = ${user.id}`.execute(req.ctx.db)
  await checkNewIpLogin(req.server.services.database, req.ctx.db, user, normalizeIp(req.ip), backend ?? 'password', (t) => req.log.warn(t))
  await writeLoginLog(req, { username: user.username, type, mfa, status: true, backend })
}

export async function completeWebLogin(req: FastifyRequest, reply: FastifyReply, user: { id: string; username: string }, mfa: MfaFlag, backend?: string): Promise<void> {
  await recordSuccess(req, user, 'W', mfa, backend)
  const { config } = req.server.services
  const old = req.ctx.session
  if (old && !old.isNew) await sql`delete from sessions where id = ${old.id}`.execute(req.ctx.db)
  const fresh = old ? rotateSession(old) : newSession()
  fresh.data = {
    ...(old?.data.privateKey ? { privateKey: old.data.privateKey, publicKeyCookie: old.data.publicKeyCookie } : {}),
    userId: user.id,
    loginAt: Date.now(),
    oid: await homeOrg(req, user.id),
  }
  req.ctx.session = fresh
  reply.setCookie(cookieNames(config).sessionExpire, config.sessionExpireAtBrowserClose ? 'close' : 'age', {
    path: '/', maxAge: config.sessionAge, sameSite: 'lax', httpOnly: false, secure: req.protocol === 'https',
  })
}
