import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { adminLoginHint } from '../../db/seed.ts'
import { ROLE_IDS } from '../../rbac/catalog.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../../testing.ts'

const USERS = '/api/v1/users/users/'

/** What a new administrator meets first (issue 17, defects 6, 9 and 10). */
describe(`a fresh install's first steps (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
  })
  afterAll(async () => { await t.close() })

  it("lists the administrator in DEFAULT's users, as OrgAdmin, keeping the system role", async () => {
    const list = (await admin.get(`${USERS}?username=admin`)).json() as Array<Record<string, any>>
    expect(list.map((u) => u.username)).toEqual(['admin'])
    const me = list[0]!
    const ids = (roles: unknown[]) => roles.map((r) => (typeof r === 'object' && r ? (r as { id?: string; pk?: string }).id ?? (r as { pk?: string }).pk : r))
    expect(ids(me.system_roles)).toEqual([ROLE_IDS.SystemAdmin])
    expect(ids(me.org_roles)).toEqual([ROLE_IDS.OrgAdmin])
  })

  it('defaults "Date expired" of users and permissions alike: the same day and time 70 years on (issue 35)', async () => {
    const before = new Date()
    const users = new Date((await admin.options(USERS)).json().actions.POST.date_expired.default)
    const perms = new Date((await admin.options('/api/v1/perms/asset-permissions/')).json().actions.POST.date_expired.default)
    const expected = new Date(before)
    expected.setUTCFullYear(before.getUTCFullYear() + 70)
    for (const when of [users, perms]) expect(Math.abs(when.getTime() - expected.getTime())).toBeLessThan(60_000)
    expect(Math.abs(users.getTime() - perms.getTime())).toBeLessThan(60_000)
  })

  it('tells the restarted server\'s administrator which password to use', async () => {
    const db = t.database.db
    await sql`update users set is_first_login = true, need_update_password = true where username = 'admin'`.execute(db)
    expect(await adminLoginHint(db, { adminCreated: false }, { adminPasswordSet: false })).toContain('printed at first start')
    await sql`update users set is_first_login = false, need_update_password = false where username = 'admin'`.execute(db)
    const hint = await adminLoginHint(db, { adminCreated: false }, { adminPasswordSet: false })
    expect(hint).toContain('your own password')
    expect(hint).not.toMatch(/printed|ADMIN_PASSWORD/)
    expect(await adminLoginHint(db, { adminCreated: true, generatedAdminPassword: 'xyz' }, { adminPasswordSet: false })).toContain('admin / xyz')
  })

  it('labels "Active" and "Is valid" differently in Japanese', async () => {
    const get = (await admin.options(USERS, { 'accept-language': 'ja' })).json().actions.GET
    expect(get.is_active.label).not.toBe(get.is_valid.label)
  })

  it('refuses a username with a space, with a translated field error', async () => {
    const r = await admin.post(USERS, { name: 'Spacey', username: 'john doe', email: 'spacey@example.com' })
    expect(r.statusCode).toBe(400)
    expect(r.json().username).toEqual(['Username cannot contain spaces'])
    const zh = await admin.post(USERS, { name: 'Spacey', username: 'john\tdoe', email: 'spacey@example.com' }, { 'accept-language': 'zh' })
    expect(zh.json().username).toEqual(['用户名不能包含空格'])
    expect((await admin.get(`${USERS}?username=john%20doe`, { 'x-jms-org': 'ROOT' })).json()).toEqual([])
    expect((await admin.post(USERS, { name: 'Fine', username: 'john.doe', email: 'fine@example.com' })).statusCode).toBe(201)
  })
})
