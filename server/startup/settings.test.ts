import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer, englishClient } from '../auth/test-support.ts'
import { ROLE_IDS } from '../rbac/catalog.ts'
import { invalidateSettingsCache, setSettings } from '../settings/store.ts'
import type { TestClient, TestServer } from '../testing.ts'

const OPEN = '/api/v1/settings/public/open/'
const PUBLIC = '/api/v1/settings/public/'
const DETAIL = '/api/v1/xpack/license/detail'
const IMPORT = '/api/v1/xpack/license/import'

const INTERFACE_KEYS = ['login_title', 'logo_index', 'logo_logout', 'login_image', 'favicon', 'theme', 'theme_info']
const PUBLIC_KEYS = [
  'XPACK_ENABLED', 'INTERFACE', 'XPACK_LICENSE_IS_VALID', 'XPACK_LICENSE_INFO', 'PASSWORD_RULE', 'WINDOWS_SKIP_ALL_MANUAL_PASSWORD',
  'OLD_PASSWORD_HISTORY_LIMIT_COUNT', 'TICKET_AUTHORIZE_DEFAULT_TIME', 'TICKET_AUTHORIZE_DEFAULT_TIME_UNIT', 'AUTH_LDAP_SYNC_ORG_ID',
  'SECURITY_MAX_IDLE_TIME', 'SECURITY_VIEW_AUTH_NEED_MFA', 'SECURITY_MFA_VERIFY_TTL', 'SECURITY_COMMAND_EXECUTION',
  'SECURITY_PASSWORD_EXPIRATION_TIME', 'SECURITY_LUNA_REMEMBER_AUTH', 'SECURITY_WATERMARK_ENABLED', 'SESSION_EXPIRE_AT_BROWSER_CLOSE',
  'SECURITY_SESSION_SHARE', 'HELP_DOCUMENT_URL', 'HELP_SUPPORT_URL', 'AUTH_WECOM', 'AUTH_DINGTALK', 'AUTH_FEISHU', 'AUTH_TEMP_TOKEN',
  'TERMINAL_RAZOR_ENABLED', 'TERMINAL_MAGNUS_ENABLED', 'TERMINAL_KOKO_SSH_ENABLED', 'TERMINAL_OMNIDB_ENABLED',
  'TERMINAL_GRAPHICAL_RESOLUTION', 'ANNOUNCEMENT_ENABLED', 'ANNOUNCEMENT', 'TICKETS_ENABLED',
]

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

function upload(c: TestClient, content: string, field = 'file') {
  const boundary = '----licence-test-boundary'
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="license.json"\r\n` +
    `Content-Type: application/json\r\n\r\n${content}\r\n--${boundary}--\r\n`
  return c.request({ method: 'POST', url: IMPORT, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
}

describe('with a valid licence (default)', () => {
  let server: TestServer
  beforeAll(async () => {
    invalidateSettingsCache()
    server = await authTestServer()
  })
  afterAll(async () => {
    await server?.close()
  })

  it('serves the open settings to anyone', async () => {
    const r = await englishClient(server).get(OPEN)
    expect(r.statusCode).toBe(200)
    const body = r.json()
    // LOGIN_METHODS (ours): the login page's single sign-on buttons, none while they are off
    expect(Object.keys(body).sort()).toEqual(['INTERFACE', 'LOGIN_METHODS', 'XPACK_ENABLED'])
    expect(body.LOGIN_METHODS).toEqual([])
    expect(body.XPACK_ENABLED).toBe(true)
    expect(Object.keys(body.INTERFACE).sort()).toEqual([...INTERFACE_KEYS].sort())
    expect(body.INTERFACE).toMatchObject({ theme: 'classic_green', logo_index: '/static/img/logo.png', favicon: '/static/img/facio.ico' })
    expect(body.INTERFACE.theme_info.colors['--color-primary']).toBe('#1ab394')
  })

  it('serves every public key to logged-in users only', async () => {
    expect((await englishClient(server).get(PUBLIC)).statusCode).toBe(401)
    const body = (await (await asEnglish(server, 'admin')).get(PUBLIC)).json()
    expect(Object.keys(body).sort()).toEqual([...PUBLIC_KEYS].sort())
    expect(body.XPACK_LICENSE_IS_VALID).toBe(true)
    expect(body.XPACK_LICENSE_INFO).toMatchObject({ corporation: 'Demo Corporation', date_expired: day(365) })
    expect(body.PASSWORD_RULE).toEqual({
      SECURITY_PASSWORD_MIN_LENGTH: 6, SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH: 6, SECURITY_PASSWORD_UPPER_CASE: false,
      SECURITY_PASSWORD_LOWER_CASE: false, SECURITY_PASSWORD_NUMBER: false, SECURITY_PASSWORD_SPECIAL_CHAR: false,
    })
    expect(body.SESSION_EXPIRE_AT_BROWSER_CLOSE).toBe(false)
    expect(body.ANNOUNCEMENT).toEqual({ ID: '', SUBJECT: '', CONTENT: '', LINK: '' })
    await setSettings(server.database.db, { SECURITY_MAX_IDLE_TIME: 45 })
    expect((await (await asEnglish(server, 'admin')).get(PUBLIC)).json().SECURITY_MAX_IDLE_TIME).toBe(45)
  })

  it('shows the licence detail to holders of settings.change_license', async () => {
    await server.createUser({ username: 'plain' })
    expect((await (await asEnglish(server, 'plain')).get(DETAIL)).statusCode).toBe(403)
    const admin = await asEnglish(server, 'admin')
    for (const url of [DETAIL, `${DETAIL}/`]) {
      const r = await admin.get(url)
      expect(r.statusCode).toBe(200)
      expect(Object.keys(r.json()).sort()).toEqual(
        ['asset_count', 'corporation', 'current_asset_count', 'date_expired', 'edition', 'remark', 'serial_no', 'subscription_id'])
    }
  })

  it('imports a licence file, refusing invalid ones with a message', async () => {
    const admin = await asEnglish(server, 'admin')
    const lic = { corporation: 'Acme Ltd', date_expired: day(30), asset_count: 100, edition: 'Standard', serial_no: 'ACME-1' }
    for (const [content, msg] of [
      ['not json', 'The file is not a valid license'],
      [JSON.stringify({ ...lic, asset_count: -1 }), 'The file is not a valid license'],
      [JSON.stringify({ ...lic, date_expired: '2023-02-30' }), 'The file is not a valid license'],
      [JSON.stringify({ ...lic, date_expired: day(-2) }), 'The license has expired'],
    ] as const) {
      const r = await upload(admin, content)
      expect(r.statusCode).toBe(400)
      expect(r.json()).toEqual({ status: false, msg })
    }
    expect((await upload(admin, JSON.stringify(lic), 'other')).json()).toEqual({ status: false, msg: 'Please choose a license file' })
    expect((await admin.post(IMPORT, { file: 'x' })).json()).toEqual({ status: false, msg: 'Please choose a license file' })
    expect((await upload(await asEnglish(server, 'plain'), JSON.stringify(lic))).statusCode).toBe(403)

    const ok = await upload(admin, JSON.stringify(lic))
    expect(ok.json()).toEqual({ status: true, msg: 'License imported successfully' })
    expect((await admin.get(DETAIL)).json()).toMatchObject({ corporation: 'Acme Ltd', asset_count: 100, edition: 'Standard', current_asset_count: 0 })
    expect((await admin.get(PUBLIC)).json().XPACK_LICENSE_INFO.corporation).toBe('Acme Ltd')
  })

  it('lists every asset type with constraints, paginates, and answers constraints', async () => {
    const admin = await asEnglish(server, 'admin')
    const cats = (await admin.get('/api/v1/assets/categories/')).json()
    expect(cats.map((c: { value: string }) => c.value)).toEqual(['host', 'device', 'database', 'cloud', 'web'])
    expect(cats[0].label).toBe('Host')
    const dbTypes = cats[2].types.map((t: { value: string }) => t.value)
    expect(dbTypes).toEqual(['mysql', 'mariadb', 'postgresql', 'oracle', 'sqlserver', 'clickhouse', 'mongodb', 'redis'])
    const linux = cats[0].types[0]
    expect(linux).toMatchObject({ label: 'Linux', value: 'linux', category: 'host' })
    expect(linux.constraints).toMatchObject({
      charset_enabled: true, charset: 'utf-8', domain_enabled: true, su_enabled: true, su_methods: ['sudo', 'su'],
      automation: { ansible_enabled: true, ansible_config: { ansible_connection: 'smart' }, ping_enabled: true, ping_methods: [{ id: 'posix_ping', name: 'Posix Ping' }] },
    })
    expect(linux.constraints.protocols[0]).toEqual({ name: 'ssh', port: 22, secret_types: ['password', 'ssh_key'], setting: { sftp_enabled: true, sftp_home: '/tmp' }, default: true })
    expect(linux.constraints.protocols.map((p: { name: string; port: number }) => `${p.name}:${p.port}`)).toEqual(['ssh:22', 'telnet:23', 'vnc:5900', 'rdp:3389'])

    const page = (await admin.get('/api/v1/assets/categories/?limit=2&offset=2')).json()
    expect(page.count).toBe(5)
    expect(page.results.map((c: { value: string }) => c.value)).toEqual(['database', 'cloud'])
    expect(page.next).toMatch(/^http:\/\/[^/]+\/api\/v1\/assets\/categories\/\?limit=2&offset=4$/)
    expect(page.previous).toMatch(/\/api\/v1\/assets\/categories\/\?limit=2$/)

    const types = (await admin.get('/api/v1/assets/categories/types/')).json()
    expect(types).toHaveLength(4 + 4 + 8 + 3 + 1)
    const pg = (await admin.get('/api/v1/assets/categories/constraints/?category=database&type=postgresql')).json()
    expect(pg.protocols).toEqual([{ name: 'postgresql', port: 5432, secret_types: ['password'], setting: {}, required: true, default: true }])
    expect((await admin.get('/api/v1/assets/categories/constraints/?category=host&type=nope')).json()).toEqual({})
    expect((await englishClient(server).get('/api/v1/assets/categories/')).statusCode).toBe(401)
  })

  it('lists custom types given by the platform module', async () => {
    server.app.startupHooks.customTypes = async () => ['plc', 'plc', 'scada']
    try {
      const cats = (await (await asEnglish(server, 'admin')).get('/api/v1/assets/categories/')).json()
      expect(cats.at(-1)).toMatchObject({ value: 'custom', label: 'Custom type', types: [{ value: 'plc' }, { value: 'scada' }] })
    } finally {
      server.app.startupHooks.customTypes = async () => []
    }
  })

  it('resolves the current organization, falling back to DEFAULT for unknown values', async () => {
    const admin = await asEnglish(server, 'admin')
    const dflt = { id: '00000000-0000-0000-0000-000000000002', name: 'DEFAULT', is_default: true, is_root: false, comment: '' }
    expect((await admin.get('/api/v1/orgs/orgs/current/')).json()).toEqual(dflt)
    expect((await admin.get('/api/v1/orgs/orgs/current/', { 'x-jms-org': 'no-such-org' })).json()).toEqual(dflt)
    expect((await admin.get('/api/v1/orgs/orgs/current/', { 'x-jms-org': 'ROOT' })).json())
      .toEqual({ id: '00000000-0000-0000-0000-000000000000', name: 'GLOBAL', is_default: false, is_root: true, comment: '' })
    const org = '7e570000-0000-4000-8000-000000000001'
    await sql`insert into organizations (id, name, comment) values (${org}, 'Lab', 'test lab')`.execute(server.database.db)
    expect((await admin.get(`/api/v1/orgs/orgs/current/?oid=${org}`, { 'x-jms-org': 'DEFAULT' })).json())
      .toEqual({ id: org, name: 'Lab', is_default: false, is_root: false, comment: 'test lab' })
    await setSettings(server.database.db, { GLOBAL_ORG_DISPLAY_NAME: 'Everything' })
    expect((await admin.get('/api/v1/orgs/orgs/current/?oid=root')).json().name).toBe('Everything')
    await setSettings(server.database.db, { GLOBAL_ORG_DISPLAY_NAME: '' })
  })

  it('translates labels', async () => {
    const zh = await server.as('admin')
    zh.headers['accept-language'] = 'zh-CN'
    expect((await zh.get('/api/v1/assets/categories/')).json()[0].label).toBe('主机')
    const ja = await server.as('admin')
    ja.jar.set('django_language', 'ja')
    expect((await ja.get('/api/v1/assets/categories/')).json()[1].label).toBe('ネットワークデバイス')
  })
})

describe('licence modes', () => {
  it('none: community install', async () => {
    invalidateSettingsCache()
    const server = await authTestServer({ license: 'none' })
    try {
      const org = '7e570000-0000-4000-8000-000000000002'
      await sql`insert into organizations (id, name) values (${org}, 'Second')`.execute(server.database.db)
      await server.createUser({ username: 'two', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgUser], orgId: org })
      const open = (await englishClient(server).get(OPEN)).json()
      expect(open.XPACK_ENABLED).toBe(false)
      expect(open.INTERFACE.theme_info).toEqual({})
      const admin = await asEnglish(server, 'admin')
      const pub = (await admin.get(PUBLIC)).json()
      expect(pub).toMatchObject({ XPACK_ENABLED: false, XPACK_LICENSE_IS_VALID: false, XPACK_LICENSE_INFO: { corporation: 'Community Edition' } })
      const profile = (await admin.get('/api/v1/users/profile/')).json()
      expect(profile.console_orgs.map((o: { name: string }) => o.name)).toEqual(['DEFAULT'])
      const cats = (await admin.get('/api/v1/assets/categories/')).json()
      expect(cats[2].types.map((t: { value: string }) => t.value)).toEqual(['mysql', 'mariadb', 'mongodb', 'redis'])
      expect((await admin.get(DETAIL)).statusCode).toBe(404)
      expect((await upload(admin, '{}')).statusCode).toBe(404)
      expect((await (await asEnglish(server, 'two')).get('/api/v1/users/profile/')).json().workbench_orgs).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('expiring: valid, expires in 3 days', async () => {
    invalidateSettingsCache()
    const server = await authTestServer({ license: 'expiring' })
    try {
      const pub = (await (await asEnglish(server, 'admin')).get(PUBLIC)).json()
      expect(pub).toMatchObject({ XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: true, XPACK_LICENSE_INFO: { date_expired: day(3) } })
    } finally {
      await server.close()
    }
  })

  it('expired: xpack on, licence not valid, community types and org lists', async () => {
    invalidateSettingsCache()
    const server = await authTestServer({ license: 'expired' })
    try {
      const admin = await asEnglish(server, 'admin')
      const pub = (await admin.get(PUBLIC)).json()
      expect(pub).toMatchObject({ XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: false })
      expect((await admin.get(DETAIL)).json().date_expired).toBe(day(-1))
      const profile = (await admin.get('/api/v1/users/profile/')).json()
      expect(profile.console_orgs.map((o: { name: string }) => o.name)).toEqual(['DEFAULT'])
      expect((await admin.get('/api/v1/assets/categories/constraints/?category=database&type=oracle')).json()).toEqual({})
    } finally {
      await server.close()
    }
  })
})
