import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../../testing.ts'
import { checkLoginAcl } from './login-acls.ts'
import { isIpRule, timeMatches } from './rules.ts'

const ACLS = '/api/v1/acls/login-acls/'

describe('login ACL rules', () => {
  it('accepts *, addresses, subnets and ranges and nothing else', () => {
    for (const ok of ['*', '10.0.0.1', '10.0.0.0/8', '10.1.1.1-10.1.1.20', '2001:db8::1', '2001:db8::/64']) expect(isIpRule(ok)).toBe(true)
    for (const bad of ['10.0.0.300', '10.0.0.0/33', '10.1.1.20-10.1.1.1', 'example.com', '', '1.2.3.4-::1']) expect(isIpRule(bad)).toBe(false)
  })
  it('matches time periods by weekday (0 = Sunday) in the zone, 00:00 ending the day', () => {
    const sundayNoonShanghai = new Date('2024-06-02T04:00:00Z')
    expect(timeMatches([], sundayNoonShanghai, 'Asia/Shanghai')).toBe(true)
    expect(timeMatches([{ id: 0, value: '09:00~13:00' }], sundayNoonShanghai, 'Asia/Shanghai')).toBe(true)
    expect(timeMatches([{ id: 0, value: '13:00~00:00' }], sundayNoonShanghai, 'Asia/Shanghai')).toBe(false)
    expect(timeMatches([{ id: 1, value: '00:00~00:00' }], sundayNoonShanghai, 'Asia/Shanghai')).toBe(false)
    expect(timeMatches([{ id: 0, value: '00:00~01:00、11:30~12:30' }], sundayNoonShanghai, 'Asia/Shanghai')).toBe(true)
  })
})

describe(`login ACLs (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  let user: string
  let reviewer: string

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    user = await t.createUser({ username: 'acluser' })
    reviewer = await t.createUser({ username: 'reviewer' })
  })
  afterAll(async () => { await t.close() })

  it('creates rules with defaults and validates ip groups, periods, priorities and reviewers', async () => {
    const r = await admin.post(ACLS, { name: 'office', user })
    expect(r.statusCode).toBe(201)
    expect(r.json()).toMatchObject({
      priority: 50, user: { id: user, name: 'acluser' }, rules: { ip_group: ['*'], time_period: [] },
      action: { value: 'reject', label: 'Reject' }, reviewers: [], reviewers_amount: 0, is_active: true,
    })
    expect(r.json()).not.toHaveProperty('org_id')
    const bad = await admin.post(ACLS, { name: 'x', user, priority: 0, action: 'notice', rules: { ip_group: ['1.2.3.4', 'nope'], time_period: [{ id: 9, value: 'x' }] } })
    expect(bad.json()).toEqual({
      priority: ['Ensure this value is greater than or equal to 1.'],
      action: ['"notice" is not a valid choice.'],
      rules: { ip_group: ['IP address invalid: `nope`'], time_period: ['Time period invalid: `{"id":9,"value":"x"}`'] },
    })
    expect((await admin.post(ACLS, { name: 'x', user: 'nope' })).json()).toEqual({ user: ['Invalid pk "nope" - object does not exist.'] })
    expect((await admin.post(ACLS, { name: 'x', user, rules: 'all' })).json()).toEqual({ rules: ['Invalid data. Expected a dictionary, but got str.'] })
    expect((await admin.post(ACLS, { name: 'x', user, action: 'review', reviewers: [] })).json()).toEqual({ reviewers: ['This field is required.'] })
    const rev = await admin.post(ACLS, { name: 'rev', user, action: 'review', reviewers: [reviewer], priority: '70' })
    expect(rev.json()).toMatchObject({ reviewers: [{ id: reviewer, name: 'reviewer' }], reviewers_amount: 1, priority: 70 })
    expect((await admin.get(`${ACLS}?user=${user}`)).json().map((a: { name: string }) => a.name)).toEqual(['office', 'rev'])
  })

  it('decides logins: first matching active rule by priority, else null', async () => {
    const now = new Date('2024-06-03T04:00:00Z') // Monday 12:00 in Shanghai
    const other = await t.createUser({ username: 'nobody' })
    expect(await checkLoginAcl(t.database.db, { id: other }, '10.0.0.1', now)).toBeNull()
    expect(await checkLoginAcl(t.database.db, { id: user }, '10.0.0.1', now)).toBe('reject')
    await admin.post(ACLS, { name: 'lan', user, priority: 10, action: 'accept', rules: { ip_group: ['10.0.0.0/8'], time_period: [{ id: 1, value: '08:00~18:00' }] } })
    expect(await checkLoginAcl(t.database.db, { id: user }, '10.2.3.4', now)).toBe('accept')
    expect(await checkLoginAcl(t.database.db, { id: user }, '192.168.1.1', now)).toBe('reject')
    expect(await checkLoginAcl(t.database.db, { id: user }, '10.2.3.4', new Date('2024-06-03T12:00:00Z'))).toBe('reject')
    const office = (await admin.get(`${ACLS}?user=${user}&name=office`)).json()[0]
    await admin.patch(`${ACLS}${office.id}/`, { is_active: false })
    expect(await checkLoginAcl(t.database.db, { id: user }, '192.168.1.1', now)).toBe('review')
  })
})
