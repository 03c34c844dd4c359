import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { setSettings } from '../../settings/store.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../../testing.ts'

const ORGS = '/api/v1/orgs/orgs/'

describe(`organizations (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
  })
  afterAll(async () => { await t.close() })

  it('lists organizations (SYSTEM hidden) with statistics, and needs system permissions', async () => {
    const list = (await admin.get(ORGS)).json()
    expect(list.map((o: { name: string }) => o.name)).toEqual(['DEFAULT'])
    expect(list[0]).toMatchObject({ id: ORG_IDS.DEFAULT, is_default: true, is_root: false, resource_statistics: { users_amount: 1, groups_amount: 0, assets_amount: 0 } })
    // users_amount 1: the administrator is OrgAdmin of DEFAULT from the first start (issue 17)
    await t.createUser({ username: 'orgadmin', orgRoles: [ROLE_IDS.OrgAdmin] })
    const oa = await t.as('orgadmin')
    expect((await oa.get(ORGS)).statusCode).toBe(403)
    expect((await oa.post(ORGS, { name: 'Mine' })).statusCode).toBe(403)
    expect((await admin.get(ORGS)).json()[0].resource_statistics.users_amount).toBe(2)
  })

  it('creates with unique names and refuses deleting the current, default, LDAP-sync or non-empty org', async () => {
    const a = await admin.post(ORGS, { name: 'Alpha', comment: 'first' })
    expect(a.statusCode).toBe(201)
    expect((await admin.post(ORGS, { name: 'Alpha' })).json()).toEqual({ name: ['This field must be unique.'] })
    expect((await admin.post(ORGS, { name: '' })).json()).toEqual({ name: ['This field may not be blank.'] })
    const alpha = a.json().id
    const current = await admin.delete(`${ORGS}${alpha}/`, { 'x-jms-org': alpha })
    expect(current.statusCode).toBe(403)
    expect(current.json().detail).toBe('The current organization (Alpha) cannot be deleted')
    expect((await admin.delete(`${ORGS}${ORG_IDS.DEFAULT}/`, { 'x-jms-org': 'ROOT' })).statusCode).toBe(403)
    await admin.post('/api/v1/users/groups/', { name: 'g' }, { 'x-jms-org': alpha })
    const busy = await admin.delete(`${ORGS}${alpha}/`)
    expect(busy.statusCode).toBe(403)
    expect(busy.json().detail).toBe('The organization have resource (User group) cannot be deleted')
    const b = (await admin.post(ORGS, { name: 'Beta' })).json()
    await setSettings(t.database.db, { AUTH_LDAP_SYNC_ORG_ID: b.id })
    expect((await admin.delete(`${ORGS}${b.id}/`)).json().detail).toBe('LDAP synced organization cannot be deleted')
    await setSettings(t.database.db, { AUTH_LDAP_SYNC_ORG_ID: ORG_IDS.DEFAULT })
    const u = await t.createUser({ username: 'betauser', orgId: b.id })
    expect(u).toBeTruthy()
    expect((await admin.delete(`${ORGS}${b.id}/`)).statusCode).toBe(204)
    expect((await admin.get(`${ORGS}${b.id}/`)).statusCode).toBe(404)
  })

  it('never bulk-deletes and keeps an operate log', async () => {
    const c = (await admin.post(ORGS, { name: 'Gamma' })).json()
    expect((await admin.delete(`${ORGS}?ids=${c.id}`)).statusCode).toBe(400)
    const logs = (await admin.get(`/api/v1/audits/activities/?resource_id=${c.id}`)).json()
    expect(logs[0].content).toBe('User Administrator(admin) Create this resource')
    expect((await admin.patch(`${ORGS}${c.id}/`, { name: 'x'.repeat(200), is_default: true })).json()).toEqual({ name: ['Ensure this field has no more than 128 characters.'] })
  })
})
