import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const GROUPS = '/api/v1/users/groups/'
const RELATIONS = '/api/v1/users/users-groups-relations/'
const OTHER_ORG = '00000000-0000-0000-0000-0000000000bb'

describe(`user groups and relations (${dbKind()})`, () => {
  let member: string
  let outsider: string

  const s = useTestServer({}, async ({ t }) => {
    await sql`insert into organizations (id, name) values (${OTHER_ORG}, 'Other')`.execute(t.database.db)
    member = await t.createUser({ username: 'member' })
    outsider = await t.createUser({ username: 'outsider', orgId: OTHER_ORG })
  })

  it('limits members to users of the current organization and names unique per organization', async () => {
    const bad = await s.admin.post(GROUPS, { name: 'devs', users: [member, outsider] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ users: [`Invalid pk "${outsider}" - object does not exist.`] })
    const g = (await s.admin.post(GROUPS, { name: 'devs', users: [member] })).json()
    expect(g).toMatchObject({ name: 'devs', users_amount: 1, users: [{ id: member, name: 'member' }] })
    const other = await s.admin.post(GROUPS, { name: 'devs', users: [outsider] }, { 'x-jms-org': OTHER_ORG })
    expect(other.statusCode).toBe(201)
    expect(other.json().org_name).toBe('Other')
    expect((await s.admin.get(GROUPS)).json().map((x: { name: string }) => x.name)).toEqual(['devs'])
    expect((await s.admin.get(GROUPS, { 'x-jms-org': 'ROOT' })).json()).toHaveLength(2)
    expect((await s.admin.get(`${GROUPS}${other.json().id}/`)).statusCode).toBe(404)
    // the user's groups show the current org's groups only
    const u = (await s.admin.get(`/api/v1/users/users/${member}/`)).json()
    expect(u.groups).toEqual([{ id: g.id, name: 'devs' }])
  })

  it('saves in ROOT only with an explicit org_id', async () => {
    const r = await s.admin.post(GROUPS, { name: 'rooted' }, { 'x-jms-org': 'ROOT' })
    expect(r.statusCode).toBe(400)
    expect(r.json()).toEqual({ org_id: ['Please save in a org'] })
    const ok = await s.admin.post(GROUPS, { name: 'rooted', org_id: OTHER_ORG }, { 'x-jms-org': 'ROOT' })
    expect(ok.statusCode).toBe(201)
    expect(ok.json().org_id).toBe(OTHER_ORG)
  })

  it('lists, adds and removes memberships through the relation endpoint', async () => {
    const g = (await s.admin.get(`${GROUPS}?name=devs`)).json()[0]
    const extra = await s.t.createUser({ username: 'extra' })
    const rel = await s.admin.get(`${RELATIONS}?usergroup=${g.id}`)
    expect(rel.json()).toEqual([{ id: expect.any(Number), user: member, usergroup: g.id, user_display: 'member(member)', usergroup_display: 'devs' }])
    const add = await s.admin.post(RELATIONS, [{ user: extra, usergroup: g.id }])
    expect(add.statusCode).toBe(201)
    const dup = await s.admin.post(RELATIONS, [{ user: extra, usergroup: g.id }])
    expect(dup.statusCode).toBe(400)
    expect((await s.admin.get(`${GROUPS}${g.id}/`)).json().users_amount).toBe(2)
    expect((await s.admin.delete(`${RELATIONS}?usergroup=${g.id}&user=${extra}`)).statusCode).toBe(204)
    expect((await s.admin.get(`${GROUPS}${g.id}/`)).json().users_amount).toBe(1)
    expect((await s.admin.put(`${RELATIONS}${rel.json()[0].id}/`, { user: extra })).statusCode).toBe(405)
    expect((await s.admin.get(`${RELATIONS}?usergroup=nope`)).statusCode).toBe(400)
  })

  it('refuses wrong types, too-long names and ignores read-only fields', async () => {
    const r = await s.admin.post(GROUPS, { name: 42, users_amount: 7, org_name: 'x', date_created: '2000-01-01' })
    expect(r.statusCode).toBe(201)
    expect(r.json()).toMatchObject({ name: '42', users_amount: 0, org_name: 'DEFAULT' })
    const bad = await s.admin.post(GROUPS, { name: true, users: 7 })
    expect(bad.json()).toEqual({ name: ['Not a valid string.'], users: ['Invalid pk "7" - object does not exist.'] })
  })

  it('deletes a group with its memberships and logs it', async () => {
    const g = (await s.admin.post(GROUPS, { name: 'tmp', users: [member] })).json()
    expect((await s.admin.delete(`${GROUPS}${g.id}/`)).statusCode).toBe(204)
    const rows = await sql`select 1 from user_group_members where usergroup_id = ${g.id}`.execute(s.t.database.db)
    expect(rows.rows).toHaveLength(0)
    const logs = (await s.admin.get(`/api/v1/audits/operate-logs/?action=delete&resource=tmp`)).json()
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({ resource_type: 'User group', action: { value: 'delete', label: 'Delete' } })
  })
})
