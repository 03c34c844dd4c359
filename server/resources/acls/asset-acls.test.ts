/** Command groups, command filter ACLs, login asset ACLs and their decision endpoints (docs/acls.md). */
import { describe, expect, it } from 'vitest'
import { ROLE_IDS } from '../../rbac/catalog.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const GROUPS = '/api/v1/acls/command-groups/'
const CMD = '/api/v1/acls/command-filter-acls/'
const LOGIN = '/api/v1/acls/login-asset-acls/'
const HOSTS = '/api/v1/assets/hosts/'

describe(`ACLs and command groups (${dbKind()})`, () => {
  const s = useTestServer()

  it('creates command groups, refuses an expression that does not compile, and names are unique per org', async () => {
    const g = await s.admin.post(GROUPS, { name: 'danger', content: 'rm -rf\nreboot' })
    expect(g.statusCode).toBe(201)
    expect(g.json()).toMatchObject({ type: { value: 'command', label: 'Command' }, ignore_case: true, content: 'rm -rf\nreboot', org_id: expect.any(String) })
    const bad = await s.admin.post(GROUPS, { name: 're', type: 'regex', content: '(unclosed' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().content[0]).toMatch(/^The generated regular expression is incorrect: /)
    expect((await s.admin.post(GROUPS, { name: 'danger', content: 'x' })).json()).toEqual({ name: ['This field must be unique.'] })
    expect((await s.admin.post(GROUPS, { name: 'empty', content: '' })).statusCode).toBe(400)
    const patched = await s.admin.patch(`${GROUPS}${g.json().id}/`, { type: 'regex', content: '[' })
    expect(patched.statusCode).toBe(400)
    expect((await s.admin.get(`${GROUPS}${g.json().id}/`)).json().type.value).toBe('command')
  })

  it('fills matcher defaults, flattens them read-only, validates actions, reviewers, IP rules and periods', async () => {
    const g = (await s.admin.get(`${GROUPS}?name=danger`)).json()[0]
    const r = await s.admin.post(CMD, { name: 'no rm', users: {}, assets: { name_group: ['web-1'] }, accounts: { username_group: ['root'] }, command_groups: [g.id] })
    expect(r.statusCode).toBe(201)
    expect(r.json()).toMatchObject({
      priority: 50, action: { value: 'reject' }, users: { username_group: ['*'] }, assets: { name_group: ['web-1'], address_group: ['*'] },
      users_username_group: ['*'], assets_name_group: ['web-1'], accounts_username_group: ['root'],
      command_groups: [{ id: g.id, name: 'danger' }], command_groups_amount: 1, reviewers_amount: 0, is_active: true,
    })
    const bad = await s.admin.post(CMD, { name: 'x', users: { username_group: 'alice' }, assets: {}, accounts: {}, action: 'notice', priority: 101 })
    expect(bad.json()).toEqual({
      users: { username_group: ['Expected a list of items but got type "str".'] },
      action: ['"notice" is not a valid choice.'],
      priority: ['Ensure this value is less than or equal to 100.'],
    })
    expect((await s.admin.post(CMD, { name: 'defaults' })).json()).toMatchObject({ users: { username_group: ['*'] }, assets: { name_group: ['*'], address_group: ['*'] }, accounts: { username_group: ['*'] } })
    expect((await s.admin.post(CMD, { name: 'x', users: {}, assets: {}, accounts: {}, action: 'review', reviewers: [] })).json()).toEqual({ reviewers: ['This field is required.'] })
    const la = await s.admin.post(LOGIN, { name: 'office', users: {}, assets: {}, accounts: {}, action: 'notice', rules: { ip_group: ['10.0.0.0/8'], time_period: [{ id: 1, value: '09:00~18:00' }] } })
    expect(la.statusCode).toBe(201)
    expect(la.json()).toMatchObject({ action: { value: 'notice', label: 'Notice' }, rules: { ip_group: ['10.0.0.0/8'], time_period: [{ id: 1, value: '09:00~18:00' }] } })
    const badRules = await s.admin.post(LOGIN, { name: 'y', users: {}, assets: {}, accounts: {}, action: 'warning', rules: { ip_group: ['nope'], time_period: [{ id: 7, value: '9~18' }] } })
    expect(badRules.json()).toEqual({
      action: ['"warning" is not a valid choice.'],
      rules: { ip_group: ['IP address invalid: `nope`'], time_period: ['Time period invalid: `{"id":7,"value":"9~18"}`'] },
    })
    const zh = await s.admin.options(LOGIN, { 'accept-language': 'zh-hans' })
    expect(zh.json().actions.POST.action.choices).toContainEqual({ value: 'notice', label: '通知' })
  })

  it('decides commands and logins through the endpoints, per organization and permission', async () => {
    const alice = await s.t.createUser({ username: 'alice', orgRoles: [ROLE_IDS.OrgUser] })
    const host = (await s.admin.post(HOSTS, { name: 'web-1', address: '10.0.0.5', platform: 1 })).json()
    const g = (await s.admin.get(`${GROUPS}?name=danger`)).json()[0]
    const allow = (await s.admin.post(GROUPS, { name: 'ls', type: 'regex', content: '^ls\\b', ignore_case: false })).json()
    const accept = (await s.admin.post(CMD, { name: 'ls ok', priority: 10, users: {}, assets: {}, accounts: {}, action: 'accept', command_groups: [allow.id] })).json()
    const subject = { user_id: alice, asset_id: host.id, account_username: 'root' }

    const rm = await s.admin.post(`${CMD}decide/`, { ...subject, command: 'sudo RM  -rf /' })
    expect(rm.statusCode).toBe(200)
    expect(rm.json()).toMatchObject({ action: { value: 'reject', label: 'Reject' }, acl: { name: 'no rm', priority: 50 }, command_group: { id: g.id, name: 'danger', pattern: 'rm\\s+\\-rf|\\breboot\\b' }, matched: 'RM  -rf' })
    expect((await s.admin.post(`${CMD}decide/`, { ...subject, command: 'ls -l' })).json()).toMatchObject({ action: { value: 'accept' }, acl: { id: accept.id } })
    expect((await s.admin.post(`${CMD}decide/`, { ...subject, command: 'LS -l' })).json()).toMatchObject({ action: { value: 'accept' }, acl: null, command_group: null })
    // another account: "no rm" is for root only
    expect((await s.admin.post(`${CMD}decide/`, { ...subject, account_username: 'admin', command: 'rm -rf /' })).json().acl).toBeNull()
    // inactive ACLs never decide
    await s.admin.patch(`${CMD}${(await s.admin.get(`${CMD}?name=no%20rm`)).json()[0].id}/`, { is_active: false })
    expect((await s.admin.post(`${CMD}decide/`, { ...subject, command: 'rm -rf /' })).json().acl).toBeNull()

    const monday10 = '2024-06-03T10:00:00+08:00'
    expect((await s.admin.post(`${LOGIN}decide/`, { ...subject, remote_addr: '10.1.2.3', time: monday10 })).json())
      .toMatchObject({ action: { value: 'notice' }, acl: { name: 'office' } })
    expect((await s.admin.post(`${LOGIN}decide/`, { ...subject, remote_addr: '192.168.1.1', time: monday10 })).json()).toEqual({ action: { value: 'accept', label: 'Accept' }, acl: null })
    expect((await s.admin.post(`${LOGIN}decide/`, { ...subject, remote_addr: '10.1.2.3', time: '2024-06-03T20:00:00+08:00' })).json().acl).toBeNull()

    // bad input: 400 with field errors
    const bad = await s.admin.post(`${CMD}decide/`, { user_id: 'x', asset_id: '00000000-0000-0000-0000-00000000dead', account_username: 5 })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ user_id: ['Must be a valid UUID.'], account_username: ['Not a valid string.'], command: ['This field is required.'] })
    const missing = await s.admin.post(`${LOGIN}decide/`, { user_id: alice, asset_id: '00000000-0000-0000-0000-00000000dead', time: 'soon' })
    expect(missing.json()).toMatchObject({ time: [expect.stringMatching(/^Datetime has wrong format/)] })
    expect((await s.admin.post(`${LOGIN}decide/`, { user_id: alice, asset_id: '00000000-0000-0000-0000-00000000dead' })).json()).toEqual({ asset_id: ['Asset object does not exist'] })

    // an ordinary org user may not ask; an asset of another organization is not visible from this one
    const aliceClient = await s.t.as('alice')
    expect((await aliceClient.post(`${CMD}decide/`, { ...subject, command: 'rm' })).statusCode).toBe(403)
    const org = (await s.admin.post('/api/v1/orgs/orgs/', { name: 'Other' })).json()
    const foreign = await s.admin.post(`${CMD}decide/`, { ...subject, command: 'ls' }, { 'x-jms-org': org.id })
    expect(foreign.json()).toEqual({ asset_id: ['Asset object does not exist'] })
    // ACLs of another organization do not decide for this asset, even from ROOT
    const otherGroup = (await s.admin.post(GROUPS, { name: 'all', type: 'regex', content: '.', org_id: org.id }, { 'x-jms-org': org.id })).json()
    expect((await s.admin.post(CMD, { name: 'everything', priority: 1, users: {}, assets: {}, accounts: {}, command_groups: [otherGroup.id] }, { 'x-jms-org': org.id })).statusCode).toBe(201)
    const root = await s.admin.post(`${CMD}decide/`, { ...subject, command: 'ls' }, { 'x-jms-org': '00000000-0000-0000-0000-000000000000' })
    expect(root.json()).toMatchObject({ acl: { id: accept.id } })
  })
})
