import { describe, expect, it } from 'vitest'
import { ORG_IDS, ROLE_IDS } from '../../rbac/catalog.ts'
import { setSettings } from '../../settings/store.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const ORGS = '/api/v1/orgs/orgs/'

describe(`organizations (${dbKind()})`, () => {

  const s = useTestServer()

  it('lists organizations (SYSTEM hidden) with statistics, and needs system permissions', async () => {
    const list = (await s.admin.get(ORGS)).json()
    expect(list.map((o: { name: string }) => o.name)).toEqual(['DEFAULT'])
    expect(list[0]).toMatchObject({ id: ORG_IDS.DEFAULT, is_default: true, is_root: false, resource_statistics: { users_amount: 1, groups_amount: 0, assets_amount: 0 } })
    // users_amount 1: the administrator is OrgAdmin of DEFAULT from the first start (issue 17)
    await s.t.createUser({ username: 'orgadmin', orgRoles: [ROLE_IDS.OrgAdmin] })
    const oa = await s.t.as('orgadmin')
    expect((await oa.get(ORGS)).statusCode).toBe(403)
    expect((await oa.post(ORGS, { name: 'Mine' })).statusCode).toBe(403)
    expect((await s.admin.get(ORGS)).json()[0].resource_statistics.users_amount).toBe(2)
  })

  it('creates with unique names and refuses deleting the current, default, LDAP-sync or non-empty org', async () => {
    const a = await s.admin.post(ORGS, { name: 'Alpha', comment: 'first' })
    expect(a.statusCode).toBe(201)
    expect((await s.admin.post(ORGS, { name: 'Alpha' })).json()).toEqual({ name: ['This field must be unique.'] })
    expect((await s.admin.post(ORGS, { name: '' })).json()).toEqual({ name: ['This field may not be blank.'] })
    const alpha = a.json().id
    const current = await s.admin.delete(`${ORGS}${alpha}/`, { 'x-jms-org': alpha })
    expect(current.statusCode).toBe(403)
    expect(current.json().detail).toBe('The current organization (Alpha) cannot be deleted')
    expect((await s.admin.delete(`${ORGS}${ORG_IDS.DEFAULT}/`, { 'x-jms-org': 'ROOT' })).statusCode).toBe(403)
    await s.admin.post('/api/v1/users/groups/', { name: 'g' }, { 'x-jms-org': alpha })
    const busy = await s.admin.delete(`${ORGS}${alpha}/`)
    expect(busy.statusCode).toBe(403)
    expect(busy.json().detail).toBe('The organization have resource (User group) cannot be deleted')
    const b = (await s.admin.post(ORGS, { name: 'Beta' })).json()
    await setSettings(s.t.database.db, { AUTH_LDAP_SYNC_ORG_ID: b.id })
    expect((await s.admin.delete(`${ORGS}${b.id}/`)).json().detail).toBe('LDAP synced organization cannot be deleted')
    await setSettings(s.t.database.db, { AUTH_LDAP_SYNC_ORG_ID: ORG_IDS.DEFAULT })
    const u = await s.t.createUser({ username: 'betauser', orgId: b.id })
    expect(u).toBeTruthy()
    expect((await s.admin.delete(`${ORGS}${b.id}/`)).statusCode).toBe(204)
    expect((await s.admin.get(`${ORGS}${b.id}/`)).statusCode).toBe(404)
  })

  it('never bulk-deletes and keeps an operate log', async () => {
    const c = (await s.admin.post(ORGS, { name: 'Gamma' })).json()
    expect((await s.admin.delete(`${ORGS}?ids=${c.id}`)).statusCode).toBe(400)
    const logs = (await s.admin.get(`/api/v1/audits/activities/?resource_id=${c.id}`)).json()
    expect(logs[0].content).toBe('User Administrator(admin) Create this resource')
    expect((await s.admin.patch(`${ORGS}${c.id}/`, { name: 'x'.repeat(200), is_default: true })).json()).toEqual({ name: ['Ensure this field has no more than 128 characters.'] })
  })
})
