/**
 * The LDAP tools of contract §4.17 (`settings.change_auth` at system scope):
 * - `POST /api/v1/settings/ldap/testing/config/` the typed configuration (bind password optional: the saved one)
 *   → 200/400 with a bare JSON string ("Succeed: Match N s user" / "Error (Invalid …): reason"); an invalid body →
 *   400 `{error}`.
 * - `POST …/ldap/testing/login/` `{username, password}` with the saved configuration → 200/400 bare string.
 * - `GET …/ldap/cache/refresh/` → `{msg: "success"}` / 400 `{msg}` (no cache here: it checks the directory answers).
 * - `GET …/ldap/users/` the directory's users `{id (= username), username, name, email, groups, existing}`, read
 *   at each call (searched with `search`, paged with limit/offset). *Differs*: JumpServer answers the first call
 *   409 while it fills a cache; this server reads the directory at once (bounded by MAX_USERS).
 * - `POST …/ldap/users/import/` `{username_list: [...] | ["*"], org_id?}` → `{msg}`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { decryptOrPlain } from '../auth/secret.ts'
import { parseObject } from '../engine/parse.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { ApiError } from '../http/errors.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { LDAP, sameLdapServer } from '../settings/declarations.ts'
import { allSettings } from '../settings/store.ts'
import { authenticate, LdapError, type LdapStage, ldapConfig, listUsers } from './client.ts'
import { LDAP_MESSAGES } from './messages.ts'
import { defineLdapSyncTask, importUsers } from './sync.ts'
import { bodyObject as bodyOf } from '../http/body.ts'

const BASE = '/api/v1/settings/ldap/'

const STAGE_TEXT: Record<LdapStage, string> = {
  server: LDAP_MESSAGES.errServer,
  bind: LDAP_MESSAGES.errBind,
  search: LDAP_MESSAGES.errSearch,
  attr_map: LDAP_MESSAGES.errAttrMap,
  user: LDAP_MESSAGES.errUser,
  password: LDAP_MESSAGES.errPassword,
}

export const ldapErrorText = (lang: Lang, e: LdapError) => tr(lang, STAGE_TEXT[e.stage], { reason: e.message })

async function allowed(req: FastifyRequest): Promise<void> {
  requireUser(req)
  await requirePerm(req, 'settings.change_auth', ORG_IDS.ROOT)
}

const bare = (reply: FastifyReply, status: number, text: string) => reply.status(status).type('application/json').send(JSON.stringify(text))

async function testConfig(req: FastifyRequest, reply: FastifyReply) {
  await allowed(req)
  const body = { ...bodyOf(req) }
  const pw = body.AUTH_LDAP_BIND_PASSWORD
  if (typeof pw === 'string' && pw) body.AUTH_LDAP_BIND_PASSWORD = decryptOrPlain(pw, req.ctx.session?.data.privateKey)
  const fields = LDAP.fields.filter((f) => ['AUTH_LDAP_SERVER_URI', 'AUTH_LDAP_BIND_DN', 'AUTH_LDAP_SEARCH_OU', 'AUTH_LDAP_SEARCH_FILTER', 'AUTH_LDAP_USER_ATTR_MAP',
    'AUTH_LDAP_CONNECT_TIMEOUT', 'AUTH_LDAP_SEARCH_PAGED_SIZE'].includes(f.name))
  const { values, errors } = parseObject(fields, body, req.ctx, { partial: false, fillDefaults: false })
  // The saved bind password goes only to the saved server (issue 36 point 7): another address needs it typed.
  if (values.AUTH_LDAP_SERVER_URI !== undefined && !(typeof body.AUTH_LDAP_BIND_PASSWORD === 'string' && body.AUTH_LDAP_BIND_PASSWORD)
    && !sameLdapServer(String(values.AUTH_LDAP_SERVER_URI), String((await allSettings(req.ctx.db)).get('AUTH_LDAP_SERVER_URI') ?? ''))) {
    errors.AUTH_LDAP_BIND_PASSWORD = [tr(req.ctx.lang, LDAP_MESSAGES.passwordAgain)]
  }
  if (Object.keys(errors).length) return reply.status(400).send({ error: JSON.stringify(errors) })
  const cfg = await ldapConfig(req.ctx.db, req.server.services.config, {
    ...values, AUTH_LDAP_BIND_PASSWORD: body.AUTH_LDAP_BIND_PASSWORD, AUTH_LDAP_START_TLS: body.AUTH_LDAP_START_TLS === true,
  })
  try {
    const users = await listUsers(cfg)
    return bare(reply, 200, tr(req.ctx.lang, LDAP_MESSAGES.matched, { n: users.length }))
  } catch (e) {
    if (e instanceof LdapError) return bare(reply, 400, ldapErrorText(req.ctx.lang, e))
    throw e
  }
}

async function testLogin(req: FastifyRequest, reply: FastifyReply) {
  await allowed(req)
  const body = bodyOf(req)
  const username = typeof body.username === 'string' ? body.username.trim().slice(0, 1024) : ''
  const password = typeof body.password === 'string' ? decryptOrPlain(body.password.slice(0, 8192), req.ctx.session?.data.privateKey) : ''
  const errors: Record<string, string[]> = {}
  if (!username) errors.username = [tr(req.ctx.lang, 'This field is required.')]
  if (!password) errors.password = [tr(req.ctx.lang, 'This field is required.')]
  if (Object.keys(errors).length) return reply.status(400).send({ error: JSON.stringify(errors) })
  const cfg = await ldapConfig(req.ctx.db, req.server.services.config)
  try {
    await authenticate(cfg, username, password)
    return bare(reply, 200, tr(req.ctx.lang, LDAP_MESSAGES.loginOk, { username }))
  } catch (e) {
    if (e instanceof LdapError) return bare(reply, 400, ldapErrorText(req.ctx.lang, e))
    throw e
  }
}

async function directoryUsers(req: FastifyRequest) {
  const cfg = await ldapConfig(req.ctx.db, req.server.services.config)
  try {
    return await listUsers(cfg)
  } catch (e) {
    if (e instanceof LdapError) throw new ApiError(400, { error: ldapErrorText(req.ctx.lang, e) })
    throw e
  }
}

async function usersList(req: FastifyRequest) {
  await allowed(req)
  const q = (req.query ?? {}) as Record<string, string>
  const users = await directoryUsers(req)
  const names = users.map((u) => u.username)
  const local = new Set((await sql<{ username: string }>`select username from users where username = any(${names})`.execute(req.ctx.db)).rows.map((r) => r.username))
  const search = (q.search ?? '').trim().toLowerCase()
  let rows = users
    .map((u) => ({ id: u.username, username: u.username, name: u.name, email: u.email, groups: u.groups, existing: local.has(u.username) }))
    .filter((u) => !search || [u.username, u.name, u.email].some((v) => v.toLowerCase().includes(search)))
  // default order: not yet imported first, then by username
  rows = rows.sort((a, b) => Number(a.existing) - Number(b.existing) || a.username.localeCompare(b.username))
  if (q.limit === undefined) return rows
  const limit = Math.min(1000, Math.max(1, Number(q.limit) || 15))
  const offset = Math.max(0, Number(q.offset) || 0)
  return { count: rows.length, next: null, previous: null, results: rows.slice(offset, offset + limit) }
}

async function usersImport(req: FastifyRequest) {
  const user = await allowed(req).then(() => requireUser(req))
  const body = bodyOf(req)
  const list = body.username_list
  if (!Array.isArray(list) || !list.length || !list.every((v) => typeof v === 'string' && v.length <= 128)) {
    throw new ApiError(400, { errors: [tr(req.ctx.lang, LDAP_MESSAGES.usernameList)] })
  }
  const settings = await allSettings(req.ctx.db)
  const orgId = typeof body.org_id === 'string' && body.org_id ? body.org_id : String(settings.get('AUTH_LDAP_SYNC_ORG_ID') ?? '') || ORG_IDS.DEFAULT
  const org = (await sql<{ name: string }>`select name from organizations where id = ${/^[0-9a-f-]{36}$/i.test(orgId) ? orgId : ORG_IDS.SYSTEM}`.execute(req.ctx.db)).rows[0]
  if (!org || orgId === ORG_IDS.SYSTEM || orgId === ORG_IDS.ROOT) throw new ApiError(400, { msg: tr(req.ctx.lang, LDAP_MESSAGES.orgInvalid) })
  const wanted = new Set(list as string[])
  let users = (await directoryUsers(req)).filter((u) => wanted.has('*') || wanted.has(u.username))
  // a local (non-LDAP) user of the same name is never taken over: named ones refuse the import, "*" skips them
  const names = users.map((u) => u.username)
  const others = new Set((await sql<{ username: string }>`select username from users where username = any(${names}) and source <> 'ldap'`
    .execute(req.ctx.db)).rows.map((r) => r.username))
  if (others.size && !wanted.has('*')) {
    throw new ApiError(400, { errors: [...others].slice(0, 50).map((u) => tr(req.ctx.lang, LDAP_MESSAGES.notLdapUser, { username: u })) })
  }
  users = users.filter((u) => !others.has(u.username))
  const r = await importUsers(req.ctx.db, users, orgId, user.username)
  return { msg: tr(req.ctx.lang, LDAP_MESSAGES.imported, { n: r.created + r.updated, org: org.name }) }
}

export function registerLdap(app: FastifyInstance): void {
  defineLdapSyncTask(app.services.database, app.services.config)
  app.post(`${BASE}testing/config/`, testConfig)
  app.post(`${BASE}testing/login/`, testLogin)
  app.get(`${BASE}cache/refresh/`, async (req, reply) => {
    await allowed(req)
    try {
      await listUsers(await ldapConfig(req.ctx.db, app.services.config))
      return { msg: 'success' }
    } catch (e) {
      if (e instanceof LdapError) return reply.status(400).send({ msg: ldapErrorText(req.ctx.lang, e) })
      throw e
    }
  })
  app.get(`${BASE}users/`, usersList)
  app.post(`${BASE}users/import/`, usersImport)
}
