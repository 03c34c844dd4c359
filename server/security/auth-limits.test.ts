/**
 * Issue 16 points 7 and 11: failed confirmations are limited on their own (never locking the login), an empty
 * secret is a 400; datetimes at the end of time; the current organization of other organizations; the per-IP
 * login limit.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_IP_LIMIT } from '../auth/limits.ts'
import { formatDateTime } from '../http/datetime.ts'
import { setSettings } from '../settings/store.ts'
import { createTestServer, dbKind, type TestServer } from '../testing.ts'
import { makeWorld, type World } from './fixtures.ts'

const PW = 'Str0ng-Passw0rd!'
const CONFIRM = '/api/v1/authentication/confirm/'

describe(`confirmations, organizations, limits (${dbKind()})`, () => {
  let t: TestServer
  let w: World

  beforeAll(async () => {
    t = await createTestServer()
    w = await makeWorld(t)
  })
  afterAll(async () => { await t.close() })

  const tokenLogin = (username: string, password: string, ip = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', payload: { username, password }, remoteAddress: ip, headers: { 'accept-language': 'en' } })

  it('empty confirmations are a 400 and count nothing; failed ones never lock the login (point 7)', async () => {
    await t.createUser({ username: 'confirmer', password: PW })
    const c = await t.as('confirmer')
    c.headers['accept-language'] = 'en'
    for (let i = 0; i < 10; i++) {
      const r = await c.post(CONFIRM, {})
      expect(r.statusCode).toBe(400)
      expect(r.json()).toEqual({ secret_key: ['This field is required.'] })
      expect((await c.post(CONFIRM, { secret_key: '' })).json()).toEqual({ secret_key: ['This field may not be blank.'] })
    }
    for (let i = 0; i < 10; i++) expect((await c.post(CONFIRM, { confirm_type: 'password', secret_key: 'wrong' })).statusCode).toBe(400)
    const blocked = await c.post(CONFIRM, { confirm_type: 'password', secret_key: PW })
    expect(blocked.statusCode).toBe(400)
    expect(blocked.json().error).toMatch(/^Too many failed confirmations, please try again after \d+ minutes$/)
    // The login is untouched.
    expect((await tokenLogin('confirmer', PW)).statusCode).toBe(201)
    const keys = (await sql<{ key: string }>`select key from login_failures where blocked_until > now()`.execute(t.database.db)).rows.map((r) => r.key)
    expect(keys).toEqual(['confirm:confirmer'])
  })

  it('9999-12-31T23:59:59Z is shown within year 9999 in every zone (point 11)', () => {
    const end = new Date('9999-12-31T23:59:59Z')
    expect(formatDateTime(end, 'Asia/Shanghai')).toBe('9999/12/31 23:59:59 +0800')
    expect(formatDateTime(end, 'UTC')).toBe('9999/12/31 23:59:59 +0000')
    expect(formatDateTime(end, 'America/New_York')).toBe('9999/12/31 18:59:59 -0500')
  })

  it('/orgs/orgs/current/ names only organizations the user may see (point 11)', async () => {
    const member = await w.as('member')
    const cur = (org: string) => member.get(`/api/v1/orgs/orgs/current/?oid=${org}`).then((r) => r.json())
    expect((await cur(w.acme)).name).toBe('Acme')
    for (const foreign of [w.other, 'Other', 'ROOT']) {
      const r = await cur(foreign)
      expect(r.name, foreign).toBe('DEFAULT')
      expect(JSON.stringify(r)).not.toContain('Other')
    }
    const admin = await w.as('admin')
    expect((await admin.get(`/api/v1/orgs/orgs/current/?oid=${w.other}`)).json().name).toBe('Other')
    const auditor = await w.as('sysAuditor')
    expect((await auditor.get('/api/v1/orgs/orgs/current/?oid=Other')).json().name).toBe('Other')
  })

  it('the per-IP login limit follows the Security setting and blocks unknown usernames only (point 11; issue 36 point 8)', async () => {
    // JumpServer's default again (issue 36): the address limit no longer blocks existing users, so it need not be low.
    expect(DEFAULT_IP_LIMIT).toBe(99999)
    await setSettings(t.database.db, { SECURITY_LOGIN_IP_LIMIT_COUNT: 3, SECURITY_LOGIN_IP_LIMIT_TIME: 30 })
    for (let i = 0; i < 3; i++) expect((await tokenLogin(`nobody${i}`, 'wrong', '198.51.100.7')).statusCode).toBe(400)
    const r = await tokenLogin('nobody-else', 'wrong', '198.51.100.7')
    expect(r.statusCode).toBe(400)
    expect(r.json().code).toBe('ip_blocked')
    expect((await tokenLogin('confirmer', PW, '198.51.100.7')).statusCode).toBe(201)
    expect((await tokenLogin('nobody-else', 'wrong', '198.51.100.8')).json().code).toBe('invalid_credentials')
  })
})
