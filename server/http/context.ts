import { timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import { parseLang } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { effectivePerms, permsOfBindings } from '../rbac/perms.ts'
import { notAuthenticated, permissionDenied } from './errors.ts'
import { readIdentity, type IdentityReader, type OrgLookup } from './identity.ts'
import type { AuthUser, RequestContext, Session } from './request-context.ts'
import { isSessionId, sessionFromRow } from './session.ts'
import { sealerFor } from '../auth/otp-store.ts'
import { verifySignature } from '../auth/signature.ts'

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const cookieNames = (cfg: ServerConfig) => ({
  session: `${cfg.sessionCookiePrefix}sessionid`,
  csrf: `${cfg.sessionCookiePrefix}csrftoken`,
  publicKey: 'jms_public_key',
  sessionExpire: 'jms_session_expire',
  prefix: 'SESSION_COOKIE_NAME_PREFIX',
  org: 'X-JMS-ORG',
  lang: 'django_language',
})

/** Time zones already checked (a browser sends the same one on every call; building a formatter to check it is not cheap). */
const knownTz = new Map<string, boolean>()

function validTz(tz: string | undefined): string | undefined {
  if (!tz || tz === 'undefined' || tz.length > 64) return undefined
  let ok = knownTz.get(tz)
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz })
      ok = true
    } catch {
      ok = false
    }
    if (knownTz.size >= 1000) knownTz.clear() // bounded: any text may be sent
    knownTz.set(tz, ok)
  }
  return ok ? tz : undefined
}

export async function loadUser(db: DB, id: string): Promise<AuthUser | null> {
  const r = await sql<AuthUser>`select id, username, name, email, is_active, source, is_first_login, date_expired
    from users where id = ${id}`.execute(db)
  return activeUser(r.rows[0])
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * An organization value (id, name, ROOT/DEFAULT/GLOBAL keywords): the id of a keyword, or what to look up
 * (an id or a name); undefined for an empty value.
 */
type OrgValue = { id: string } | OrgLookup

function orgValue(raw: string | undefined): OrgValue | undefined {
  if (!raw) return undefined
  const v = raw.trim().replace(/^"|"$/g, '')
  if (!v) return undefined
  const upper = v.toUpperCase()
  if (upper === 'ROOT' || upper === 'GLOBAL' || v === ORG_IDS.ROOT) return { id: ORG_IDS.ROOT }
  if (upper === 'DEFAULT') return { id: ORG_IDS.DEFAULT }
  return UUID_RE.test(v) ? { lookupId: v.toLowerCase() } : { lookupName: v }
}

/** Resolves an organization value (id, name, ROOT/DEFAULT/GLOBAL keywords) to an id; undefined if unknown. */
export async function resolveOrgValue(db: DB, raw: string | undefined): Promise<string | undefined> {
  const v = orgValue(raw)
  if (!v || 'id' in v) return v?.id
  const r = 'lookupId' in v
    ? await sql<{ id: string }>`select id from organizations where id = ${v.lookupId}`.execute(db)
    : await sql<{ id: string }>`select id from organizations where name = ${v.lookupName}`.execute(db)
  return r.rows[0]?.id
}

/** A user row as read, or null when it may not act (disabled, expired). */
function activeUser(u: AuthUser | undefined | null): AuthUser | null {
  if (!u || !u.is_active) return null
  if (u.date_expired && u.date_expired.getTime() < Date.now()) return null
  return u
}

/** Builds `req.ctx`: session, authenticated user (bearer token, then session + CSRF), org, time zone, language. */
export async function buildContext(req: FastifyRequest, db: DB, cfg: ServerConfig, identities?: IdentityReader): Promise<RequestContext> {
  const names = cookieNames(cfg)
  const cookies = req.cookies ?? {}
  const query = req.query as Record<string, unknown> | undefined
  const orgValues = [
    orgValue(typeof query?.oid === 'string' ? query.oid : undefined),
    orgValue(typeof req.headers['x-jms-org'] === 'string' ? req.headers['x-jms-org'] : undefined),
    orgValue(cookies[names.org]),
  ]
  // Values after the first keyword never count: only those before it are looked up.
  const firstKeyword = orgValues.findIndex((v) => !!v && 'id' in v)
  const lookups = (firstKeyword < 0 ? orgValues : orgValues.slice(0, firstKeyword)).filter((v): v is OrgLookup => !!v && !('id' in v))
  const sid = isSessionId(cookies[names.session]) ? cookies[names.session] : undefined
  const identity = identities ? await identities.read(sid, lookups) : await readIdentity(db, sid, lookups)
  const session: Session | null = identity?.session_id ? sessionFromRow(identity.session_id, identity.session_data) : null
  let user: AuthUser | null = null
  let authBy: RequestContext['authBy'] = null

  const authz = req.headers.authorization
  if (authz) {
    const [kw, token] = authz.split(/\s+/, 2)
    if (kw && token && /^bearer$/i.test(kw)) {
      const r = await sql<{ user_id: string }>`select user_id from auth_tokens where key = ${token} and date_expired > now()`.execute(db)
      const uid = r.rows[0]?.user_id
      user = uid ? await loadUser(db, uid) : null
      if (!user) throw notAuthenticated('Invalid token.', 'authentication_failed')
      authBy = 'bearer'
    } else if (kw && /^signature$/i.test(kw)) {
      // An access key's HTTP signature (terminal components, API clients): server/auth/signature.ts.
      const uid = await verifySignature(db, sealerFor(cfg), req, authz)
      user = await loadUser(db, uid)
      if (!user) throw notAuthenticated('Invalid signature.', 'authentication_failed')
      authBy = 'signature'
    }
  }
  // The session's user as read with the session (same columns as loadUser).
  const sessionUser = identity?.user_id && session?.data.userId
    ? activeUser({
      id: identity.user_id, username: identity.username, name: identity.name, email: identity.email, is_active: identity.is_active,
      source: identity.source, is_first_login: identity.is_first_login, date_expired: identity.date_expired === null ? null : new Date(identity.date_expired),
    })
    : null
  if (!user && session?.data.userId) {
    const candidate = sessionUser
    let csrfOk = true
    if (candidate && UNSAFE.has(req.method) && req.url.startsWith('/api/')) {
      const header = req.headers['x-csrftoken']
      const cookie = cookies[names.csrf]
      csrfOk = typeof header === 'string' && !!cookie && header.length > 0 && safeEqual(header, cookie)
    }
    // A CSRF failure makes the request anonymous (contract §1.8): the answer is then 401.
    if (candidate && csrfOk) {
      user = candidate
      authBy = 'session'
    }
  }

  // The first value that names an existing organization, in the order of contract §1.6; then the session's.
  const found = identity?.orgs ?? []
  const resolved = (v: OrgValue | undefined): string | undefined => {
    if (!v) return undefined
    if ('id' in v) return v.id
    if ('lookupId' in v) return found.find((o) => o.id === v.lookupId)?.id
    return found.find((o) => o.name === v.lookupName)?.id
  }
  let orgId: string | undefined
  for (const v of orgValues) if ((orgId = resolved(v))) break
  if (!orgId && session?.data.oid) {
    // the session's organization: read with the identity when it is a plain id (as login stores it)
    const v = orgValue(session.data.oid)
    orgId = v && 'lookupId' in v && v.lookupId === session.data.oid ? identity?.session_org ?? undefined : await resolveOrgValue(db, session.data.oid)
  }
  orgId ??= ORG_IDS.DEFAULT
  const tz = validTz(typeof req.headers['x-tz'] === 'string' ? req.headers['x-tz'] : undefined) ?? 'Asia/Shanghai'
  const lang = parseLang(cookies[names.lang], req.headers['accept-language'])
  // The bindings read with the session serve its user; a token's user has its own read on first use.
  const bindings = user && user === sessionUser ? identity?.bindings ?? undefined : undefined
  const permCache = new Map<string, Promise<Set<string>>>()
  const permsIn = (org: string) => {
    if (!user) return Promise.resolve(new Set<string>())
    let p = permCache.get(org)
    if (!p) permCache.set(org, (p = bindings ? permsOfBindings(db, bindings, org) : effectivePerms(db, user.id, org)))
    return p
  }
  return { db, session, user, authBy, orgId, tz, lang, ip: req.ip, perms: () => permsIn(orgId), permsIn }
}

/** Throws 401 unless a user is authenticated. */
export function requireUser(req: FastifyRequest): AuthUser {
  if (!req.ctx.user) throw notAuthenticated()
  return req.ctx.user
}

/** Throws 401/403 unless the user holds the requirement (`a|b` alternatives; all entries of a list). */
export async function requirePerm(req: FastifyRequest, required: string | readonly string[], orgId?: string): Promise<void> {
  requireUser(req)
  const held = orgId ? await req.ctx.permsIn(orgId) : await req.ctx.perms()
  const list = typeof required === 'string' ? [required] : required
  if (!list.every((r) => r.split('|').some((alt) => held.has(alt.trim())))) throw permissionDenied()
}

export function isApiPath(url: string): boolean {
  return url.startsWith('/api/')
}

export type Reply = FastifyReply
