import { sql } from 'kysely'
import { startSmtp } from '../../testing/smtp.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptSecret } from '../../../src/api/crypto.ts'
import { verifyPassword } from '../../auth/password.ts'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { setSettings } from '../../settings/store.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../../testing.ts'

const USERS = '/api/v1/users/users/'
const OTHER_ORG = '00000000-0000-0000-0000-0000000000aa'

describe(`users resource (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  const db = () => t.database.db

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    await sql`insert into organizations (id, name) values (${OTHER_ORG}, 'Other')`.execute(db())
  })
  afterAll(async () => { await t.close() })

  const create = (body: Record<string, unknown>, c = admin) => c.post(USERS, { name: body.username, email: `${String(body.username)}@example.com`, ...body })

  it('creates a user who joins the current org with the default roles and a reset link', async () => {
    const r = await create({ username: 'dora' })
    expect(r.statusCode).toBe(201)
    const u = r.json()
    expect(u).toMatchObject({
      username: 'dora', source: { value: 'local', label: 'Local' }, mfa_level: { value: 0, label: 'Disable' },
      system_roles: [{ id: ROLE_IDS.User, display_name: 'User' }],
      org_roles: [{ id: ROLE_IDS.OrgUser, display_name: 'OrgUser', name: 'OrgUser' }],
      is_valid: true, is_expired: false, is_first_login: true, login_blocked: false, phone: null,
    })
    expect(u).not.toHaveProperty('password')
    expect(u).not.toHaveProperty('password_strategy')
    expect(u.date_expired.slice(0, 4) - new Date().getFullYear()).toBeGreaterThanOrEqual(69)
    const tokens = await sql<{ n: number }>`select count(*)::int as n from password_reset_tokens where user_id = ${u.id}`.execute(db())
    expect(tokens.rows[0]!.n).toBe(1)
    expect((await admin.get(`${USERS}?username=dora`)).json()).toHaveLength(1)
    expect((await admin.get(`${USERS}?username=dora`, { 'x-jms-org': OTHER_ORG })).json()).toHaveLength(0)
    expect((await admin.get(`${USERS}?username=dora`, { 'x-jms-org': 'ROOT' })).json()).toHaveLength(1)
  })

  it('sets a custom password (hybrid-encrypted or plain) under the password rules', async () => {
    const missing = await create({ username: 'eve', password_strategy: 'custom' })
    expect(missing.json()).toEqual({ password: ['This field is required.'] })
    const short = await create({ username: 'eve', password_strategy: 'custom', password: 'abc' })
    expect(short.json()).toEqual({ password: ['Password must be at least 6 characters long'] })
    // a page response gives the session its RSA key, as the console's session has
    await admin.get('/ui/')
    const cipher = encryptSecret('Str0ng-secret', admin.jar.get('jms_public_key'))
    const ok = await create({ username: 'eve', password_strategy: 'custom', password: cipher })
    expect(ok.statusCode).toBe(201)
    const hash = (await sql<{ password_hash: string }>`select password_hash from users where username = 'eve'`.execute(db())).rows[0]!.password_hash
    expect(await verifyPassword('Str0ng-secret', hash)).toBe(true)
    const plain = await admin.patch(`${USERS}${ok.json().id}/`, { password: 'plain-secret-2' })
    expect(plain.statusCode).toBe(200)
    const hash2 = (await sql<{ password_hash: string }>`select password_hash from users where username = 'eve'`.execute(db())).rows[0]!.password_hash
    expect(await verifyPassword('plain-secret-2', hash2)).toBe(true)
    const diff = (await admin.get((await admin.get(`/api/v1/audits/activities/?resource_id=${ok.json().id}`)).json()[0].detail_url)).json().diff
    expect(diff).toEqual([{ field: 'Password', before: '******', after: '******' }])
    expect(JSON.stringify(diff)).not.toContain('plain-secret')
  })

  it('refuses bad values with field errors (types, choices, emails, duplicates, keys, phones)', async () => {
    const r = await create({ username: 'dora', email: 'not-an-email', mfa_level: 9, is_active: 'maybe', groups: ['00000000-1111-2222-3333-444444444444'], date_expired: 'soon' })
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({
      username: ['This field must be unique.'],
      email: ['Enter a valid email address.'],
      mfa_level: ['"9" is not a valid choice.'],
      is_active: ['Must be a valid boolean.'],
      groups: ['Invalid pk "00000000-1111-2222-3333-444444444444" - object does not exist.'],
      date_expired: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].'],
    })
    expect((await create({ username: 'fay', public_key: 'ssh-rsa nope' })).json()).toEqual({ public_key: ['Not a valid ssh public key'] })
    expect((await create({ username: 'fay', phone: 'call me' })).json()).toEqual({ phone: ['Enter a valid phone number.'] })
    expect((await create({ username: 'fay', phone: true })).json()).toEqual({ phone: ['Enter a valid phone number.'] })
    const obj = await create({ username: 'phoebe', phone: { code: '+81', phone: '9012345678' } })
    expect(obj.json().phone).toEqual({ code: '+81', phone: 9012345678 })
    expect((await admin.patch(`${USERS}${obj.json().id}/`, { phone: '' })).json().phone).toBeNull()
    expect((await create({ username: 'fay', system_roles: [ROLE_IDS.OrgAdmin] })).json()).toEqual({ system_roles: [`Invalid pk "${ROLE_IDS.OrgAdmin}" - object does not exist.`] })
    const ok = await create({ username: 'fay', phone: '+86 138 0013 8000', mfa_level: { value: 1, label: 'x' }, is_active: 'false', date_expired: '2030-01-02T03:04:05Z' })
    expect(ok.statusCode).toBe(201)
    expect(ok.json()).toMatchObject({ phone: { code: '+86', phone: 13800138000 }, mfa_level: { value: 1 }, is_active: false, mfa_enabled: true, date_expired: '2030/01/02 11:04:05 +0800' })
  })

  it('ignores writes to read-only fields', async () => {
    const r = await create({ username: 'gil', is_first_login: false, date_joined: '2000-01-01T00:00:00Z', login_blocked: true, is_valid: false, created_by: 'me', wecom_id: 'w' })
    expect(r.statusCode).toBe(201)
    expect(r.json()).toMatchObject({ is_first_login: true, login_blocked: false, is_valid: true, created_by: 'Administrator(admin)', wecom_id: null })
    expect(r.json().date_joined.startsWith('2000')).toBe(false)
  })

  it('searches username, email and name, filters by roles and orders by name by default', async () => {
    await create({ username: 'zed', name: 'Aaron Zed', email: 'zed@corp.test' })
    const names = async (q: string) => ((await admin.get(`${USERS}?${q}`)).json() as { username: string }[]).map((u) => u.username)
    expect(await names('search=corp.test')).toEqual(['zed'])
    expect(await names('search=AARON')).toEqual(['zed'])
    expect((await names('')).slice(0, 1)).toEqual(['zed'])
    expect(await names('org_roles=OrgUser&search=zed')).toEqual(['zed'])
    expect(await names(`system_roles=${ROLE_IDS.User}&search=zed`)).toEqual(['zed'])
    expect(await names('system_roles=SystemAdmin&search=zed')).toEqual([])
    expect(await names('is_active=false')).toEqual(['fay'])
    expect(await names('source=ldap')).toEqual([])
  })

  it('hides the role fields without binding permissions and still binds the default roles', async () => {
    const orgAdmin = await t.createUser({ username: 'oa', orgRoles: [ROLE_IDS.OrgAdmin] })
    expect(orgAdmin).toBeTruthy()
    const c = await t.as('oa')
    c.headers['accept-language'] = 'en'
    const meta = (await c.options(USERS)).json()
    expect(meta.actions.POST).not.toHaveProperty('system_roles')
    expect(meta.actions.GET).not.toHaveProperty('org_roles')
    const r = await create({ username: 'hal', system_roles: [ROLE_IDS.SystemAdmin] }, c)
    expect(r.statusCode).toBe(201)
    expect(r.json()).not.toHaveProperty('system_roles')
    const roles = await sql<{ role_id: string }>`select role_id from role_bindings where user_id = ${r.json().id} order by role_id`.execute(db())
    expect(roles.rows.map((x) => x.role_id)).toEqual([ROLE_IDS.User, ROLE_IDS.OrgUser])
    // deleting users is a system permission: org admins get 403, the admin 204
    expect((await c.delete(`${USERS}${r.json().id}/`)).statusCode).toBe(403)
    expect((await admin.delete(`${USERS}${r.json().id}/`)).statusCode).toBe(204)
  })

  it('refuses to delete the admin user or yourself', async () => {
    const me = (await admin.get(`${USERS}?username=admin`, { 'x-jms-org': 'ROOT' })).json()[0]
    const r = await admin.delete(`${USERS}${me.id}/`, { 'x-jms-org': 'ROOT' })
    expect(r.statusCode).toBe(403)
    expect(r.json().detail).toBe('The admin user cannot be deleted')
  })

  it('suggests the first 10 matching users (mini) across organizations', async () => {
    for (let i = 0; i < 12; i++) await t.createUser({ username: `sugg${i}`, orgId: OTHER_ORG })
    const r = await admin.get(`${USERS}suggestions/?search=sugg`)
    expect(r.statusCode).toBe(200)
    expect(r.json()).toHaveLength(10)
    expect(Object.keys(r.json()[0])).toEqual(['id', 'name', 'username'])
    const plain = await t.as('sugg0')
    expect((await plain.get(`${USERS}suggestions/`, { 'x-jms-org': OTHER_ORG })).statusCode).toBe(200) // OrgUser holds users.match_user
    expect((await plain.get(`${USERS}suggestions/`)).statusCode).toBe(403) // not a member of DEFAULT
  })

  it('invites users into the current org and removes them again (one or by spm)', async () => {
    const ids = (await admin.get(`${USERS}?search=sugg1`, { 'x-jms-org': 'ROOT' })).json().map((u: { id: string }) => u.id)
    expect(ids.length).toBeGreaterThanOrEqual(3)
    const bad = await admin.post(`${USERS}invite/`, { users: ids, org_roles: [ROLE_IDS.SystemAdmin] })
    expect(bad.json()).toEqual({ org_roles: [`Invalid pk "${ROLE_IDS.SystemAdmin}" - object does not exist.`] })
    const inv = await admin.post(`${USERS}invite/`, { users: ids, org_roles: [ROLE_IDS.OrgAuditor] })
    expect(inv.statusCode).toBe(201)
    expect((await admin.get(`${USERS}?search=sugg1`)).json()).toHaveLength(ids.length)
    expect((await admin.post(`${USERS}${ids[0]}/remove/`)).statusCode).toBe(204)
    const spm = (await admin.post('/api/v1/common/resources/cache/', { resources: ids.slice(1) })).json().spm
    expect((await admin.post(`${USERS}remove/?spm=${spm}`)).statusCode).toBe(204)
    expect((await admin.get(`${USERS}?search=sugg1`)).json()).toHaveLength(0)
    expect((await admin.get(`${USERS}?search=sugg1`, { 'x-jms-org': 'ROOT' })).json()).toHaveLength(ids.length)
    expect((await admin.post(`${USERS}remove/`)).statusCode).toBe(400)
  })

  it('resets MFA, public key, password (link) and unblocks logins', async () => {
    const u = (await create({ username: 'ivy', public_key: '' })).json()
    await sql`update users set otp_secret = 'JBSWY3DPEHPK3PXP', public_key = 'ssh-ed25519 AAAA' where id = ${u.id}`.execute(db())
    await sql`insert into login_failures (key, count, blocked_until, username) values ('pair:10.0.0.1 ivy', 9, now() + interval '1 hour', 'ivy')`.execute(db())
    const before = (await admin.get(`${USERS}${u.id}/`)).json()
    expect(before).toMatchObject({ is_otp_secret_key_bound: true, can_public_key_auth: true, login_blocked: true })
    expect((await admin.put(`${USERS}${u.id}/mfa/reset/`)).json()).toEqual({ msg: 'success' })
    expect((await admin.put(`${USERS}${u.id}/pubkey/reset/`)).json()).toMatchObject({ can_public_key_auth: false })
    expect((await admin.put(`${USERS}${u.id}/unblock/`)).json()).toMatchObject({ login_blocked: false, is_otp_secret_key_bound: false })
    const noMail = await admin.put(`${USERS}${u.id}/password/reset/`)
    expect(noMail.statusCode).toBe(400) // no mail server: no claim that a mail went out (issue 17)
    expect(noMail.json()).toMatchObject({ code: 'email_not_configured' })
    const smtp = await startSmtp() // a real mail server receives the link (server/mail/mail.test.ts checks the mail)
    await setSettings(db(), { EMAIL_HOST: smtp.host, EMAIL_PORT: String(smtp.port) })
    expect((await admin.put(`${USERS}${u.id}/password/reset/`)).statusCode).toBe(200)
    expect((await smtp.next(u.email)).subject).toContain('Reset password')
    await setSettings(db(), { EMAIL_HOST: '', EMAIL_PORT: '25' })
    await smtp.stop()
    const tokens = await sql<{ n: number }>`select count(*)::int as n from password_reset_tokens where user_id = ${u.id}`.execute(db())
    expect(tokens.rows[0]!.n).toBe(2)
    expect((await admin.put(`${USERS}00000000-1111-2222-3333-444444444444/mfa/reset/`)).statusCode).toBe(404)
  })

  it('bulk-updates users and refuses deleting the whole member list', async () => {
    const list = (await admin.get(`${USERS}?search=sugg`, { 'x-jms-org': 'ROOT' })).json() as { id: string }[]
    const r = await admin.patch(USERS, list.slice(0, 2).map((u) => ({ id: u.id, comment: 'bulk' })), { 'x-jms-org': 'ROOT' })
    expect(r.statusCode).toBe(200)
    expect(r.json().map((u: { comment: string }) => u.comment)).toEqual(['bulk', 'bulk'])
    expect((await admin.delete(USERS)).statusCode).toBe(400)
    const spm = (await admin.post('/api/v1/common/resources/cache/', { resources: [list[5]!.id] })).json().spm
    expect((await admin.delete(`${USERS}?spm=${spm}`, { 'x-jms-org': 'ROOT' })).statusCode).toBe(204)
  })

  it('exports users without avatar_url and with role names', async () => {
    const csv = (await admin.get(`${USERS}?format=csv&username=dora`)).rawPayload.toString('utf8')
    const [header, row] = csv.slice(1).trim().split('\r\n')
    expect(header).toContain('*Username')
    expect(header).not.toContain('Avatar')
    expect(row).toContain('"[""OrgUser(00000000-0000-0000-0000-000000000007)""]"')
    expect(ORG_IDS.DEFAULT).toBeTruthy()
  })
})
