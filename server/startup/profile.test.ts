import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer, encryptFor, englishClient, webLogin } from '../auth/test-support.ts'
import { totp } from '../auth/totp.ts'
import { ORG_IDS, ROLE_IDS } from '../rbac/catalog.ts'
import { setSettings } from '../settings/store.ts'
import { ADMIN_PASSWORD, type TestServer } from '../testing.ts'

let server: TestServer
const db = () => server.database.db
const PROFILE = '/api/v1/users/profile/'
const PASSWORD_URL = '/api/v1/users/profile/password/'
const DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/
const ROOT = ORG_IDS.ROOT
const DEFAULT = ORG_IDS.DEFAULT
const ORG2 = '0a900000-0000-4000-8000-000000000002'
const ref = (id: string, name: string) => ({ id, name, is_default: id === DEFAULT, is_root: id === ROOT })

beforeAll(async () => {
  server = await authTestServer()
  await sql`insert into organizations (id, name) values (${ORG2}, 'Zeta')`.execute(db())
})
afterAll(async () => {
  await server?.close()
})
afterEach(async () => {
  await setSettings(db(), { SECURITY_MFA_AUTH: 0, SECURITY_PASSWORD_MIN_LENGTH: 6, SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH: 6, SECURITY_PASSWORD_UPPER_CASE: false, OLD_PASSWORD_HISTORY_LIMIT_COUNT: 5 })
})

describe('profile document', () => {
  it('has the fields of the contract with labeled choices and wire datetimes', async () => {
    const c = await asEnglish(server, 'admin')
    c.headers['x-tz'] = 'UTC'
    const p = (await c.get(PROFILE)).json()
    for (const key of ['id', 'name', 'username', 'email', 'wechat', 'phone', 'mfa_level', 'source', 'wecom_id', 'dingtalk_id', 'feishu_id',
      'created_by', 'updated_by', 'comment', 'date_expired', 'date_joined', 'last_login', 'date_updated', 'is_service_account', 'is_valid',
      'is_expired', 'is_active', 'is_otp_secret_key_bound', 'can_public_key_auth', 'mfa_enabled', 'need_update_password', 'mfa_force_enabled',
      'is_first_login', 'date_password_last_updated', 'avatar_url', 'groups', 'system_roles', 'org_roles', 'login_blocked', 'password_strategy',
      'public_key_comment', 'public_key_hash_md5', 'guide_url', 'receive_backends', 'console_orgs', 'audit_orgs', 'workbench_orgs', 'perms']) {
      expect(p, key).toHaveProperty(key)
    }
    expect(p).not.toHaveProperty('password')
    expect(p).not.toHaveProperty('public_key')
    expect(p).not.toHaveProperty('password_hash')
    expect(p.mfa_level).toEqual({ value: 0, label: 'Disable' })
    expect(p.source).toEqual({ value: 'local', label: 'Local' })
    expect(p.system_roles).toEqual([{ id: ROLE_IDS.SystemAdmin, display_name: 'SystemAdmin' }])
    expect(p.date_joined).toMatch(DATETIME)
    expect(p.date_joined.endsWith('+0000')).toBe(true)
    c.headers['x-tz'] = 'Asia/Tokyo'
    expect((await c.get(PROFILE)).json().date_joined.endsWith('+0900')).toBe(true)
    expect((await englishClient(server).get(PROFILE)).statusCode).toBe(401)
  })

  it('gives the administrator every org with ROOT first, and all permissions', async () => {
    const p = (await (await asEnglish(server, 'admin')).get(PROFILE)).json()
    expect(p.console_orgs).toEqual([ref(ROOT, 'GLOBAL'), ref(DEFAULT, 'DEFAULT'), ref(ORG2, 'Zeta')])
    expect(p.audit_orgs).toEqual(p.console_orgs)
    // the administrator is OrgAdmin of DEFAULT from the first start (JumpServer's own seed), so it joined DEFAULT
    expect(p.workbench_orgs).toEqual([ref(DEFAULT, 'DEFAULT')])
    expect(p.perms).toEqual([...p.perms].sort())
    expect(p.perms).toEqual(expect.arrayContaining(['rbac.view_console', 'settings.change_license', 'users.view_user', 'orgs.view_rootorg']))
  })

  it('gives an OrgUser its workbench organizations only', async () => {
    const id = await server.createUser({ username: 'worker', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgUser] })
    await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (gen_random_uuid(), ${id}, ${ROLE_IDS.OrgUser}, 'org', ${ORG2})`.execute(db())
    const c = await asEnglish(server, 'worker')
    const p = (await c.get(PROFILE)).json()
    expect(p.console_orgs).toEqual([])
    expect(p.audit_orgs).toEqual([])
    expect(p.workbench_orgs).toEqual([ref(ROOT, 'All organizations'), ref(DEFAULT, 'DEFAULT'), ref(ORG2, 'Zeta')])
    expect(p.perms).toContain('rbac.view_workbench')
    expect(p.perms).not.toContain('rbac.view_console')
    expect(p.org_roles).toEqual([{ id: ROLE_IDS.OrgUser, display_name: 'OrgUser', name: 'OrgUser' }])
    expect(p.system_roles).toEqual([{ id: ROLE_IDS.User, display_name: 'User' }])
  })

  it('gives a user without org roles no organization at all', async () => {
    await server.createUser({ username: 'loner', systemRoles: [ROLE_IDS.User], orgRoles: [] })
    const p = (await (await asEnglish(server, 'loner')).get(PROFILE)).json()
    expect([p.console_orgs, p.audit_orgs, p.workbench_orgs, p.org_roles]).toEqual([[], [], [], []])
    expect(p.perms).toContain('tickets.view_ticket')
    expect(p.perms).not.toContain('rbac.view_workbench')
  })

  it('counts only system bindings in ROOT', async () => {
    await server.createUser({ username: 'orgadmin', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgAdmin] })
    const c = await asEnglish(server, 'orgadmin')
    const inDefault = (await c.get(PROFILE)).json()
    expect(inDefault.perms).toContain('assets.view_asset')
    expect(inDefault.console_orgs).toEqual([ref(DEFAULT, 'DEFAULT')])
    const inRoot = (await c.get(PROFILE, { 'x-jms-org': 'ROOT' })).json()
    expect(inRoot.perms).not.toContain('assets.view_asset')
    expect(inRoot.perms).toContain('tickets.view_ticket')
    expect(inRoot.org_roles).toEqual([])
    const inOrg2 = (await c.get(`${PROFILE}?oid=${ORG2}`)).json()
    expect(inOrg2.perms).not.toContain('assets.view_asset')
  })

  it('translates role names and labels', async () => {
    const c = await server.as('admin')
    c.headers['accept-language'] = 'ja'
    const p = (await c.get(PROFILE)).json()
    expect(p.system_roles[0].display_name).toBe('システム管理者')
    expect(p.mfa_level.label).toBe('無効')
  })
})

describe('profile updates', () => {
  it('changes the writable fields and ignores read-only ones', async () => {
    const id = await server.createUser({ username: 'editor' })
    const c = await asEnglish(server, 'editor')
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop'
    const r = await c.patch(PROFILE, { name: ' Editor One ', phone: '+86 138-0013-8000', wechat: 'ed1', comment: 'hello', public_key: key, username: 'hacker', is_active: false })
    expect(r.statusCode).toBe(200)
    const p = r.json()
    expect(p).toMatchObject({ name: 'Editor One', username: 'editor', is_active: true, wechat: 'ed1', comment: 'hello', phone: { code: '+86', phone: 13800138000 } })
    expect(p.public_key_comment).toBe('alice@laptop')
    expect(p.public_key_hash_md5).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/)
    expect(p.updated_by).toBe('editor')
    const row = await sql<{ public_key: string }>`select public_key from users where id = ${id}`.execute(db())
    expect(row.rows[0]!.public_key).toBe(key)
  })

  it('answers bad values with field errors and writes nothing', async () => {
    await server.createUser({ username: 'picky' })
    const c = await asEnglish(server, 'picky')
    const r = await c.patch(PROFILE, {
      name: '', email: 'not-an-email', phone: '12', public_key: 'ssh-rsa AAAA', mfa_level: 2, is_first_login: true, wechat: 'x'.repeat(129), comment: 'ok',
    })
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({
      name: ['This field may not be blank.'],
      email: ['Enter a valid email address.'],
      phone: ['Enter a valid phone number.'],
      public_key: ['Not a valid ssh public key'],
      mfa_level: ['"2" is not a valid choice.'],
      is_first_login: ['This field can only be set to false'],
      wechat: ['Ensure this field has no more than 128 characters.'],
    })
    expect((await c.get(PROFILE)).json().comment).toBe('')
    expect((await c.patch(PROFILE, { email: 'ADMIN@example.com' })).json()).toEqual({ email: ['This field must be unique.'] })
    expect((await c.put(PROFILE, { comment: 'x' })).json()).toEqual({ name: ['This field is required.'], email: ['This field is required.'] })
    expect((await c.request({ method: 'PATCH', url: PROFILE, json: [1, 2] })).json()).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] })
  })

  it('turns first login off and MFA on/off, unless MFA is forced', async () => {
    await server.createUser({ username: 'newbie' })
    await sql`update users set is_first_login = true where username = 'newbie'`.execute(db())
    const c = await asEnglish(server, 'newbie')
    expect((await c.patch(PROFILE, { is_first_login: false, mfa_level: { value: 1, label: 'Enable' } })).json())
      .toMatchObject({ is_first_login: false, mfa_level: { value: 1 }, mfa_enabled: true, mfa_force_enabled: false })
    await setSettings(db(), { SECURITY_MFA_AUTH: 1 })
    expect((await c.patch(PROFILE, { mfa_level: 0 })).json()).toEqual({ mfa_level: ['MFA is forced by the administrator and cannot be disabled'] })
    expect((await c.get(PROFILE)).json().mfa_force_enabled).toBe(true)
    await setSettings(db(), { SECURITY_MFA_AUTH: 2 }) // administrators only
    expect((await c.patch(PROFILE, { mfa_level: 0 })).json().mfa_level.value).toBe(0)
    expect((await (await asEnglish(server, 'admin')).get(PROFILE)).json().mfa_force_enabled).toBe(true)
  })
})

describe('password change', () => {
  async function user(name: string, password = 'Old-pass1') {
    await server.createUser({ username: name, password })
    await sql`update users set need_update_password = true where username = ${name}`.execute(db())
    return asEnglish(server, name)
  }
  const change = (old_password: string, new_password: string, again = new_password) => ({ old_password, new_password, new_password_again: again })

  it('checks the old password, the rules and the confirmation', async () => {
    const c = await user('pw1')
    await setSettings(db(), { SECURITY_PASSWORD_MIN_LENGTH: 8, SECURITY_PASSWORD_UPPER_CASE: true })
    const r = await c.put(PASSWORD_URL, change('wrong', 'short', 'other'))
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({
      old_password: ['The old password is incorrect'],
      new_password: ['Password must be at least 8 characters long', 'Password must contain an uppercase letter'],
      new_password_again: ['The newly set password is inconsistent'],
    })
    expect((await c.put(PASSWORD_URL, {})).json()).toEqual({
      old_password: ['This field is required.'], new_password: ['This field is required.'], new_password_again: ['This field is required.'],
    })
  })

  it('uses the administrator minimum for SystemAdmin holders', async () => {
    await setSettings(db(), { SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH: 20 })
    const r = await (await asEnglish(server, 'admin')).put(PASSWORD_URL, change(ADMIN_PASSWORD, 'Only-15-chars!!'))
    expect(r.json()).toEqual({ new_password: ['Password must be at least 20 characters long'] })
  })

  it('changes the password (hybrid-encrypted fields), logs it, and refuses recent passwords', async () => {
    await user('pw2')
    const c = englishClient(server)
    await webLogin(c, 'pw2', 'Old-pass1')
    const enc = (v: string) => encryptFor(c, v)
    const ok = await c.put(PASSWORD_URL, { old_password: enc('Old-pass1'), new_password: enc('New-pass2'), new_password_again: enc('New-pass2') })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({})
    const p = (await c.get(PROFILE)).json()
    expect(p.need_update_password).toBe(false)
    const log = await sql<{ user: string; change_by: string }>`select "user", change_by from password_change_logs where "user" = 'pw2(pw2)'`.execute(db())
    expect(log.rows).toEqual([{ user: 'pw2(pw2)', change_by: 'pw2(pw2)' }])
    const fresh = englishClient(server)
    expect((await webLogin(fresh, 'pw2', 'New-pass2')).statusCode).toBe(200)

    expect((await c.put(PASSWORD_URL, change('New-pass2', 'New-pass2'))).json()).toEqual({ new_password: ['The new password cannot be the last 5 passwords'] })
    expect((await c.put(PASSWORD_URL, change('New-pass2', 'Old-pass1'))).json()).toEqual({ new_password: ['The new password cannot be the last 5 passwords'] })
    await setSettings(db(), { OLD_PASSWORD_HISTORY_LIMIT_COUNT: 1 })
    expect((await c.put(PASSWORD_URL, change('New-pass2', 'Old-pass1'))).statusCode).toBe(200)
  })

  it('is refused for users from other sources', async () => {
    await server.createUser({ username: 'ldapuser', password: 'Old-pass1' })
    await sql`update users set source = 'ldap' where username = 'ldapuser'`.execute(db())
    const r = await (await asEnglish(server, 'ldapuser')).put(PASSWORD_URL, change('Old-pass1', 'New-pass2'))
    expect(r.json()).toEqual({ non_field_errors: ['Users from LDAP/AD cannot change their password here'] })
  })
})

describe('OTP binding', () => {
  it('sets up, enables with a valid code, and disables with a fresh code', async () => {
    await server.createUser({ username: 'otpuser', password: 'Passw0rd!' })
    const c = englishClient(server)
    await webLogin(c, 'otpuser', 'Passw0rd!')
    const setup = (await c.get('/api/v1/users/profile/otp/setup/')).json()
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(setup.otpauth_uri).toMatch(/^otpauth:\/\/totp\/JumpServer:otpuser\?secret=/)
    expect((await c.post('/api/v1/users/profile/otp/enable/', { code: '12345a' })).json()).toEqual({ code: ['OTP code invalid, or server time error'] })
    // One moment for every code of this test: a 30 s step may roll over between two calls of Date.now().
    const t0 = Date.now()
    const bound = await c.post('/api/v1/users/profile/otp/enable/', { code: totp(setup.secret, t0) })
    expect(bound.json()).toMatchObject({ is_otp_secret_key_bound: true, mfa_enabled: true, mfa_level: { value: 1 } })
    const stored = await sql<{ otp_secret: string }>`select otp_secret from users where username = 'otpuser'`.execute(db())
    expect(stored.rows[0]!.otp_secret.startsWith('v1:')).toBe(true)
    expect(stored.rows[0]!.otp_secret).not.toContain(setup.secret)
    expect((await c.get('/api/v1/users/profile/otp/setup/')).json().code).toBe('otp_bound')

    // the next login asks for the code
    const next = englishClient(server)
    expect((await webLogin(next, 'otpuser', 'Passw0rd!')).json().mfa_required).toBe(true)

    expect((await c.post('/api/v1/users/profile/otp/disable/', { code: totp(setup.secret, t0) })).statusCode).toBe(400) // already used
    const off = await c.post('/api/v1/users/profile/otp/disable/', { code: totp(setup.secret, t0 + 30_000) })
    expect(off.json()).toMatchObject({ is_otp_secret_key_bound: false, mfa_level: { value: 0 } })
    expect((await c.post('/api/v1/users/profile/otp/disable/', { code: '123456' })).json().code).toBe('otp_not_bound')
  })

  it('refuses enable without a setup', async () => {
    await server.createUser({ username: 'nosetup' })
    const c = await asEnglish(server, 'nosetup')
    expect((await c.post('/api/v1/users/profile/otp/enable/', { code: '123456' })).json().code).toBe('otp_setup_expired')
  })
})

describe('groups', () => {
  it('lists the groups of the user in the current organization', async () => {
    const id = await server.createUser({ username: 'grouped' })
    const g1 = '9a000000-0000-4000-8000-000000000001'
    const g2 = '9a000000-0000-4000-8000-000000000002'
    await sql`insert into user_groups (id, name, org_id) values (${g1}, 'Ops', ${DEFAULT}), (${g2}, 'Dev', ${ORG2})`.execute(db())
    await sql`insert into user_group_members (user_id, usergroup_id) values (${id}, ${g1}), (${id}, ${g2})`.execute(db())
    const c = await asEnglish(server, 'grouped')
    expect((await c.get(PROFILE)).json().groups).toEqual([{ id: g1, name: 'Ops' }])
    expect((await c.get(PROFILE, { 'x-jms-org': 'ROOT' })).json().groups).toEqual([{ id: g2, name: 'Dev' }, { id: g1, name: 'Ops' }])
  })
})
