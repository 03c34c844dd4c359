import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadSession } from '../http/session.ts'
import { setSettings } from '../settings/store.ts'
import { ADMIN_PASSWORD, type TestClient, type TestServer } from '../testing.ts'
import { type ConfirmType, requireConfirm } from './confirm.ts'
import { logSmsBackend, type SmsBackend } from './sms.ts'
import { asEnglish, authTestServer, bindOtp, encryptFor, englishClient, patchSession, webLogin } from './test-support.ts'
import { totp } from './totp.ts'

let server: TestServer
const db = () => server.database.db
const CONFIRM = '/api/v1/authentication/confirm/'

beforeAll(async () => {
  server = await authTestServer()
})
afterAll(async () => {
  await server?.close()
})
afterEach(async () => {
  await setSettings(db(), { SECURITY_VIEW_AUTH_NEED_MFA: true, SECURITY_MFA_VERIFY_TTL: 3600, SMS_ENABLED: false })
  server.app.smsBackend = logSmsBackend
})

/** Runs the guard against the client's stored session, as a protected endpoint would. */
async function guard(c: TestClient, type: ConfirmType): Promise<unknown> {
  const session = await loadSession(db(), c.jar.get('jms_sessionid'))
  const req = { ctx: { db: db(), session } } as unknown as FastifyRequest
  try {
    await requireConfirm(req, type)
    return 'passed'
  } catch (e) {
    return (e as { statusCode: number; body: unknown }).body
  }
}

let n = 0
async function user(opts: { otp?: boolean; source?: string; phone?: string } = {}) {
  const username = `conf${++n}`
  const id = await server.createUser({ username, password: 'Passw0rd!' })
  if (opts.source) await sql`update users set source = ${opts.source} where id = ${id}`.execute(db())
  if (opts.phone) await sql`update users set phone = ${opts.phone} where id = ${id}`.execute(db())
  const secret = opts.otp ? await bindOtp(server, id) : undefined
  return { username, id, secret, client: await asEnglish(server, username) }
}

describe('GET confirm: the strongest method available, from mfa down to the requested level', () => {
  it('offers password to a local user without MFA, and nothing at mfa level', async () => {
    const c = await asEnglish(server, 'admin')
    for (const t of ['relogin', 'password']) {
      expect((await c.get(`${CONFIRM}?confirm_type=${t}`)).json()).toEqual({ confirm_type: 'password', content: '' })
    }
    const none = await c.get(`${CONFIRM}?confirm_type=mfa`)
    expect(none.statusCode).toBe(404)
    expect(none.json()).toEqual({ error: 'This action require verify your MFA' })
    expect((await c.get(`${CONFIRM}?confirm_type=bogus`)).json()).toEqual({ confirm_type: ['"bogus" is not a valid choice.'] })
    expect((await server.client().get(CONFIRM)).statusCode).toBe(401)
  })

  it('offers MFA to users with OTP, listing disabled methods', async () => {
    const { client } = await user({ otp: true })
    expect((await client.get(`${CONFIRM}?confirm_type=relogin`)).json()).toEqual({
      confirm_type: 'mfa',
      content: [
        { name: 'otp', display_name: 'OTP', disabled: false, placeholder: 'OTP verification code' },
        { name: 'sms', display_name: 'SMS', disabled: true, placeholder: 'SMS verification code' },
      ],
    })
  })

  it('offers relogin to third-party users', async () => {
    const { client } = await user({ source: 'openid' })
    expect((await client.get(`${CONFIRM}?confirm_type=relogin`)).json()).toEqual({ confirm_type: 'relogin', content: '' })
    expect((await client.get(`${CONFIRM}?confirm_type=password`)).statusCode).toBe(404)
  })
})

describe('POST confirm and the guard', () => {
  it('records a password confirmation that satisfies relogin and password, not mfa', async () => {
    const c = englishClient(server)
    await webLogin(c, 'admin', ADMIN_PASSWORD)
    expect(await guard(c, 'relogin')).toEqual({ code: 'relogin', detail: 'This action require confirm current user' })
    const wrong = await c.post(CONFIRM, { confirm_type: 'password', secret_key: encryptFor(c, 'wrong') })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toEqual({ error: 'The password is incorrect' })
    const ok = await c.post(CONFIRM, { confirm_type: 'password', secret_key: encryptFor(c, ADMIN_PASSWORD) })
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['content-type']).toContain('application/json')
    expect(ok.json()).toBe('ok')
    expect(await guard(c, 'relogin')).toBe('passed')
    expect(await guard(c, 'password')).toBe('passed')
    expect(await guard(c, 'mfa')).toEqual({ code: 'mfa', detail: 'This action require confirm current user' })
  })

  it('expires plain confirmations after 300 s and MFA ones after SECURITY_MFA_VERIFY_TTL', async () => {
    const a = await user()
    expect((await a.client.post(CONFIRM, { confirm_type: 'password', secret_key: 'Passw0rd!' })).json()).toBe('ok')
    await patchSession(server, a.client, (d) => { d.confirm.at = Date.now() - 301_000 })
    expect(await guard(a.client, 'password')).toMatchObject({ code: 'password' })

    const b = await user({ otp: true })
    expect((await b.client.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'otp', secret_key: totp(b.secret!) })).json()).toBe('ok')
    await patchSession(server, b.client, (d) => { d.confirm.at = Date.now() - 301_000 })
    expect(await guard(b.client, 'mfa')).toBe('passed') // within the hour
    await setSettings(db(), { SECURITY_MFA_VERIFY_TTL: 60 })
    expect(await guard(b.client, 'mfa')).toMatchObject({ code: 'mfa' })
    expect(await guard(b.client, 'password')).toMatchObject({ code: 'password' })
  })

  it('enforces nothing when SECURITY_VIEW_AUTH_NEED_MFA is off', async () => {
    const c = await asEnglish(server, 'admin')
    await setSettings(db(), { SECURITY_VIEW_AUTH_NEED_MFA: false })
    expect(await guard(c, 'mfa')).toBe('passed')
  })

  it('checks OTP codes and refuses their reuse', async () => {
    const { client, secret } = await user({ otp: true })
    const code = totp(secret!)
    expect((await client.post(CONFIRM, { confirm_type: 'password', secret_key: 'Passw0rd!' })).json())
      .toEqual({ error: 'OTP code invalid, or server time error' }) // MFA is the method for this user
    expect((await client.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'otp', secret_key: code })).json()).toBe('ok')
    expect((await client.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'otp', secret_key: code })).statusCode).toBe(400)
    expect((await client.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'sms', secret_key: '123456' })).json())
      .toEqual({ error: 'Current user not support mfa type: sms' })
  })

  it('confirms relogin only within 5 minutes of the login', async () => {
    const { client } = await user({ source: 'cas' })
    expect((await client.post(CONFIRM, { confirm_type: 'relogin', secret_key: '' })).json()).toBe('ok')
    await patchSession(server, client, (d) => { d.loginAt = Date.now() - 6 * 60_000 })
    const late = await client.post(CONFIRM, { confirm_type: 'relogin', secret_key: '' })
    expect(late.statusCode).toBe(400)
    expect(late.json()).toEqual({ error: 'Login time has exceeded 5 minutes, please login again' })
  })
})

describe('SMS codes', () => {
  it('sends a code through the SMS backend and accepts it once', async () => {
    const sent: { to: string; code: string }[] = []
    const capture: SmsBackend = { name: 'capture', async send(_req, to, code) { sent.push({ to: to.phone, code }) } }
    server.app.smsBackend = capture
    const { client, username } = await user({ phone: '+86 13800138000' })
    expect((await client.post('/api/v1/authentication/mfa/select/', { type: 'sms' })).json())
      .toEqual({ error: 'Current user not support mfa type: sms' })
    await setSettings(db(), { SMS_ENABLED: true })
    expect((await client.get(`${CONFIRM}?confirm_type=mfa`)).json().content[1]).toMatchObject({ name: 'sms', disabled: false })
    const r = await client.post('/api/v1/authentication/mfa/select/', { type: 'sms' })
    expect(r.statusCode).toBe(201)
    expect(r.json()).toEqual({ type: 'sms', username })
    expect(sent).toHaveLength(1)
    expect(sent[0]!.to).toBe('+86 13800138000')
    expect(sent[0]!.code).toMatch(/^\d{6}$/)
    const tooSoon = await client.post('/api/v1/authentication/mfa/send-code/', { type: 'sms' })
    expect(tooSoon.statusCode).toBe(400)
    expect(tooSoon.json().error).toMatch(/^Please wait \d+ seconds before sending$/)
    const wrongCode = sent[0]!.code === '000000' ? '000001' : '000000'
    expect((await client.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'sms', secret_key: wrongCode })).json())
      .toEqual({ error: 'SMS verification code invalid' })
    expect((await client.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'sms', secret_key: sent[0]!.code })).json()).toBe('ok')
    expect((await client.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'sms', secret_key: sent[0]!.code })).statusCode).toBe(400)
  })

  it('the default backend writes the code to the server log', async () => {
    const lines: string[] = []
    const req = { log: { info: (m: string) => lines.push(m) } } as unknown as FastifyRequest
    await logSmsBackend.send(req, { userId: 'x', username: 'alice', phone: '+86 1' }, '123456')
    expect(lines).toEqual(['SMS code for alice: 123456'])
  })

  it('needs a user (logged in, or half-way through a login)', async () => {
    expect((await server.client().post('/api/v1/authentication/mfa/select/', { type: 'sms' })).statusCode).toBe(401)
  })
})
