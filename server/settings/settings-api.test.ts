import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer, encryptFor, englishClient, openLoginPage, webLogin } from '../auth/test-support.ts'
import { fieldInfo } from '../engine/fields.ts'
import type { FieldDef } from '../engine/types.ts'
import { hasTranslation } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { CATEGORIES } from './declarations.ts'
import { SETTINGS } from './defaults.ts'
import { getSecretSetting, getSetting, invalidateSettingsCache, setSettings } from './store.ts'
import './messages.ts'

const API = '/api/v1/settings/setting/'
const url = (category: string) => `${API}?category=${category}`

describe(`settings API (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient
  const db = () => server.database.db
  const stored = async (name: string) =>
    (await sql<{ value: unknown; encrypted: boolean }>`select value, encrypted from settings where name = ${name}`.execute(db())).rows[0]
  const lastLog = async () =>
    (await sql<{ id: string; resource_type: string; resource: string; org_id: string; diff: Array<{ field: string; before: string; after: string }> }>`
      select id, resource_type, resource, org_id, diff from operate_logs order by datetime desc limit 1`.execute(db())).rows[0]

  beforeAll(async () => {
    invalidateSettingsCache()
    server = await authTestServer()
    admin = await asEnglish(server, 'admin')
  })
  afterAll(async () => {
    await server?.close()
  })
  afterEach(async () => {
    await sql`delete from settings where name like 'SECURITY_%' or name like '%_KEEP_%' or name in ('TICKETS_ENABLED', 'GLOBAL_ORG_DISPLAY_NAME', 'OLD_PASSWORD_HISTORY_LIMIT_COUNT')`.execute(db())
    invalidateSettingsCache(db())
  })

  it('declares every key of contract §5.12 for basic, security and clean, and keeps the old defaults', () => {
    const keys = (c: string) => CATEGORIES.get(c)!.fields.map((f) => f.name)
    expect(keys('basic')).toEqual(['SITE_URL', 'USER_GUIDE_URL', 'FORGOT_PASSWORD_URL', 'GLOBAL_ORG_DISPLAY_NAME', 'ANNOUNCEMENT_ENABLED', 'ANNOUNCEMENT', 'TICKETS_ENABLED'])
    expect(keys('clean')).toEqual(['LOGIN_LOG_KEEP_DAYS', 'TASK_LOG_KEEP_DAYS', 'OPERATE_LOG_KEEP_DAYS', 'FTP_LOG_KEEP_DAYS',
      'CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS', 'TERMINAL_SESSION_KEEP_DURATION', 'ACTIVITY_LOG_KEEP_DAYS'])
    expect(keys('security')).toHaveLength(33)
    expect(SETTINGS.LOGIN_LOG_KEEP_DAYS).toEqual({ category: 'clean', default: 180, encrypted: false })
    expect(SETTINGS.EMAIL_HOST_PASSWORD).toMatchObject({ category: 'email', encrypted: true })
    expect(SETTINGS.INTERFACE_THEME).toMatchObject({ category: 'interface', default: 'classic_green' })
  })

  it('translates every label, help text and choice of every category into zh and ja', () => {
    const missing: string[] = []
    const walk = (f: FieldDef) => {
      for (const text of [f.label, f.help_text, ...(f.choices ?? []).map((c) => (/^[\d]|^Auto$/.test(c.label) ? undefined : c.label))]) {
        if (text && (!hasTranslation('zh', text) || !hasTranslation('ja', text))) missing.push(`${f.name}: ${text}`)
      }
      f.children?.forEach(walk)
    }
    for (const c of CATEGORIES.values()) {
      if (!hasTranslation('zh', c.title) || !hasTranslation('ja', c.title)) missing.push(c.title)
      c.fields.forEach(walk)
    }
    expect(missing).toEqual([])
  })

  it('serves OPTIONS from the declarations with GET, PUT and PATCH, translated', async () => {
    const meta = (await admin.options(url('security'))).json()
    expect(Object.keys(meta.actions)).toEqual(['GET', 'PUT', 'PATCH'])
    expect(meta.name).toBe('Security')
    expect(meta.actions.PATCH.SECURITY_PASSWORD_MIN_LENGTH).toEqual({
      type: 'integer', required: true, read_only: false, write_only: false, label: 'Password minimum length', min_value: 6, max_value: 30,
    })
    expect(meta.actions.PATCH.SECURITY_MFA_AUTH).toMatchObject({
      type: 'choice', default: 0, choices: [{ value: 0, label: 'Disable' }, { value: 1, label: 'All users' }, { value: 2, label: 'Only admin users' }],
    })
    expect(meta.actions.PATCH.SECURITY_LOGIN_IP_WHITE_LIST).toMatchObject({ type: 'list', child: { type: 'string', max_length: 1024 } })
    const zh = await server.as('admin')
    zh.headers['accept-language'] = 'zh-CN'
    const zhMeta = (await zh.options(url('clean'))).json()
    expect(zhMeta.actions.PATCH.LOGIN_LOG_KEEP_DAYS).toMatchObject({ label: '登录日志保留天数', help_text: '单位: 天', min_value: 1, max_value: 9999 })
    const ja = await server.as('admin')
    ja.headers['accept-language'] = 'ja'
    expect((await ja.options(url('basic'))).json().actions.PATCH.SITE_URL.label).toBe('サイトURL')
    // one mechanism: the OPTIONS info is the engine's
    const basic = CATEGORIES.get('basic')!
    expect((await admin.options(url('basic'))).json().actions.PUT.ANNOUNCEMENT).toEqual(fieldInfo(basic.fields[5]!, { lang: 'en' } as never))
  })

  it('reads a category as one flat object (default basic) with defaults under stored values', async () => {
    const basic = (await admin.get(API)).json()
    expect(basic).toEqual({
      SITE_URL: 'http://127.0.0.1:8080', USER_GUIDE_URL: '', FORGOT_PASSWORD_URL: '', GLOBAL_ORG_DISPLAY_NAME: '', ANNOUNCEMENT_ENABLED: false,
      ANNOUNCEMENT: { ID: '', SUBJECT: '', CONTENT: '', LINK: '' }, TICKETS_ENABLED: true,
    })
    await setSettings(db(), { LOGIN_LOG_KEEP_DAYS: 30 })
    expect((await admin.get(url('clean'))).json()).toEqual({
      LOGIN_LOG_KEEP_DAYS: 30, TASK_LOG_KEEP_DAYS: 90, OPERATE_LOG_KEEP_DAYS: 180, FTP_LOG_KEEP_DAYS: 180,
      CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS: 180, TERMINAL_SESSION_KEEP_DURATION: 200, ACTIVITY_LOG_KEEP_DAYS: 180,
    })
  })

  it('refuses anonymous users, users without the category permission and unknown categories', async () => {
    expect((await englishClient(server).get(url('security'))).statusCode).toBe(401)
    expect((await englishClient(server).options(url('security'))).statusCode).toBe(401)
    await server.createUser({ username: 'plain-user' })
    const user = await asEnglish(server, 'plain-user')
    for (const c of ['basic', 'security', 'clean', 'email', 'other', 'terminal']) {
      expect((await user.get(url(c))).statusCode, c).toBe(403)
      expect((await user.patch(url(c), {})).statusCode, c).toBe(403)
      expect((await user.options(url(c))).statusCode, c).toBe(403)
    }
    // an org administrator holds no system-scope settings permission
    await server.createUser({ username: 'org-admin', orgRoles: ['00000000-0000-0000-0000-000000000005'] })
    expect((await (await asEnglish(server, 'org-admin')).patch(url('clean'), { LOGIN_LOG_KEEP_DAYS: 1 })).statusCode).toBe(403)
    expect(await getSetting(db(), 'LOGIN_LOG_KEEP_DAYS')).toBe(180)
    const bad = await admin.get(url('nope'))
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ category: ['"nope" is not a valid choice.'] })
  })

  it('saves only the keys sent, in one transaction, and logs the change (SYSTEM org)', async () => {
    const r = await admin.patch(url('clean'), { LOGIN_LOG_KEEP_DAYS: '30', OPERATE_LOG_KEEP_DAYS: 60, UNKNOWN_KEY: 1 })
    expect(r.statusCode).toBe(200)
    expect(r.json()).toMatchObject({ LOGIN_LOG_KEEP_DAYS: 30, OPERATE_LOG_KEEP_DAYS: 60, TASK_LOG_KEEP_DAYS: 90 })
    expect(await getSetting(db(), 'LOGIN_LOG_KEEP_DAYS')).toBe(30)
    expect(await stored('TASK_LOG_KEEP_DAYS')).toBeUndefined()
    expect(await stored('UNKNOWN_KEY')).toBeUndefined()
    const log = await lastLog()
    expect(log).toMatchObject({ resource_type: 'Setting', resource: 'Period clean', org_id: ORG_IDS.SYSTEM })
    expect(log!.diff).toEqual([
      { field: 'Login log keep days', before: '180', after: '30' },
      { field: 'Operate log keep days', before: '180', after: '60' },
    ])
    const zhRes = await admin.get(`/api/v1/audits/operate-logs/${log!.id}/?type=action_detail`, { 'accept-language': 'zh', 'x-jms-org': ORG_IDS.SYSTEM })
    const zh = zhRes.json()
    expect(zh.diff[0].field).toBe('登录日志保留天数')
  })

  it('refuses bad values with field errors and writes nothing', async () => {
    const r = await admin.patch(url('security'), {
      SECURITY_PASSWORD_MIN_LENGTH: 3, SECURITY_LOGIN_LIMIT_COUNT: 'many', SECURITY_MFA_AUTH: 7, SECURITY_LOGIN_IP_WHITE_LIST: ['1.2.3.4', 'nope'],
      SECURITY_PASSWORD_UPPER_CASE: 'perhaps', SECURITY_MAX_IDLE_TIME: 45, VERIFY_CODE_TTL: '\u0000',
    })
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({
      SECURITY_PASSWORD_MIN_LENGTH: ['Ensure this value is greater than or equal to 6.'],
      SECURITY_LOGIN_LIMIT_COUNT: ['A valid integer is required.'],
      SECURITY_MFA_AUTH: ['"7" is not a valid choice.'],
      SECURITY_LOGIN_IP_WHITE_LIST: ['IP address invalid: `nope`'],
      SECURITY_PASSWORD_UPPER_CASE: ['Must be a valid boolean.'],
      VERIFY_CODE_TTL: ['Null characters are not allowed.'],
    })
    expect(await stored('SECURITY_MAX_IDLE_TIME')).toBeUndefined()
    for (const body of [[1, 2], 'text', null]) {
      const x = await admin.request({ method: 'PATCH', url: url('security'), payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
      expect(x.statusCode).toBe(400)
      expect(Object.keys(x.json())).toEqual(['non_field_errors'])
    }
    expect((await admin.patch(url('clean'), { LOGIN_LOG_KEEP_DAYS: 10000 })).json()).toEqual({ LOGIN_LOG_KEEP_DAYS: ['Ensure this value is less than or equal to 9999.'] })
    expect((await admin.patch(url('basic'), { SITE_URL: 'not a url' })).json()).toEqual({ SITE_URL: ['Enter a valid URL.'] })
    expect((await admin.patch(url('basic'), { ANNOUNCEMENT: { SUBJECT: '' } })).json()).toEqual({
      ANNOUNCEMENT: { SUBJECT: ['This field may not be blank.'], CONTENT: ['This field is required.'] },
    })
  })

  it('answers bad input generated from OPTIONS with 400 field errors (never 500) and saves nothing', async () => {
    const before = (await sql<{ n: number }>`select count(*)::int as n from settings`.execute(db())).rows[0]!.n
    const samples: unknown[] = [{ a: 1 }, [{ a: 1 }], 'not-a-value', 1e12, -1, '', 'x\u0000y', true, 'x'.repeat(9000)]
    for (const category of CATEGORIES.keys()) {
      const meta = (await admin.options(url(category))).json()
      for (const [key, info] of Object.entries(meta.actions.PATCH as Record<string, { read_only: boolean; write_only: boolean }>)) {
        if (info.read_only || info.write_only) continue
        for (const bad of samples) {
          const r = await admin.patch(url(category), { [key]: bad, ZZZ_FOREIGN: 1 })
          expect(r.statusCode, `${category}.${key} = ${JSON.stringify(bad).slice(0, 40)}`).toBeLessThan(500)
          if (r.statusCode === 400) expect(Object.keys(r.json()), `${category}.${key}`).toEqual([key])
        }
      }
    }
    // whatever was valid was saved; nothing invalid was: every stored value passes its own declaration again
    const rows = (await sql<{ name: string; value: unknown }>`select name, value from settings`.execute(db())).rows
    expect(rows.length).toBeGreaterThanOrEqual(before)
    for (const row of rows) {
      const cat = [...CATEGORIES.values()].find((c) => c.fields.some((f) => f.name === row.name))
      if (!cat || cat.fields.find((f) => f.name === row.name)!.write_only) continue
      const again = await admin.patch(url(cat.name), { [row.name]: row.value })
      expect(again.statusCode, row.name).toBe(200)
    }
    await sql`delete from settings`.execute(db())
    invalidateSettingsCache(db())
  }, 120_000)

  it('PUT needs every required key; PATCH does not', async () => {
    const r = await admin.put(url('clean'), { LOGIN_LOG_KEEP_DAYS: 5 })
    expect(r.statusCode).toBe(400)
    expect(Object.keys(r.json()).sort()).toEqual(['ACTIVITY_LOG_KEEP_DAYS', 'CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS', 'FTP_LOG_KEEP_DAYS',
      'OPERATE_LOG_KEEP_DAYS', 'TASK_LOG_KEEP_DAYS', 'TERMINAL_SESSION_KEEP_DURATION'])
    const full = (await admin.get(url('clean'))).json()
    expect((await admin.put(url('clean'), { ...full, TASK_LOG_KEEP_DAYS: 7 })).json().TASK_LOG_KEEP_DAYS).toBe(7)
  })

  it('applies the cross-field rules of the security category', async () => {
    const r = (await admin.patch(url('security'), { SECURITY_MFA_AUTH: 2, SECURITY_MFA_IN_LOGIN_PAGE: true })).json()
    expect(r.SECURITY_MFA_IN_LOGIN_PAGE).toBe(false)
    expect((await admin.patch(url('security'), { SECURITY_MFA_AUTH: 1, SECURITY_MFA_IN_LOGIN_PAGE: true })).json().SECURITY_MFA_IN_LOGIN_PAGE).toBe(true)
    const challenge = (await admin.patch(url('security'), { SECURITY_LOGIN_CHALLENGE_ENABLED: true })).json()
    expect(challenge).toMatchObject({ SECURITY_MFA_IN_LOGIN_PAGE: false, SECURITY_LOGIN_CAPTCHA_ENABLED: false })
  })

  it('gives a changed announcement a new id, the same one keeps it', async () => {
    const a = (await admin.patch(url('basic'), { ANNOUNCEMENT_ENABLED: true, ANNOUNCEMENT: { SUBJECT: 'Maintenance', CONTENT: 'Sunday 2:00' } })).json()
    expect(a.ANNOUNCEMENT).toEqual({ ID: expect.stringMatching(/^[0-9a-f-]{36}$/), SUBJECT: 'Maintenance', CONTENT: 'Sunday 2:00', LINK: '' })
    const same = (await admin.patch(url('basic'), { ANNOUNCEMENT: { ...a.ANNOUNCEMENT, ID: 'mine' } })).json()
    expect(same.ANNOUNCEMENT.ID).toBe(a.ANNOUNCEMENT.ID)
    const b = (await admin.patch(url('basic'), { ANNOUNCEMENT: { ...a.ANNOUNCEMENT, CONTENT: 'Sunday 3:00', ID: 'mine' } })).json()
    expect(b.ANNOUNCEMENT.ID).not.toBe(a.ANNOUNCEMENT.ID)
    expect(b.ANNOUNCEMENT.ID).not.toBe('mine')
    const pub = (await admin.get('/api/v1/settings/public/')).json()
    expect(pub).toMatchObject({ ANNOUNCEMENT_ENABLED: true, ANNOUNCEMENT: { SUBJECT: 'Maintenance' } })
    await sql`delete from settings where name like 'ANNOUNCEMENT%'`.execute(db())
    invalidateSettingsCache(db())
  })

  it('seals secrets at rest, never returns them, keeps them on an empty value and masks them in the log', async () => {
    const c = englishClient(server)
    await webLogin(c, 'admin', (await import('../testing.ts')).ADMIN_PASSWORD)
    expect((await c.get(url('email'))).json().SECRETS_SET).toEqual({ EMAIL_HOST_PASSWORD: false })
    await openLoginPage(c)
    const r = await c.patch(url('email'), { EMAIL_HOST: 'smtp.example.com', EMAIL_HOST_PASSWORD: encryptFor(c, 'smtp-S3cret') })
    expect(r.statusCode).toBe(200)
    expect(r.json()).not.toHaveProperty('EMAIL_HOST_PASSWORD')
    expect(r.json()).toMatchObject({ EMAIL_HOST: 'smtp.example.com', SECRETS_SET: { EMAIL_HOST_PASSWORD: true } })
    const row = await stored('EMAIL_HOST_PASSWORD')
    expect(row!.encrypted).toBe(true)
    expect(String(row!.value)).toMatch(/^v1:/)
    expect(JSON.stringify(row)).not.toContain('smtp-S3cret')
    expect(await getSecretSetting(db(), server.config, 'EMAIL_HOST_PASSWORD')).toBe('smtp-S3cret')
    expect((await lastLog())!.diff).toContainEqual({ field: 'SMTP password', before: '', after: '******' })
    expect(JSON.stringify((await lastLog())!.diff)).not.toContain('smtp-S3cret')

    // an empty value keeps the stored secret; a PUT needs none
    await c.patch(url('email'), { EMAIL_HOST_PASSWORD: '', EMAIL_HOST_USER: 'mailer' })
    const full = (await c.get(url('email'))).json()
    delete full.SECRETS_SET
    expect((await c.put(url('email'), full)).statusCode).toBe(200)
    expect(await getSecretSetting(db(), server.config, 'EMAIL_HOST_PASSWORD')).toBe('smtp-S3cret')
    // a sealed value copied to another key does not open there
    await setSettings(db(), { EMAIL_RECIPIENT: row!.value })
    expect(await getSecretSetting(db(), server.config, 'EMAIL_RECIPIENT')).toBe('')
    await sql`delete from settings where name like 'EMAIL_%'`.execute(db())
    invalidateSettingsCache(db())
  })

  describe('effects', () => {
    it('a changed minimum password length applies to the next password change and user create/update', async () => {
      expect((await admin.patch(url('security'), { SECURITY_PASSWORD_MIN_LENGTH: 12 })).statusCode).toBe(200)
      await server.createUser({ username: 'pw-user', password: 'Old-pass1' })
      const c = await asEnglish(server, 'pw-user')
      const change = (pw: string) => c.put('/api/v1/users/profile/password/', { old_password: 'Old-pass1', new_password: pw, new_password_again: pw })
      expect((await change('Short-pw1')).json()).toEqual({ new_password: ['Password must be at least 12 characters long'] })
      const created = await admin.post('/api/v1/users/users/', { name: 'n1', username: 'n1', email: 'n1@example.com', password_strategy: 'custom', password: 'Short-pw1' })
      expect(created.json()).toEqual({ password: ['Password must be at least 12 characters long'] })
      const id = await server.createUser({ username: 'n2' })
      const updated = await admin.patch(`/api/v1/users/users/${id}/`, { password: 'Short-pw1' })
      expect(updated.json()).toEqual({ password: ['Password must be at least 12 characters long'] })
      await admin.patch(url('security'), { SECURITY_PASSWORD_MIN_LENGTH: 6 })
      expect((await change('Short-pw1')).statusCode).toBe(200)
    })

    it('login limit count and time apply at the next login', async () => {
      await admin.patch(url('security'), { SECURITY_LOGIN_LIMIT_COUNT: 3, SECURITY_LOGIN_LIMIT_TIME: 5 })
      await server.createUser({ username: 'limited', password: 'Right-pass1' })
      const answers = []
      for (let i = 0; i < 3; i++) answers.push((await webLogin(englishClient(server), 'limited', 'wrong')).json().code)
      expect(answers).toEqual(['invalid_credentials', 'invalid_credentials', 'blocked'])
      const right = (await webLogin(englishClient(server), 'limited', 'Right-pass1')).json()
      expect(right).toMatchObject({ code: 'blocked' })
      expect(right.error).toContain('5 minutes')
    })

    it("basic's TICKETS_ENABLED and GLOBAL_ORG_DISPLAY_NAME reach public settings and the root organization", async () => {
      await admin.patch(url('basic'), { TICKETS_ENABLED: false, GLOBAL_ORG_DISPLAY_NAME: 'Whole company' })
      expect((await admin.get('/api/v1/settings/public/')).json().TICKETS_ENABLED).toBe(false)
      expect((await admin.get('/api/v1/orgs/orgs/current/?oid=root')).json().name).toBe('Whole company')
      expect((await admin.get('/api/v1/users/profile/')).json().console_orgs.find((o: { is_root: boolean }) => o.is_root)?.name).toBe('Whole company')
    })

    it('retention days are read through getSetting', async () => {
      await admin.patch(url('clean'), { LOGIN_LOG_KEEP_DAYS: 3, TASK_LOG_KEEP_DAYS: 4, OPERATE_LOG_KEEP_DAYS: 5 })
      expect([await getSetting(db(), 'LOGIN_LOG_KEEP_DAYS'), await getSetting(db(), 'TASK_LOG_KEEP_DAYS'), await getSetting(db(), 'OPERATE_LOG_KEEP_DAYS')]).toEqual([3, 4, 5])
    })
  })
})
