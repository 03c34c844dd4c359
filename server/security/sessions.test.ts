/**
 * Sessions and tokens (issue 16 points 6, 12 and 13 within one process; sessions-multi.test.ts runs them across
 * two processes): a password change, reset, disable or delete ends the user's other sessions and tokens; a
 * deleted session stays deleted; concurrent requests of one session keep each other's changes; a one-time code
 * is accepted once.
 */
import { sql } from 'kysely'
import { startSmtp } from '../testing/smtp.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SmsBackend } from '../auth/sms.ts'
import { loadSession, saveSession } from '../http/session.ts'
import { setSettings } from '../settings/store.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { USERS } from './fixtures.ts'

const PW = 'Str0ng-Passw0rd!'
const PROFILE = '/api/v1/users/profile/'
const CONFIRM = '/api/v1/authentication/confirm/'

describe(`sessions and tokens end with the credential (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  let n = 0

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    admin.headers['x-jms-org'] = 'ROOT'
  })
  afterAll(async () => { await t.close() })

  /** A user with two browser sessions and an API token. */
  async function userWithSessions() {
    const username = `victim${n++}`
    const id = await t.createUser({ username, password: PW })
    const a = await t.as(username)
    const b = await t.as(username)
    const tok = await t.client().post('/api/v1/authentication/auth/', { username, password: PW })
    expect(tok.statusCode).toBe(201)
    const bearer = { authorization: `Bearer ${tok.json().token}` }
    const alive = async () => ({
      a: (await a.get(PROFILE)).statusCode,
      b: (await b.get(PROFILE)).statusCode,
      token: (await t.client().get(PROFILE, bearer)).statusCode,
    })
    expect(await alive()).toEqual({ a: 200, b: 200, token: 200 })
    return { id, username, a, b, alive }
  }

  it('the user changing their own password keeps this session and ends the others and the tokens', async () => {
    const u = await userWithSessions()
    const r = await u.a.put(`${PROFILE}password/`, { old_password: PW, new_password: 'N3w-Passw0rd!x', new_password_again: 'N3w-Passw0rd!x' })
    expect(r.statusCode).toBe(200)
    expect(await u.alive()).toEqual({ a: 200, b: 401, token: 401 })
  })

  it('an administrator setting the password ends every session and token of the user', async () => {
    const u = await userWithSessions()
    expect((await admin.patch(`${USERS}${u.id}/`, { password: 'Adm1n-Set-Passw0rd!' })).statusCode).toBe(200)
    expect(await u.alive()).toEqual({ a: 401, b: 401, token: 401 })
    expect((await admin.get(PROFILE)).statusCode).toBe(200)
  })

  it('an administrator resetting the password ends them', async () => {
    const u = await userWithSessions()
    const smtp = await startSmtp() // the reset link goes out by mail
    await setSettings(t.database.db, { EMAIL_HOST: smtp.host, EMAIL_PORT: String(smtp.port) })
    expect((await admin.put(`${USERS}${u.id}/password/reset/`, {})).statusCode).toBe(200)
    await smtp.stop()
    expect(await u.alive()).toEqual({ a: 401, b: 401, token: 401 })
  })

  it('disabling the user ends them, and enabling again does not bring them back', async () => {
    const u = await userWithSessions()
    expect((await admin.patch(`${USERS}${u.id}/`, { is_active: false })).statusCode).toBe(200)
    expect((await admin.patch(`${USERS}${u.id}/`, { is_active: true })).statusCode).toBe(200)
    expect(await u.alive()).toEqual({ a: 401, b: 401, token: 401 })
  })

  it('deleting the user ends them', async () => {
    const u = await userWithSessions()
    expect((await admin.delete(`${USERS}${u.id}/`)).statusCode).toBe(204)
    const left = await sql<{ n: number }>`select (select count(*) from sessions where user_id = ${u.id}) + (select count(*) from auth_tokens where user_id = ${u.id}) as n`.execute(t.database.db)
    expect(Number(left.rows[0]!.n)).toBe(0)
  })

  it('a request that loaded the session before the logout cannot write it back (point 12)', async () => {
    const u = await userWithSessions()
    const sid = u.a.jar.get('jms_sessionid')!
    const inFlight = (await loadSession(t.database.db, sid))!
    expect((await u.a.get('/core/auth/logout/')).statusCode).toBe(302)
    inFlight.data.confirm = { level: 2, at: Date.now() }
    inFlight.dirty = true
    await saveSession(t.database.db, inFlight, 3600)
    const row = await sql`select 1 from sessions where id = ${sid}`.execute(t.database.db)
    expect(row.rows).toHaveLength(0)
    const replay = t.client()
    replay.jar.set('jms_sessionid', sid)
    expect((await replay.get(PROFILE)).statusCode).toBe(401)
  })

  it('HTTP: a confirmation in flight during the logout does not undo it (point 12)', async () => {
    for (let round = 0; round < 5; round++) {
      const u = await userWithSessions()
      const sid = u.a.jar.get('jms_sessionid')!
      const logout = t.client()
      logout.jar.set('jms_sessionid', sid)
      const confirm = u.a.post(CONFIRM, { confirm_type: 'password', secret_key: PW }) // argon2: the slow one
      await new Promise((r) => setTimeout(r, 5))
      await logout.get('/core/auth/logout/')
      await confirm
      const replay = t.client()
      replay.jar.set('jms_sessionid', sid)
      expect((await replay.get(PROFILE)).statusCode, `round ${round}`).toBe(401)
    }
  })

  it('a confirmation and an OTP set-up at the same moment both stay in the session (point 13)', async () => {
    for (let round = 0; round < 5; round++) {
      const u = await userWithSessions()
      const [c, s] = await Promise.all([
        u.a.post(CONFIRM, { confirm_type: 'password', secret_key: PW }),
        u.a.get(`${PROFILE}otp/setup/`),
      ])
      expect([c.statusCode, s.statusCode]).toEqual([200, 200])
      const data = (await sql<{ data: Record<string, unknown> }>`select data from sessions where id = ${u.a.jar.get('jms_sessionid')!}`.execute(t.database.db)).rows[0]!.data
      expect(Object.keys(data), `round ${round}`).toEqual(expect.arrayContaining(['confirm', 'otpSetup']))
    }
  })

  it('an SMS code is accepted exactly once, even by two requests at once (point 13)', async () => {
    const sent: string[] = []
    const capture: SmsBackend = { name: 'capture', async send(_req, _to, code) { sent.push(code) } }
    t.app.smsBackend = capture
    await setSettings(t.database.db, { SMS_ENABLED: true })
    const u = await userWithSessions()
    await sql`update users set phone = '+86 13800138000' where id = ${u.id}`.execute(t.database.db)
    expect((await u.a.post('/api/v1/authentication/mfa/send-code/', { type: 'sms' })).statusCode).toBe(201)
    const code = sent.at(-1)!
    const second = t.client()
    second.jar.set('jms_sessionid', u.a.jar.get('jms_sessionid')!)
    second.jar.set('jms_csrftoken', u.a.jar.get('jms_csrftoken')!)
    const answers = await Promise.all([u.a, second, u.a].map((c) => c.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'sms', secret_key: code })))
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400, 400])
  })
})
