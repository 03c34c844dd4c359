import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer, englishClient, webLogin } from '../auth/test-support.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { LDAP_SYNC_TASK } from '../settings/declarations.ts'
import { getSecretSetting, invalidateSettingsCache } from '../settings/store.ts'
import { taskRunner } from '../tasks/service.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { startSlapd, type Slapd } from '../testing/slapd.ts'

const SETTING = '/api/v1/settings/setting/?category=ldap'
const BASE = '/api/v1/settings/ldap/'

describe(`LDAP against a real OpenLDAP server (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient
  let slapd: Slapd
  let orgId: string
  const db = () => server.database.db
  const userRow = async (username: string) =>
    (await sql<{ id: string; source: string; name: string; email: string; password_hash: string }>`
      select id, source, name, email, password_hash from users where username = ${username}`.execute(db())).rows[0]
  const inOrg = async (userId: string, org: string) =>
    (await sql`select 1 from role_bindings where user_id = ${userId} and scope = 'org' and org_id = ${org}`.execute(db())).rows.length > 0

  beforeAll(async () => {
    invalidateSettingsCache()
    ;[server, slapd] = await Promise.all([authTestServer(), startSlapd([
      { uid: 'alice', cn: 'Alice Liddell', mail: 'alice@ldap.example.org', password: 'alice-ldap-pw' },
      { uid: 'bob', cn: 'Bob Builder', mail: 'bob@ldap.example.org', password: 'bob-ldap-pw' },
      { uid: 'carol', cn: 'Carol Danvers', password: 'carol-ldap-pw' },
    ])])
    admin = await asEnglish(server, 'admin')
    orgId = (await admin.post('/api/v1/orgs/orgs/', { name: 'Directory people' })).json().id
  }, 60_000)
  afterAll(async () => {
    await slapd?.stop()
    await server?.close()
  })

  const config = () => ({
    AUTH_LDAP_SERVER_URI: slapd.url, AUTH_LDAP_BIND_DN: slapd.adminDn, AUTH_LDAP_SEARCH_OU: slapd.usersOu,
    AUTH_LDAP_SEARCH_FILTER: '(uid=%(user)s)', AUTH_LDAP_USER_ATTR_MAP: { username: 'uid', name: 'cn', email: 'mail' },
  })

  it('saves the LDAP settings with the bind password sealed, refusing bad values on their fields', async () => {
    const bad = await admin.patch(SETTING, {
      AUTH_LDAP_SERVER_URI: 'http://x', AUTH_LDAP_SEARCH_FILTER: 'uid=x', AUTH_LDAP_USER_ATTR_MAP: { name: 'cn' }, AUTH_LDAP_SYNC_CRONTAB: '61 * * * *',
    })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(['AUTH_LDAP_SEARCH_FILTER', 'AUTH_LDAP_SERVER_URI', 'AUTH_LDAP_SYNC_CRONTAB', 'AUTH_LDAP_USER_ATTR_MAP'])
    const r = await admin.patch(SETTING, { ...config(), AUTH_LDAP_BIND_PASSWORD: slapd.adminPassword, AUTH_LDAP_SYNC_ORG_ID: orgId })
    expect(r.statusCode, r.body).toBe(200)
    expect(r.json()).not.toHaveProperty('AUTH_LDAP_BIND_PASSWORD')
    expect(r.json()).toMatchObject({ AUTH_LDAP_SERVER_URI: slapd.url, AUTH_LDAP: false, SECRETS_SET: { AUTH_LDAP_BIND_PASSWORD: true } })
    expect(await getSecretSetting(db(), server.config, 'AUTH_LDAP_BIND_PASSWORD')).toBe(slapd.adminPassword)
    const meta = (await admin.options(SETTING)).json()
    expect(meta.actions.PUT.AUTH_LDAP_BIND_PASSWORD).toMatchObject({ write_only: true })
  })

  it('tests a configuration: matched users, or the failing step', async () => {
    const ok = await admin.post(`${BASE}testing/config/`, config()) // no password typed: the saved one
    expect([ok.statusCode, ok.json()]).toEqual([200, 'Succeed: Match 3 s user'])
    const bind = await admin.post(`${BASE}testing/config/`, { ...config(), AUTH_LDAP_BIND_PASSWORD: 'wrong' })
    expect(bind.statusCode).toBe(400)
    expect(bind.json()).toMatch(/^Error \(Invalid Bind DN or password\): InvalidCredentialsError/)
    const ou = await admin.post(`${BASE}testing/config/`, { ...config(), AUTH_LDAP_SEARCH_OU: 'ou=nowhere,dc=example,dc=org' })
    expect(ou.json()).toMatch(/^Error \(Invalid user OU or user search filter\)/)
    // (another server address needs the bind password typed: the saved one stays with its server, issue 36)
    const down = await admin.post(`${BASE}testing/config/`, { ...config(), AUTH_LDAP_SERVER_URI: 'ldap://127.0.0.1:1', AUTH_LDAP_BIND_PASSWORD: slapd.adminPassword })
    expect(down.json()).toMatch(/^Error \(Invalid LDAP server\): .*ECONNREFUSED/)
    const invalid = await admin.post(`${BASE}testing/config/`, { AUTH_LDAP_SERVER_URI: 'nope' })
    expect(invalid.statusCode).toBe(400)
    expect(JSON.parse(invalid.json().error)).toHaveProperty('AUTH_LDAP_SERVER_URI')
  })

  it('tests a login with the saved configuration', async () => {
    expect((await admin.post(`${BASE}testing/login/`, { username: 'alice', password: 'alice-ldap-pw' })).json()).toBe('Authentication success: alice')
    const wrong = await admin.post(`${BASE}testing/login/`, { username: 'alice', password: 'nope' })
    expect([wrong.statusCode, wrong.json()]).toEqual([400, expect.stringMatching(/^Authentication failed \(username or password incorrect\)/)])
    expect((await admin.post(`${BASE}testing/login/`, { username: 'nobody', password: 'x' })).json()).toMatch(/^Authentication failed \(user not found\)/)
    // a filter value is escaped: "*" matches no one
    expect((await admin.post(`${BASE}testing/login/`, { username: '*', password: 'alice-ldap-pw' })).statusCode).toBe(400)
  })

  it('lists the directory users and imports chosen ones into an organization', async () => {
    const list = (await admin.get(`${BASE}users/`)).json()
    expect(list).toEqual([
      { id: 'alice', username: 'alice', name: 'Alice Liddell', email: 'alice@ldap.example.org', groups: [], existing: false },
      { id: 'bob', username: 'bob', name: 'Bob Builder', email: 'bob@ldap.example.org', groups: [], existing: false },
      { id: 'carol', username: 'carol', name: 'Carol Danvers', email: '', groups: [], existing: false },
    ])
    expect((await admin.get(`${BASE}users/?search=build&limit=10&offset=0`)).json()).toMatchObject({ count: 1, results: [{ username: 'bob' }] })
    const r = await admin.post(`${BASE}users/import/`, { username_list: ['alice'], org_id: orgId })
    expect(r.json()).toEqual({ msg: 'Imported 1 users successfully (Organization: Directory people)' })
    const alice = (await userRow('alice'))!
    expect(alice).toMatchObject({ source: 'ldap', name: 'Alice Liddell', email: 'alice@ldap.example.org', password_hash: '' })
    expect(await inOrg(alice.id, orgId)).toBe(true)
    expect((await admin.get(`${BASE}users/`)).json()[2]).toMatchObject({ username: 'alice', existing: true })
    expect((await admin.get(`/api/v1/users/users/${alice.id}/`, { 'x-jms-org': 'ROOT' })).json().source).toMatchObject({ value: 'ldap' })
  })

  it('never takes over a local user of the same name, and checks the body and the permission', async () => {
    await server.createUser({ username: 'bob' })
    const r = await admin.post(`${BASE}users/import/`, { username_list: ['bob'], org_id: orgId })
    expect([r.statusCode, r.json()]).toEqual([400, { errors: ['User bob exists and is not an LDAP user'] }])
    expect((await userRow('bob'))!.source).toBe('local')
    expect((await admin.post(`${BASE}users/import/`, { username_list: 'bob' })).statusCode).toBe(400)
    expect((await admin.post(`${BASE}users/import/`, { username_list: ['alice'], org_id: ORG_IDS.SYSTEM })).statusCode).toBe(400)
    await server.createUser({ username: 'plain-ldap' })
    const plain = await asEnglish(server, 'plain-ldap')
    for (const [method, url] of [['GET', `${BASE}users/`], ['POST', `${BASE}testing/config/`], ['POST', `${BASE}testing/login/`], ['POST', `${BASE}users/import/`], ['GET', `${BASE}cache/refresh/`]] as const) {
      expect((await plain.request({ method, url, json: method === 'POST' ? {} : undefined })).statusCode, url).toBe(403)
    }
    expect((await admin.get(`${BASE}cache/refresh/`)).json()).toEqual({ msg: 'success' })
  })

  it('logs in with the LDAP password when LDAP is enabled, creating the user in the sync organization', async () => {
    const c = englishClient(server)
    expect((await webLogin(c, 'carol', 'carol-ldap-pw')).statusCode).toBe(400) // LDAP off
    expect((await admin.patch(SETTING, { AUTH_LDAP: true })).statusCode).toBe(200)
    const bad = await webLogin(englishClient(server), 'carol', 'wrong')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('invalid_credentials')
    expect(await userRow('carol')).toBeUndefined()
    const ok = await webLogin(englishClient(server), 'carol', 'carol-ldap-pw')
    expect(ok.statusCode, ok.body).toBe(200)
    const carol = (await userRow('carol'))!
    expect(carol).toMatchObject({ source: 'ldap', name: 'Carol Danvers', email: 'carol@example.com', password_hash: '' })
    expect(await inOrg(carol.id, orgId)).toBe(true)
    // the local administrator and the local "bob" still use their local passwords, not the directory's
    expect((await webLogin(englishClient(server), 'admin', 'Admin-Passw0rd!')).statusCode).toBe(200)
    expect((await webLogin(englishClient(server), 'bob', 'bob-ldap-pw')).statusCode).toBe(400)
    // a password changed in the directory counts at the next login
    await slapd.addUser({ uid: 'dave', cn: 'Dave', password: 'dave-pw-1' })
    expect((await webLogin(englishClient(server), 'dave', 'dave-pw-1')).statusCode).toBe(200)
    await admin.patch(SETTING, { AUTH_LDAP: false })
    expect((await webLogin(englishClient(server), 'dave', 'dave-pw-1')).statusCode).toBe(400)
  })

  it('schedules the periodic import from the settings and imports new directory users when it runs', async () => {
    const row = async () => (await sql<{ enabled: boolean; crontab: string; interval: number | null; next_run_at: Date | null }>`
      select enabled, crontab, "interval", next_run_at from celery_tasks where name = ${LDAP_SYNC_TASK}`.execute(db())).rows[0]!
    expect((await row()).enabled).toBe(false)
    expect((await admin.patch(SETTING, { AUTH_LDAP_SYNC_IS_PERIODIC: true, AUTH_LDAP_SYNC_INTERVAL: 6, AUTH_LDAP_SYNC_CRONTAB: '' })).statusCode).toBe(200)
    const hourly = await row()
    expect(hourly).toMatchObject({ enabled: true, crontab: '', interval: 6 })
    expect(hourly.next_run_at!.getTime() - Date.now()).toBeGreaterThan(5.9 * 3_600_000)
    expect((await admin.patch(SETTING, { AUTH_LDAP_SYNC_CRONTAB: '5 3 * * 0', AUTH_LDAP: true })).statusCode).toBe(200)
    expect(await row()).toMatchObject({ enabled: true, crontab: '5 3 * * 0', interval: null })

    await slapd.addUser({ uid: 'erin', cn: 'Erin Hunt', mail: 'erin@ldap.example.org', password: 'erin-pw' })
    // the schedule comes due: the runner fires it and the import runs
    await sql`update celery_tasks set next_run_at = now() - interval '1 minute' where name = ${LDAP_SYNC_TASK}`.execute(db())
    const fired = await taskRunner(server.app)!.fireDue()
    expect(fired).toHaveLength(1)
    let state = ''
    for (let i = 0; i < 200 && !['SUCCESS', 'FAILURE'].includes(state); i++) {
      await new Promise((r) => setTimeout(r, 100))
      state = (await sql<{ state: string }>`select state from task_executions where id = ${fired[0]!}`.execute(db())).rows[0]!.state
    }
    expect(state).toBe('SUCCESS')
    const erin = (await userRow('erin'))!
    expect(erin).toMatchObject({ source: 'ldap', name: 'Erin Hunt' })
    expect(await inOrg(erin.id, orgId)).toBe(true)
    expect((await userRow('bob'))!.source).toBe('local') // still not taken over
    await admin.patch(SETTING, { AUTH_LDAP_SYNC_IS_PERIODIC: false, AUTH_LDAP: false })
    expect((await row()).enabled).toBe(false)
  })
})
