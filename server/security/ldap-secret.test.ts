/**
 * Issue 36 point 7: the stored LDAP bind password goes only to the server it was saved for. Testing a configuration
 * with another server address, or saving one, needs the password typed again; an attacker's listener receives
 * nothing. The saved configuration is a real OpenLDAP server.
 */
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer } from '../auth/test-support.ts'
import { invalidateSettingsCache } from '../settings/store.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { startSlapd, type Slapd } from '../testing/slapd.ts'

const SETTING = '/api/v1/settings/setting/?category=ldap'
const TEST = '/api/v1/settings/ldap/testing/config/'

describe(`the LDAP bind password stays with its server (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  let slapd: Slapd
  let trap: Server
  let trapUrl: string
  const received: Buffer[] = []

  beforeAll(async () => {
    invalidateSettingsCache()
    ;[t, slapd] = await Promise.all([authTestServer(), startSlapd([{ uid: 'alice', cn: 'Alice', password: 'alice-ldap-pw' }])])
    admin = await asEnglish(t, 'admin')
    // The attacker's "LDAP server": it keeps whatever it is sent, then hangs up.
    trap = createServer((s) => s.on('data', (d) => {
      received.push(d)
      s.destroy()
    }))
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve))
    trapUrl = `ldap://127.0.0.1:${(trap.address() as { port: number }).port}`
    const saved = await admin.patch(SETTING, {
      AUTH_LDAP_SERVER_URI: slapd.url, AUTH_LDAP_BIND_DN: slapd.adminDn, AUTH_LDAP_BIND_PASSWORD: slapd.adminPassword,
      AUTH_LDAP_SEARCH_OU: slapd.usersOu, AUTH_LDAP_SEARCH_FILTER: '(uid=%(user)s)', AUTH_LDAP_USER_ATTR_MAP: { username: 'uid', name: 'cn', email: 'mail' },
    })
    expect(saved.statusCode, saved.body).toBe(200)
  }, 60_000)
  afterAll(async () => {
    trap?.close()
    await slapd?.stop()
    await t?.close()
  })

  const typed = (over: Record<string, unknown> = {}) => ({
    AUTH_LDAP_SERVER_URI: slapd.url, AUTH_LDAP_BIND_DN: slapd.adminDn, AUTH_LDAP_SEARCH_OU: slapd.usersOu,
    AUTH_LDAP_SEARCH_FILTER: '(uid=%(user)s)', AUTH_LDAP_USER_ATTR_MAP: { username: 'uid', name: 'cn' }, AUTH_LDAP_CONNECT_TIMEOUT: 3, ...over,
  })

  it('the saved server is tested with the saved password', async () => {
    const r = await admin.post(TEST, typed())
    expect(r.statusCode, r.body).toBe(200)
  })

  it('another server address without a typed password is refused before connecting (point 7)', async () => {
    const r = await admin.post(TEST, typed({ AUTH_LDAP_SERVER_URI: trapUrl }))
    expect(r.statusCode).toBe(400)
    expect(JSON.parse(r.json().error)).toEqual({ AUTH_LDAP_BIND_PASSWORD: ['The server address changed: enter the bind password again.'] })
    expect(Buffer.concat(received).toString('latin1')).not.toContain(slapd.adminPassword)
    expect(received).toHaveLength(0)
    // A typed password goes where the admin sends it (their own choice).
    const own = await admin.post(TEST, typed({ AUTH_LDAP_SERVER_URI: trapUrl, AUTH_LDAP_BIND_PASSWORD: 'typed-now' }))
    expect(own.statusCode).toBe(400)
    expect(Buffer.concat(received).toString('latin1')).toContain('typed-now')
  })

  it('saving another server address needs the password again (point 7)', async () => {
    const r = await admin.patch(SETTING, { AUTH_LDAP_SERVER_URI: trapUrl })
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({ AUTH_LDAP_BIND_PASSWORD: ['The server address changed: enter the bind password again.'] })
    expect((await admin.get(SETTING)).json().AUTH_LDAP_SERVER_URI).toBe(slapd.url)
    const ok = await admin.patch(SETTING, { AUTH_LDAP_SERVER_URI: slapd.url.replace('127.0.0.1', 'localhost'), AUTH_LDAP_BIND_PASSWORD: slapd.adminPassword })
    expect(ok.statusCode, ok.body).toBe(200)
  })
})
