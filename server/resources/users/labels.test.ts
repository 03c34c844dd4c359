/**
 * zh and ja labels a new user meets in the users list and the header (issue 17, defect 8): the Source and role
 * choice labels of list rows, and the product name (the default login title) of the public settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../../testing.ts'

const USERS = '/api/v1/users/users/'

describe(`zh and ja labels (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    await t.createUser({ username: 'labelled' })
  })
  afterAll(async () => { await t.close() })

  it.each([
    ['zh-CN', '数据库', '用户', '组织用户'],
    ['ja', 'ローカル', 'ユーザー', '組織ユーザー'],
  ])('list rows in %s: source and role names translated', async (lang, source, systemRole, orgRole) => {
    const r = await admin.get(`${USERS}?username=labelled`, { 'accept-language': lang })
    expect(r.statusCode).toBe(200)
    const [row] = r.json()
    expect(row.source).toEqual({ value: 'local', label: source })
    expect(row.system_roles.map((x: { display_name: string }) => x.display_name)).toEqual([systemRole])
    expect(row.org_roles.map((x: { display_name: string }) => x.display_name)).toEqual([orgRole])
  })

  it('ja: "Is valid" and "Active" are different words', async () => {
    const fields = (await admin.options(USERS, { 'accept-language': 'ja' })).json().actions.POST
    expect(fields.is_active.label).toBe('アクティブ')
    expect(fields.is_valid.label).toBe('有効')
  })

  it.each([
    ['zh-CN', 'JumpServer 开源堡垒机'],
    ['ja', 'JumpServer オープンソース要塞ホスト'],
    ['en', 'JumpServer Open Source Bastion Host'],
  ])('the default product name in %s', async (lang, title) => {
    const open = await t.client().get('/api/v1/settings/public/open/', { 'accept-language': lang })
    expect(open.json().INTERFACE.login_title).toBe(title)
    const full = await admin.get('/api/v1/settings/public/', { 'accept-language': lang })
    expect(full.json().INTERFACE.login_title).toBe(title)
  })
})
