import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ROLE_IDS } from '../rbac/catalog.ts'
import { setSettings } from '../settings/store.ts'
import { ADMIN_PASSWORD, type TestServer } from '../testing.ts'
import {
  asEnglish, authTestServer, bindOtp, encryptFor, englishClient, loginLogs, openLoginPage, patchSession, sessionData, webLogin,
} from './test-support.ts'
import { totp } from './totp.ts'

let server: TestServer
const db = () => server.database.db
const LOGIN = '/api/v1/authentication/login/'
const MFA = '/api/v1/authentication/login/mfa/'
const PASSWORD = 'Str0ng-Passw0rd'

beforeAll(async () => {
  server = await authTestServer()
})
afterAll(async () => {
  await server?.close()
})
afterEach(async () => {
  await setSettings(db(), {
    SECURITY_LOGIN_LIMIT_COUNT: 7, SECURITY_LOGIN_LIMIT_TIME: 30, SECURITY_LOGIN_IP_LIMIT_COUNT: 99999,
    SECURITY_LOGIN_IP_WHITE_LIST: [], SECURITY_LOGIN_IP_BLACK_LIST: [],
  })
  await sql`delete from login_failures`.execute(db())
})

let n = 0
const newUser = async (opts: { otp?: boolean } = {}) => {
  const username = `user${++n}`
  const id = await server.createUser({ username, password: PASSWORD })
  const secret = opts.otp ? await bindOtp(server, id) : undefined
  return { username, id, secret }
}

describe('login page', () => {
  it('publishes the session key, the CSRF token and the cookie prefix', async () => {
    const c = englishClient(server)
    const r = await c.get('/core/auth/login/')
    expect(r.statusCode).toBe(503) // the console is not built for server tests; the session set-up still happens
    expect(c.jar.get('jms_public_key')).toMatch(/^[A-Za-z0-9+/=]+$/)
    expect(Buffer.from(c.jar.get('jms_public_key')!, 'base64').toString()).toContain('BEGIN PUBLIC KEY')
    expect(c.jar.get('jms_csrftoken')).toBeTruthy()
    expect(c.jar.get('SESSION_COOKIE_NAME_PREFIX')).toBe('jms_')
    expect((await sessionData(server, c))?.privateKey).toContain('PRIVATE KEY')
  })

  it('sends a logged-in visitor on to a safe next, or /ui/', async () => {
    const c = await asEnglish(server, 'admin')
    const r1 = await c.get('/core/auth/login/?next=/ui/audit/')
    expect(r1.statusCode).toBe(302)
    expect(r1.headers.location).toBe('/ui/audit/')
    const r2 = await c.get('/core/auth/login/?next=//evil.example/')
    expect(r2.headers.location).toBe('/ui/')
  })
})

describe('password login', () => {
  it('logs in with the hybrid-encrypted password, rotating the session', async () => {
    const c = englishClient(server)
    c.headers['user-agent'] = `Mozilla/5.0 ${'x'.repeat(400)}`
    await openLoginPage(c)
    const before = c.jar.get('jms_sessionid')!
    const keyBefore = (await sessionData(server, c))!.privateKey
    expect(c.jar.get('jms_session_expire')).toBeUndefined()
    const r = await c.post(LOGIN, { username: 'admin', password: encryptFor(c, ADMIN_PASSWORD) })
    expect(r.statusCode).toBe(200)
    expect(r.json()).toEqual({ ok: true, next: '/ui/' })
    const after = c.jar.get('jms_sessionid')!
    expect(after).not.toBe(before)
    const old = await sql`select 1 from sessions where id = ${before}`.execute(db())
    expect(old.rows).toHaveLength(0)
    const data = (await sessionData(server, c))!
    expect(data.userId).toBe(server.adminId)
    expect(data.privateKey).toBe(keyBefore)
    expect(data.oid).toBe('00000000-0000-0000-0000-000000000002')
    expect(Math.abs(Date.now() - data.loginAt)).toBeLessThan(10_000)
    const mark = r.cookies.find((x) => x.name === 'jms_session_expire')!
    expect(mark).toMatchObject({ value: 'age', path: '/', maxAge: server.config.sessionAge })
    expect(mark.httpOnly).toBeFalsy()

    const profile = await c.get('/api/v1/users/profile/')
    expect(profile.statusCode).toBe(200)
    expect(profile.json().username).toBe('admin')
    const last = await sql<{ last_login: Date }>`select last_login from users where id = ${server.adminId}`.execute(db())
    expect(Date.now() - last.rows[0]!.last_login.getTime()).toBeLessThan(10_000)
    const log = (await loginLogs(server, 'admin')).at(-1)!
    expect(log).toMatchObject({ type: 'W', status: true, reason: '', mfa: 0, backend: 'password', ip: '127.0.0.1' })
    expect(log.user_agent).toHaveLength(254)
  })

  it('honours next only for same-site paths', async () => {
    const { username } = await newUser()
    const good = await webLogin(englishClient(server), username, PASSWORD, { next: '/ui/workbench/assets?x=1' })
    expect(good.json()).toEqual({ ok: true, next: '/ui/workbench/assets?x=1' })
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const r = await webLogin(englishClient(server), username, PASSWORD, { next })
      expect(r.json()).toEqual({ ok: true, next: '/ui/' })
    }
  })

  it('sets the close mark when sessions end with the browser', async () => {
    const other = await authTestServer({ sessionExpireAtBrowserClose: true })
    try {
      const c = englishClient(other)
      const r = await webLogin(c, 'admin', ADMIN_PASSWORD)
      expect(r.cookies.find((x) => x.name === 'jms_session_expire')?.value).toBe('close')
    } finally {
      await other.close()
    }
  })

  it('answers a wrong password with the remaining attempts, and logs it', async () => {
    const { username } = await newUser()
    const r = await webLogin(englishClient(server), username, 'wrong-password')
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({
      code: 'invalid_credentials',
      error: 'The username or password you entered is incorrect, please enter it again. You can also try 6 times (The account will be temporarily locked for 30 minutes)',
    })
    expect(await loginLogs(server, username)).toMatchObject([{ status: false, reason: 'Username/password check failed', mfa: 0, type: 'W' }])
  })

  it('translates the message', async () => {
    const { username } = await newUser()
    const c = server.client()
    c.headers['accept-language'] = 'zh-CN,zh;q=0.9'
    const r = await webLogin(c, username, 'wrong-password')
    expect(r.json().error).toContain('您输入的用户名或密码不正确')
  })

  it('gives unknown users the same answer', async () => {
    const r = await webLogin(englishClient(server), 'nobody-here', 'whatever')
    expect(r.json().code).toBe('invalid_credentials')
    expect(await loginLogs(server, 'nobody-here')).toMatchObject([{ status: false, mfa: 2 }])
  })

  it('refuses inactive and expired accounts once the password is right', async () => {
    const a = await newUser()
    await sql`update users set is_active = false where id = ${a.id}`.execute(db())
    expect((await webLogin(englishClient(server), a.username, PASSWORD)).json()).toEqual({ code: 'inactive', error: 'This account is inactive.' })
    const b = await newUser()
    await sql`update users set date_expired = now() - interval '1 day' where id = ${b.id}`.execute(db())
    expect((await webLogin(englishClient(server), b.username, PASSWORD)).json().code).toBe('expired')
    expect(await loginLogs(server, b.username)).toMatchObject([{ status: false, reason: 'Disabled or expired' }])
  })

  it('blocks the account after N failures with a clear message, then refuses even the right password', async () => {
    await setSettings(db(), { SECURITY_LOGIN_LIMIT_COUNT: 3, SECURITY_LOGIN_LIMIT_TIME: 15 })
    const { username } = await newUser()
    const answers = []
    for (let i = 0; i < 3; i++) answers.push((await webLogin(englishClient(server), username, 'bad')).json())
    expect(answers.map((a) => a.code)).toEqual(['invalid_credentials', 'invalid_credentials', 'blocked'])
    expect(answers[1].error).toContain('You can also try 1 times (The account will be temporarily locked for 15 minutes)')
    expect(answers[2].error).toBe('The account has been locked (please contact admin to unlock it or try again after 15 minutes)')
    const right = await webLogin(englishClient(server), username, PASSWORD)
    expect(right.statusCode).toBe(400)
    expect(right.json().code).toBe('blocked')
    const logs = await loginLogs(server, username)
    expect(logs).toHaveLength(4)
    expect(logs.at(-1)).toMatchObject({ status: false, reason: 'Login blocked' })
    const session = await server.as(username)
    expect((await session.get('/api/v1/users/profile/')).json().login_blocked).toBe(true)
  })

  it('unblocks after the window', async () => {
    await setSettings(db(), { SECURITY_LOGIN_LIMIT_COUNT: 2, SECURITY_LOGIN_LIMIT_TIME: 5 })
    const { username } = await newUser()
    await webLogin(englishClient(server), username, 'bad')
    expect((await webLogin(englishClient(server), username, 'bad')).json().code).toBe('blocked')
    expect((await webLogin(englishClient(server), username, PASSWORD)).json().code).toBe('blocked')
    // The block lasts the window (5 minutes) from the failure that reached the limit, on the database's clock.
    const key = `user:${username.toLowerCase()}`
    const left = (await sql<{ s: number }>`select extract(epoch from blocked_until - now())::float8 as s from login_failures where key = ${key}`.execute(db())).rows[0]!.s
    expect(left).toBeGreaterThan(4 * 60)
    expect(left).toBeLessThanOrEqual(5 * 60)
    // The window passes: the stored times move back by it, instead of the test waiting for the clock.
    await sql`update login_failures set first_at = first_at - interval '5 minutes', blocked_until = blocked_until - interval '5 minutes' where key = ${key}`.execute(db())
    expect((await webLogin(englishClient(server), username, PASSWORD)).json()).toEqual({ ok: true, next: '/ui/' })
  })

  it('resets the counter after a successful login', async () => {
    await setSettings(db(), { SECURITY_LOGIN_LIMIT_COUNT: 3 })
    const { username } = await newUser()
    await webLogin(englishClient(server), username, 'bad')
    await webLogin(englishClient(server), username, 'bad')
    expect((await webLogin(englishClient(server), username, PASSWORD)).statusCode).toBe(200)
    expect((await webLogin(englishClient(server), username, 'bad')).json().error).toContain('You can also try 2 times')
  })

  it('applies the IP black list, the per-IP limit and the white list', async () => {
    const { username } = await newUser()
    await setSettings(db(), { SECURITY_LOGIN_IP_BLACK_LIST: ['10.0.0.0/8', '127.0.0.1'] })
    expect((await webLogin(englishClient(server), username, PASSWORD)).json()).toEqual({ code: 'ip_not_allowed', error: 'IP is not allowed' })
    await setSettings(db(), { SECURITY_LOGIN_IP_BLACK_LIST: [], SECURITY_LOGIN_IP_LIMIT_COUNT: 2 })
    await webLogin(englishClient(server), 'guess-a', 'x')
    await webLogin(englishClient(server), 'guess-b', 'x')
    const r = await webLogin(englishClient(server), username, PASSWORD)
    expect(r.json().code).toBe('ip_blocked')
    expect(r.json().error).toBe('The IP has been locked (please contact admin to unlock it or try again after 30 minutes)')
    await setSettings(db(), { SECURITY_LOGIN_IP_WHITE_LIST: ['127.0.0.1'] })
    expect((await webLogin(englishClient(server), username, PASSWORD)).statusCode).toBe(200)
  })
})

describe('request hygiene', () => {
  it('requires the CSRF header on login (403), missing or foreign', async () => {
    const c = englishClient(server)
    await openLoginPage(c)
    const body = { username: 'admin', password: encryptFor(c, ADMIN_PASSWORD) }
    for (const token of ['', 'someone-elses-token']) {
      const r = await c.request({ method: 'POST', url: LOGIN, json: body, headers: { 'x-csrftoken': token } })
      expect(r.statusCode).toBe(403)
      expect(r.json()).toEqual({ detail: 'CSRF Failed: CSRF token missing or incorrect.', code: 'csrf_failed' })
    }
    const noCookie = server.client()
    const r = await noCookie.post(LOGIN, body, { 'x-csrftoken': 'made-up' })
    expect(r.statusCode).toBe(403)
  })

  it('treats an authenticated unsafe call without a valid CSRF token as anonymous (401)', async () => {
    const c = await asEnglish(server, 'admin')
    const r = await c.request({ method: 'PATCH', url: '/api/v1/users/profile/', json: { comment: 'x' }, headers: { 'x-csrftoken': 'wrong' } })
    expect(r.statusCode).toBe(401)
    expect(r.json().code).toBe('not_authenticated')
  })

  it('answers 400 decrypt_failed for values that are not the hybrid format or do not decrypt', async () => {
    const { username } = await newUser()
    const c = englishClient(server)
    await openLoginPage(c)
    const foreign = englishClient(server)
    await openLoginPage(foreign)
    for (const password of [PASSWORD, 'abc:def', encryptFor(foreign, PASSWORD)]) {
      const r = await c.post(LOGIN, { username, password })
      expect(r.statusCode).toBe(400)
      expect(r.json()).toEqual({ code: 'decrypt_failed', error: 'The password could not be decrypted, please reload the page' })
    }
    expect(await loginLogs(server, username)).toMatchObject([{ reason: 'Password decrypt failed' }, {}, {}])
  })

  it('gives field errors for a missing username or password', async () => {
    const c = englishClient(server)
    await openLoginPage(c)
    const r = await c.post(LOGIN, { password: '' })
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({ username: ['This field is required.'], password: ['This field may not be blank.'] })
  })

  it('answers malformed JSON and oversized bodies with JSON errors', async () => {
    const c = englishClient(server)
    await openLoginPage(c)
    const bad = await c.request({ method: 'POST', url: LOGIN, payload: '{"username": ', headers: { 'content-type': 'application/json' } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('parse_error')
    const big = await c.request({ method: 'POST', url: LOGIN, json: { username: 'x'.repeat(server.config.bodyLimit + 10), password: 'y' } })
    expect([400, 413]).toContain(big.statusCode)
    expect(big.headers['content-type']).toContain('application/json')
    expect(big.json().code).toBe('payload_too_large')
  })
})

describe('second factor (OTP)', () => {
  it('asks for the code, refuses a wrong one, accepts a valid one and refuses its reuse', async () => {
    const { username, secret } = await newUser({ otp: true })
    const c = englishClient(server)
    const step1 = await webLogin(c, username, PASSWORD, { next: '/ui/profile/' })
    expect(step1.json()).toEqual({ mfa_required: true, methods: ['otp'] })
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401)

    const wrong = await c.post(MFA, { code: '000000' === totp(secret!) ? '111111' : '000000' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toEqual({ code: 'mfa_invalid', error: 'MFA code invalid, or ntp sync server time' })

    const code = totp(secret!)
    const ok = await c.post(MFA, { code })
    expect(ok.json()).toEqual({ ok: true, next: '/ui/profile/' })
    expect((await c.get('/api/v1/users/profile/')).json().username).toBe(username)

    const again = englishClient(server)
    expect((await webLogin(again, username, PASSWORD)).json().mfa_required).toBe(true)
    const reused = await again.post(MFA, { code })
    expect(reused.json().code).toBe('mfa_invalid')
    expect((await loginLogs(server, username)).map((l) => [l.status, l.reason, l.mfa])).toEqual([
      [false, 'MFA failed', 1], [true, '', 1], [false, 'MFA failed', 1],
    ])
  })

  it('counts wrong codes towards the block', async () => {
    await setSettings(db(), { SECURITY_LOGIN_LIMIT_COUNT: 2 })
    const { username } = await newUser({ otp: true })
    const c = englishClient(server)
    await webLogin(c, username, PASSWORD)
    expect((await c.post(MFA, { code: 'abcdef' })).json().code).toBe('mfa_invalid')
    expect((await c.post(MFA, { code: 'abcdef' })).json().code).toBe('blocked')
  })

  it('expires a pending second step after 5 minutes, and without a first step', async () => {
    const { username, secret } = await newUser({ otp: true })
    const c = englishClient(server)
    await webLogin(c, username, PASSWORD)
    await patchSession(server, c, (d) => { d.mfaPending.at = Date.now() - 5 * 60_000 - 1000 })
    const r = await c.post(MFA, { code: totp(secret!) })
    expect(r.json()).toEqual({ code: 'mfa_expired', error: 'The login has timed out, please log in again' })
    const fresh = englishClient(server)
    await openLoginPage(fresh)
    expect((await fresh.post(MFA, { code: '123456' })).json().code).toBe('mfa_expired')
  })
})

describe('logout', () => {
  it('ends the session and redirects to the login page, passing a same-site next on', async () => {
    const c = englishClient(server)
    await webLogin(c, 'admin', ADMIN_PASSWORD)
    const sid = c.jar.get('jms_sessionid')!
    expect(c.jar.get('jms_session_expire')).toBe('age')
    const r = await c.get('/core/auth/logout/?next=/ui/console/users/')
    expect(r.statusCode).toBe(302)
    expect(r.headers.location).toBe('/core/auth/login/?next=%2Fui%2Fconsole%2Fusers%2F')
    expect(c.jar.get('jms_session_expire')).toBeUndefined()
    expect(c.jar.get('jms_sessionid')).toBeUndefined()
    expect((await sql`select 1 from sessions where id = ${sid}`.execute(db())).rows).toHaveLength(0)
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401)

    const other = await server.as('admin')
    expect((await other.get('/core/auth/logout/?next=//evil.example')).headers.location).toBe('/core/auth/login/')
  })

  it('accepts the template logout call', async () => {
    const r = await (await server.as('admin')).post('/vue-admin-template/user/logout')
    expect(r.statusCode).toBe(200)
    expect(r.json()).toEqual({})
  })
})

describe('organization of a new session', () => {
  it('is the first organization the user works in', async () => {
    const org = '5f0c0000-0000-4000-8000-000000000001'
    await sql`insert into organizations (id, name) values (${org}, 'Aardvark')`.execute(db())
    const username = 'orgbound'
    await server.createUser({ username, password: PASSWORD, systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgUser], orgId: org })
    const c = englishClient(server)
    await webLogin(c, username, PASSWORD)
    expect((await sessionData(server, c))!.oid).toBe(org)
  })
})
