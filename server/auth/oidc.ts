/**
 * OpenID Connect login (authorization code flow), configured by Settings → Authentication → OIDC (category
 * `oidc`/`keycloak`):
 * - `GET /core/auth/openid/login/?next=` keeps a fresh `state`, `nonce` and PKCE verifier in the visitor's
 *   session and redirects to the provider's authorization endpoint;
 * - `GET /core/auth/openid/callback/?code&state` checks the state, exchanges the code (client secret basic or
 *   post), verifies the ID token (signature from the provider's JWKS, issuer, audience, expiry, nonce) and
 *   reads the user info, then maps the claims (AUTH_OPENID_USER_ATTR_MAP) to a user: an existing one (updated
 *   when AUTH_OPENID_ALWAYS_UPDATE_USER) or a new one with source `openid` (unless ONLY_ALLOW_EXIST_USER_AUTH),
 *   and logs in as the password login does (login log with backend OpenID, MFA step when the user has one and
 *   SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY).
 * The protocol work is `openid-client` (a certified relying-party library). Failures end on the login page with
 * `?error=sso_failed|sso_user_denied|sso_inactive` (the page says what went wrong) and a login-log entry.
 * Deviations: state and nonce are always used (AUTH_OPENID_USE_STATE/USE_NONCE are shown but cannot switch off
 * a protection); AUTH_OPENID_IGNORE_SSL_VERIFICATION is not applied (the server's fetch verifies certificates).
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import * as client from 'openid-client'
import { newSession } from '../http/session.ts'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import { allSettings, getSecretSetting } from '../settings/store.ts'
import { findLoginUser, precheck } from './authenticate.ts'
import { completeWebLogin } from './complete.ts'
import { limitSettings } from './limits.ts'
import { writeLoginLog } from './login-log.ts'
import { AUTH_MESSAGES } from './messages.ts'
import { safeNext } from './next.ts'
import { OIDC_CALLBACK_URL, OIDC_LOGIN_URL } from './oidc-urls.ts'

/** A login started more than this long ago is refused at the callback. */
const PENDING_MS = 10 * 60_000
const LOGIN_PAGE = '/core/auth/login/'

interface OidcSettings {
  enabled: boolean
  issuer: string
  endpoints: { authorization: string; token: string; jwks: string; userinfo: string; endSession: string }
  clientId: string
  clientSecret: string
  authMethod: string
  scopes: string
  pkce: boolean
  challengeMethod: string
  attrMap: Record<string, string>
  alwaysUpdate: boolean
  baseSiteUrl: string
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

async function oidcSettings(req: FastifyRequest): Promise<OidcSettings> {
  const s = await allSettings(req.ctx.db)
  const keycloak = s.get('AUTH_OPENID_KEYCLOAK') === true
  let issuer = text(s.get('AUTH_OPENID_PROVIDER_ENDPOINT')).replace(/\/+$/, '')
  let endpoints = {
    authorization: text(s.get('AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT')),
    token: text(s.get('AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT')),
    jwks: text(s.get('AUTH_OPENID_PROVIDER_JWKS_ENDPOINT')),
    userinfo: text(s.get('AUTH_OPENID_PROVIDER_USERINFO_ENDPOINT')),
    endSession: text(s.get('AUTH_OPENID_PROVIDER_END_SESSION_ENDPOINT')),
  }
  if (keycloak) {
    // JumpServer's Keycloak mode: the endpoints follow from the server URL and the realm
    const realm = `${text(s.get('AUTH_OPENID_SERVER_URL')).replace(/\/+$/, '')}/realms/${encodeURIComponent(text(s.get('AUTH_OPENID_REALM_NAME')))}`
    issuer = realm
    const p = `${realm}/protocol/openid-connect`
    endpoints = { authorization: `${p}/auth`, token: `${p}/token`, jwks: `${p}/certs`, userinfo: `${p}/userinfo`, endSession: `${p}/logout` }
  }
  const map = s.get('AUTH_OPENID_USER_ATTR_MAP')
  return {
    enabled: s.get('AUTH_OPENID') === true,
    issuer,
    endpoints,
    clientId: text(s.get('AUTH_OPENID_CLIENT_ID')),
    clientSecret: await getSecretSetting(req.ctx.db, req.server.services.config, 'AUTH_OPENID_CLIENT_SECRET'),
    authMethod: text(s.get('AUTH_OPENID_CLIENT_AUTH_METHOD')) || 'client_secret_basic',
    scopes: text(s.get('AUTH_OPENID_SCOPES')) || 'openid profile email',
    pkce: s.get('AUTH_OPENID_PKCE') === true,
    challengeMethod: text(s.get('AUTH_OPENID_CODE_CHALLENGE_METHOD')) === 'plain' ? 'plain' : 'S256',
    attrMap: map && typeof map === 'object' && !Array.isArray(map) ? (map as Record<string, string>) : { username: 'preferred_username', name: 'name', email: 'email' },
    alwaysUpdate: s.get('AUTH_OPENID_ALWAYS_UPDATE_USER') !== false,
    baseSiteUrl: text(s.get('BASE_SITE_URL')).replace(/\/+$/, ''),
  }
}

function configuration(o: OidcSettings): client.Configuration {
  const server: client.ServerMetadata = {
    issuer: o.issuer,
    authorization_endpoint: o.endpoints.authorization,
    token_endpoint: o.endpoints.token,
    jwks_uri: o.endpoints.jwks,
    ...(o.endpoints.userinfo ? { userinfo_endpoint: o.endpoints.userinfo } : {}),
    ...(o.endpoints.endSession ? { end_session_endpoint: o.endpoints.endSession } : {}),
  }
  const auth = o.authMethod === 'client_secret_post' ? client.ClientSecretPost(o.clientSecret) : client.ClientSecretBasic(o.clientSecret)
  const config = new client.Configuration(server, o.clientId, { client_secret: o.clientSecret }, auth)
  // The administrator names the provider's URLs; plain http is theirs to choose (a provider on the same host).
  if (Object.values(o.endpoints).some((u) => u.startsWith('http://'))) client.allowInsecureRequests(config)
  return config
}

/** The callback URL the provider sends the browser back to (BASE_SITE_URL, else this request's origin). */
function redirectUri(req: FastifyRequest, o: OidcSettings): string {
  const base = o.baseSiteUrl || `${req.protocol}://${req.host}`
  return `${base}${OIDC_CALLBACK_URL}`
}

interface Pending { state: string; nonce: string; verifier?: string; next: string; at: number }

async function start(req: FastifyRequest, reply: FastifyReply) {
  const o = await oidcSettings(req)
  if (!o.enabled) return reply.redirect(`${LOGIN_PAGE}?error=sso_disabled`)
  const next = safeNext((req.query as Record<string, unknown> | undefined)?.next)
  const pending: Pending = { state: client.randomState(), nonce: client.randomNonce(), next, at: Date.now() }
  const params: Record<string, string> = {
    redirect_uri: redirectUri(req, o), scope: o.scopes, state: pending.state, nonce: pending.nonce, response_type: 'code',
  }
  if (o.pkce) {
    pending.verifier = client.randomPKCECodeVerifier()
    params.code_challenge = o.challengeMethod === 'plain' ? pending.verifier : await client.calculatePKCECodeChallenge(pending.verifier)
    params.code_challenge_method = o.challengeMethod
  }
  req.ctx.session ??= newSession()
  req.ctx.session.data.oidc = pending
  req.ctx.session.dirty = true
  return reply.redirect(client.buildAuthorizationUrl(configuration(o), params).href)
}

class SsoFailure extends Error {
  constructor(readonly code: 'sso_failed' | 'sso_user_denied' | 'sso_inactive', readonly reason: string, readonly username = '') {
    super(reason)
  }
}

/** The user the claims name: found (and updated) or created. */
async function mapUser(req: FastifyRequest, o: OidcSettings, claims: Record<string, unknown>) {
  const attr = (key: string, fallback: string) => text(claims[o.attrMap[key] || fallback])
  const username = attr('username', 'preferred_username') || text(claims.sub)
  if (!username || username.length > 128) throw new SsoFailure('sso_failed', 'OpenID: no usable username claim')
  const settings = await allSettings(req.ctx.db)
  const name = (attr('name', 'name') || username).slice(0, 128)
  const suffix = text(settings.get('EMAIL_SUFFIX')) || 'example.com'
  const email = (attr('email', 'email') || `${username}@${suffix}`).slice(0, 128)
  const existing = await findLoginUser(req, { username })
  if (existing) {
    if (settings.get('ONLY_ALLOW_AUTH_FROM_SOURCE') === true && existing.source !== 'openid') {
      throw new SsoFailure('sso_user_denied', AUTH_MESSAGES.reasonInvalid, username)
    }
    if (o.alwaysUpdate) {
      await sql`update users set name = ${name}, email = ${email}, date_updated = now() where id = ${existing.id}
        and not exists (select 1 from users o where o.email = ${email} and o.id <> ${existing.id})`.execute(req.ctx.db)
    }
    return existing
  }
  if (settings.get('ONLY_ALLOW_EXIST_USER_AUTH') === true) throw new SsoFailure('sso_user_denied', AUTH_MESSAGES.reasonInvalid, username)
  const taken = (await sql`select 1 from users where email = ${email}`.execute(req.ctx.db)).rows.length > 0
  if (taken) throw new SsoFailure('sso_failed', 'OpenID: the email belongs to another user', username)
  const id = randomUUID()
  await req.ctx.db.transaction().execute(async (tx) => {
    await sql`insert into users (id, name, username, email, source, created_by, is_first_login, date_expired)
      values (${id}, ${name}, ${username}, ${email}, 'openid', 'OpenID', false, now() + interval '70 years')`.execute(tx)
    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id, created_by)
      values (${randomUUID()}, ${id}, ${ROLE_IDS.User}, 'system', null, 'OpenID')`.execute(tx)
    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id, created_by)
      values (${randomUUID()}, ${id}, ${ROLE_IDS.OrgUser}, 'org', ${ORG_IDS.DEFAULT}, 'OpenID')`.execute(tx)
  })
  return (await findLoginUser(req, { id }))!
}

async function callback(req: FastifyRequest, reply: FastifyReply) {
  const session = req.ctx.session
  const pending = session?.data.oidc as Pending | undefined
  if (session && pending) {
    delete session.data.oidc
    session.dirty = true
  }
  let username = ''
  try {
    const o = await oidcSettings(req)
    if (!o.enabled) throw new SsoFailure('sso_failed', 'OpenID is disabled')
    if (!pending || Date.now() - pending.at > PENDING_MS) throw new SsoFailure('sso_failed', 'OpenID: no login in progress')
    const config = configuration(o)
    const current = new URL(`${redirectUri(req, o)}${req.url.slice(req.url.indexOf('?') >= 0 ? req.url.indexOf('?') : req.url.length)}`)
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
    try {
      tokens = await client.authorizationCodeGrant(config, current, {
        expectedState: pending.state, expectedNonce: pending.nonce, pkceCodeVerifier: pending.verifier, idTokenExpected: true,
      })
    } catch (e) {
      req.log.warn({ err: e }, 'OpenID code exchange failed')
      throw new SsoFailure('sso_failed', `OpenID: ${e instanceof Error ? e.message : 'code exchange failed'}`.slice(0, 128))
    }
    const idClaims: Record<string, unknown> = tokens.claims() ?? {}
    let claims: Record<string, unknown> = { ...idClaims }
    if (o.endpoints.userinfo && typeof idClaims.sub === 'string') {
      try {
        claims = { ...claims, ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)) }
      } catch (e) {
        req.log.warn({ err: e }, 'OpenID user info failed')
      }
    }
    const limits = await limitSettings(req.ctx.db)
    username = text(claims[o.attrMap.username || 'preferred_username']) || text(claims.sub)
    await precheck(req, username, limits).catch((e: Error) => {
      throw new SsoFailure('sso_user_denied', e.message, username)
    })
    const user = await mapUser(req, o, claims)
    username = user.username
    if (!user.is_active) throw new SsoFailure('sso_inactive', AUTH_MESSAGES.reasonInvalid, username)
    if (user.date_expired && user.date_expired.getTime() < Date.now()) throw new SsoFailure('sso_inactive', AUTH_MESSAGES.reasonInvalid, username)
    const acl = await req.server.loginAclCheck(req, { userId: user.id, username: user.username, ip: req.ip, type: 'W' })
    // SSO logins cannot wait on the login page for a reviewer: review refuses them, as a token login.
    if (acl.action === 'reject' || acl.action === 'review') throw new SsoFailure('sso_user_denied', AUTH_MESSAGES.reasonAcl, username)
    const settings = await allSettings(req.ctx.db)
    if (user.otp_secret && settings.get('SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY') !== false) {
      const s = req.ctx.session ?? (req.ctx.session = newSession())
      delete s.data.userId
      s.data.mfaPending = { userId: user.id, at: Date.now(), next: pending.next }
      s.dirty = true
      return reply.redirect(`${LOGIN_PAGE}?mfa=1`)
    }
    await completeWebLogin(req, reply, user, 0, 'OpenID')
    return reply.redirect(pending.next)
  } catch (e) {
    if (!(e instanceof SsoFailure)) throw e
    await writeLoginLog(req, { username: e.username || username || '-', type: 'W', mfa: 2, status: false, reason: e.reason, backend: 'OpenID' })
    return reply.redirect(`${LOGIN_PAGE}?error=${e.code}`)
  }
}

export function registerOidc(app: FastifyInstance): void {
  app.get(OIDC_LOGIN_URL, start)
  app.get(OIDC_CALLBACK_URL, callback)
}
