/**
 * OpenID Connect login against a real provider (`oidc-provider` on a loopback port): configured through the
 * settings API, started from the login URL, the provider's login form filled, the callback exchanging the code.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOidcProvider, type TestProvider } from '../../tests/support/oidc-provider.ts'
import { invalidateSettingsCache } from '../settings/store.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { asEnglish, authTestServer, bindOtp, englishClient, loginLogs, sessionData } from './test-support.ts'

const BASE = 'http://bastion.test'
const CALLBACK = `${BASE}/core/auth/openid/callback/`

/** A cookie jar for the provider's pages (fetch with manual redirects). */
class Browser {
  cookies = new Map<string, string>()
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
    return res
  }
}

/**
 * Follows the provider's redirects, signs in on its login form as `login`, and answers the URL it finally sends
 * the browser to (our callback, with `code` and `state`).
 */
async function signInAtProvider(authUrl: string, login: string): Promise<URL> {
  const b = new Browser()
  let url = authUrl
  for (let hops = 0; hops < 10; hops++) {
    if (url.startsWith(BASE)) return new URL(url)
    const res = await b.go(url)
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href
      continue
    }
    const html = await res.text()
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    if (!action || !html.includes('name="login"')) throw new Error(`unexpected provider page ${res.status}: ${html.slice(0, 200)}`)
    const post = await b.go(new URL(action, url).href, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
    })
    url = new URL(post.headers.get('location')!, url).href
  }
  throw new Error('too many redirects')
}

describe(`OpenID Connect login (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient
  let idp: TestProvider

  const configure = async (extra: Record<string, unknown> = {}) => {
    const res = await admin.patch('/api/v1/settings/setting/?category=oidc', {
      AUTH_OPENID: true,
      BASE_SITE_URL: BASE,
      AUTH_OPENID_CLIENT_ID: idp.clientId,
      AUTH_OPENID_CLIENT_SECRET: idp.clientSecret,
      AUTH_OPENID_PROVIDER_ENDPOINT: idp.issuer,
      AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT: `${idp.issuer}/auth`,
      AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT: `${idp.issuer}/token`,
      AUTH_OPENID_PROVIDER_JWKS_ENDPOINT: `${idp.issuer}/jwks`,
      AUTH_OPENID_PROVIDER_USERINFO_ENDPOINT: `${idp.issuer}/me`,
      AUTH_OPENID_PROVIDER_END_SESSION_ENDPOINT: `${idp.issuer}/session/end`,
      AUTH_OPENID_PKCE: true,
      ...extra,
    })
    expect(res.statusCode, res.body).toBe(200)
    invalidateSettingsCache()
  }

  /** Runs the whole flow for `login` and answers the client and the callback's answer. */
  const flow = async (login: string, next = '/ui/#/console/assets') => {
    const c = englishClient(server)
    const start = await c.get(`/core/auth/openid/login/?next=${encodeURIComponent(next)}`)
    expect(start.statusCode).toBe(302)
    const auth = new URL(start.headers.location as string)
    expect(auth.origin).toBe(idp.issuer)
    expect(auth.searchParams.get('redirect_uri')).toBe(CALLBACK)
    for (const p of ['state', 'nonce', 'code_challenge']) expect(auth.searchParams.get(p)).toMatch(/^[\w-]{20,}$/)
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256')
    const back = await signInAtProvider(auth.href, login)
    expect(back.searchParams.get('code')).toBeTruthy()
    const res = await c.get(`${back.pathname}${back.search}`)
    return { c, res, back }
  }

  beforeAll(async () => {
    server = await authTestServer()
    admin = await asEnglish(server, 'admin')
    idp = await startOidcProvider({ redirectUris: [CALLBACK] })
  })
  afterAll(async () => {
    await idp?.close()
    await server?.close()
  })

  it('is off by default: no button, the login URL goes back to the login page', async () => {
    const open = (await server.client().get('/api/v1/settings/public/open/')).json()
    expect(open.LOGIN_METHODS).toEqual([])
    const res = await server.client().get('/core/auth/openid/login/')
    expect(res.headers.location).toBe('/core/auth/login/?error=sso_disabled')
  })

  it('keeps the client secret sealed and shows the button once enabled', async () => {
    await configure()
    const read = (await admin.get('/api/v1/settings/setting/?category=oidc')).json()
    expect(read.AUTH_OPENID_CLIENT_SECRET).toBeUndefined()
    expect(read.SECRETS_SET).toEqual({ AUTH_OPENID_CLIENT_SECRET: true })
    const row = (await sql<{ value: string }>`select value from settings where name = 'AUTH_OPENID_CLIENT_SECRET'`.execute(server.database.db)).rows[0]!
    expect(JSON.stringify(row.value)).not.toContain(idp.clientSecret)
    const open = (await server.client().get('/api/v1/settings/public/open/')).json()
    expect(open.LOGIN_METHODS).toEqual([{ name: 'openid', title: 'OpenID', url: '/core/auth/openid/login/' }])
  })

  it('signs a new user in: created from the mapped claims, session, login log, next kept', async () => {
    await configure()
    const { c, res } = await flow('alice')
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/ui/#/console/assets')
    const user = (await sql<{ id: string; name: string; email: string; source: string }>`
      select id, name, email, source from users where username = 'alice'`.execute(server.database.db)).rows[0]!
    expect(user).toMatchObject({ name: 'Alice Example', email: 'alice@idp.test', source: 'openid' })
    expect((await sessionData(server, c))?.userId).toBe(user.id)
    const me = await c.get('/api/v1/users/profile/')
    expect(me.statusCode).toBe(200)
    expect(me.json().username).toBe('alice')
    expect((await loginLogs(server, 'alice')).at(-1)).toMatchObject({ status: true, backend: 'OpenID' })
  })

  it('maps attributes by AUTH_OPENID_USER_ATTR_MAP and updates an existing user', async () => {
    await configure({ AUTH_OPENID_USER_ATTR_MAP: { username: 'sub', name: 'email', email: 'email' }, AUTH_OPENID_CLIENT_AUTH_METHOD: 'client_secret_basic' })
    await server.createUser({ username: 'bob' })
    const { res } = await flow('bob')
    expect(res.statusCode).toBe(302)
    const bob = (await sql<{ name: string; email: string; source: string }>`select name, email, source from users where username = 'bob'`.execute(server.database.db)).rows[0]!
    expect(bob).toEqual({ name: 'bob@idp.test', email: 'bob@idp.test', source: 'local' })
    await configure({ AUTH_OPENID_USER_ATTR_MAP: { name: 'name', username: 'preferred_username', email: 'email' } })
  })

  it('refuses unknown users when only existing users may log in, and a tampered state', async () => {
    await admin.patch('/api/v1/settings/setting/?category=security', { ONLY_ALLOW_EXIST_USER_AUTH: true })
    invalidateSettingsCache()
    try {
      const { res } = await flow('carol')
      expect(res.headers.location).toBe('/core/auth/login/?error=sso_user_denied')
      expect((await sql`select 1 from users where username = 'carol'`.execute(server.database.db)).rows).toHaveLength(0)
      expect((await loginLogs(server, 'carol')).at(-1)).toMatchObject({ status: false, backend: 'OpenID' })
    } finally {
      await admin.patch('/api/v1/settings/setting/?category=security', { ONLY_ALLOW_EXIST_USER_AUTH: false })
      invalidateSettingsCache()
    }
    // a callback whose state is not the one this browser started with is refused
    const c = englishClient(server)
    const start = await c.get('/core/auth/openid/login/')
    const auth = new URL(start.headers.location as string)
    const back = await signInAtProvider(auth.href, 'dave')
    back.searchParams.set('state', 'forged-state-value-0123456789')
    const res = await c.get(`${back.pathname}${back.search}`)
    expect(res.headers.location).toBe('/core/auth/login/?error=sso_failed')
    expect((await sql`select 1 from users where username = 'dave'`.execute(server.database.db)).rows).toHaveLength(0)
    // and a callback without a login in progress
    const stray = await englishClient(server).get(`/core/auth/openid/callback/?code=x&state=y`)
    expect(stray.headers.location).toBe('/core/auth/login/?error=sso_failed')
  })

  it('asks a user with MFA for the code after the provider (third-party MFA on)', async () => {
    const id = await server.createUser({ username: 'erin' })
    await bindOtp(server, id)
    const { c, res } = await flow('erin')
    expect(res.headers.location).toBe('/core/auth/login/?mfa=1')
    const data = await sessionData(server, c)
    expect(data?.userId).toBeUndefined()
    expect(data?.mfaPending?.userId).toBe(id)
  })
})
