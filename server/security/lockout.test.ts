/**
 * Issue 36 points 8 and 9: login limits that an attacker cannot turn into a lockout of others. The (user, address)
 * pair is blocked after SECURITY_LOGIN_LIMIT_COUNT failures (7, JumpServer's default); the address only counts
 * usernames that do not exist (or a pair far above its limit) and blocks only those; a user with MFA who gives the
 * right password and code is never blocked; changing one's own password counts and blocks like a login.
 */
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { limitSettings } from '../auth/limits.ts'
import { bindOtp, encryptFor, openLoginPage, TEST_SECRET_KEY } from '../auth/test-support.ts'
import { totp } from '../auth/totp.ts'
import { setSettings } from '../settings/store.ts'
import { ADMIN_PASSWORD, createTestServer, dbKind, type TestServer } from '../testing.ts'

const PW = 'Str0ng-Passw0rd!'
const TOKEN = '/api/v1/authentication/auth/'
const LOGIN = '/api/v1/authentication/login/'
const MFA = '/api/v1/authentication/login/mfa/'
const CHANGE = '/api/v1/users/profile/password/'

describe(`login limits without lockouts of others (${dbKind()})`, () => {
  let t: TestServer
  let n = 0
  beforeAll(async () => { t = await createTestServer({ secretKey: TEST_SECRET_KEY }) })
  afterAll(async () => { await t.close() })
  afterEach(async () => {
    await sql`delete from settings where name like 'SECURITY_LOGIN_%'`.execute(t.database.db)
    await sql`delete from login_failures`.execute(t.database.db)
  })

  const user = async () => {
    const username = `lock${++n}`
    const id = await t.createUser({ username, password: PW })
    return { username, id }
  }
  const token = (username: string, password: string, ip: string, code?: string) => t.app.inject({
    method: 'POST', url: TOKEN, remoteAddress: ip, headers: { 'accept-language': 'en' }, payload: { username, password, ...(code ? { code } : {}) },
  })

  it("JumpServer's defaults: 7 failures per user, no practical per-address limit (point 8)", async () => {
    const s = await limitSettings(t.database.db)
    expect(s.userCount).toBe(7)
    expect(s.ipCount).toBe(99999)
  })

  it('failures from one address do not block other users from it, administrators included (point 8)', async () => {
    const victim = await user()
    for (let i = 0; i < 60; i++) expect((await token(`nobody${i}`, 'wrong', '203.0.113.5')).statusCode).toBe(400)
    for (let i = 0; i < 10; i++) await token(victim.username, 'wrong', '203.0.113.5')
    expect((await token('admin', ADMIN_PASSWORD, '203.0.113.5')).statusCode).toBe(201)
    const other = await user()
    expect((await token(other.username, PW, '203.0.113.5')).statusCode).toBe(201)
  })

  it('the (user, address) pair is blocked after 7 failures; the user still logs in from elsewhere (point 8)', async () => {
    const u = await user()
    for (let i = 0; i < 6; i++) expect((await token(u.username, 'wrong', '203.0.113.6')).json().code).toBe('invalid_credentials')
    expect((await token(u.username, 'wrong', '203.0.113.6')).json().code).toBe('blocked')
    const r = await token(u.username, PW, '203.0.113.6')
    expect(r.statusCode).toBe(400)
    expect(r.json().code).toBe('blocked')
    expect((await token(u.username, PW, '203.0.113.7')).statusCode).toBe(201)
  })

  it('a blocked address refuses only usernames that do not exist (point 8)', async () => {
    await setSettings(t.database.db, { SECURITY_LOGIN_IP_LIMIT_COUNT: 5 })
    const u = await user()
    for (let i = 0; i < 5; i++) await token(`ghost${i}`, 'wrong', '203.0.113.8')
    expect((await token('ghost-new', 'wrong', '203.0.113.8')).json().code).toBe('ip_blocked')
    expect((await token(u.username, PW, '203.0.113.8')).statusCode).toBe(201)
    // Existing users' own failures (within their limit) never count toward the address.
    await sql`delete from login_failures`.execute(t.database.db)
    const v = await user()
    for (let i = 0; i < 6; i++) await token(v.username, 'wrong', '203.0.113.9')
    expect((await token('ghost-x', 'wrong', '203.0.113.9')).json().code).toBe('invalid_credentials')
  })

  it('a user with MFA whose pair is blocked still logs in with the right password and code (point 8)', async () => {
    const u = await user()
    const secret = await bindOtp(t, u.id)
    for (let i = 0; i < 8; i++) await token(u.username, 'wrong', '127.0.0.1')
    // The web login: a blocked pair of an MFA user goes to the second step whatever the password (no oracle) …
    const wrongPw = t.client()
    await openLoginPage(wrongPw)
    const w1 = await wrongPw.post(LOGIN, { username: u.username, password: encryptFor(wrongPw, 'wrong') })
    expect(w1.json()).toMatchObject({ mfa_required: true })
    // … and a right code does not let a wrong password in.
    const w2 = await wrongPw.post(MFA, { code: totp(secret) })
    expect(w2.statusCode).toBe(400)
    await sql`update users set otp_last_counter = 0 where id = ${u.id}`.execute(t.database.db)
    const c = t.client()
    await openLoginPage(c)
    const s1 = await c.post(LOGIN, { username: u.username, password: encryptFor(c, PW) })
    expect(s1.json()).toMatchObject({ mfa_required: true })
    const s2 = await c.post(MFA, { code: totp(secret) })
    expect(s2.statusCode, s2.body).toBe(200)
    expect(s2.json().ok).toBe(true)
  })

  it('the token endpoint lets a blocked MFA user in with password and code together (point 8)', async () => {
    const u = await user()
    const secret = await bindOtp(t, u.id)
    for (let i = 0; i < 8; i++) await token(u.username, 'wrong', '203.0.113.10')
    expect((await token(u.username, PW, '203.0.113.10')).json().code).toBe('blocked')
    expect((await token(u.username, 'wrong', '203.0.113.10', totp(secret))).json().code).toBe('blocked')
    await sql`update users set otp_last_counter = 0 where id = ${u.id}`.execute(t.database.db)
    expect((await token(u.username, PW, '203.0.113.10', totp(secret))).statusCode).toBe(201)
  })

  it('changing one\'s own password counts wrong current passwords and blocks like a login (point 9)', async () => {
    const u = await user()
    const c = await t.as(u.username)
    c.headers['accept-language'] = 'en'
    for (let i = 0; i < 7; i++) {
      const r = await c.put(CHANGE, { old_password: `wrong${i}`, new_password: 'N3w-Passw0rd!x', new_password_again: 'N3w-Passw0rd!x' })
      expect(r.statusCode).toBe(400)
      expect(Object.keys(r.json())).toContain('old_password')
    }
    const right = await c.put(CHANGE, { old_password: PW, new_password: 'N3w-Passw0rd!x', new_password_again: 'N3w-Passw0rd!x' })
    expect(right.statusCode).toBe(400)
    expect(right.json().old_password[0]).toMatch(/locked/)
    const hash = (await sql<{ h: string }>`select password_hash as h from users where id = ${u.id}`.execute(t.database.db)).rows[0]!.h
    expect(hash).toBeTruthy()
    // The login from the same address is blocked too.
    expect((await token(u.username, PW, '127.0.0.1')).json().code).toBe('blocked')
  })
})
