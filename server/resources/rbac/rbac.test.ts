import { describe, expect, it } from 'vitest'
import { PERMISSION_BY_CODENAME, permissionsForScope, ROLE_IDS } from '../../rbac/catalog.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const id = (codename: string) => PERMISSION_BY_CODENAME.get(codename)!.id

describe(`roles, bindings and permissions (${dbKind()})`, () => {

  const s = useTestServer()

  it('lists builtin roles first with translated display names and user counts', async () => {
    const list = (await s.admin.get('/api/v1/rbac/system-roles/')).json()
    expect(list.map((r: { name: string }) => r.name)).toEqual(['SystemAdmin', 'SystemAuditor', 'SystemComponent', 'User'])
    expect(list[0]).toMatchObject({ builtin: true, scope: { value: 'system', label: 'System' }, users_amount: 1 })
    expect(list[0]).not.toHaveProperty('permissions')
    const zh = (await s.admin.get('/api/v1/rbac/org-roles/?name=OrgAdmin', { 'accept-language': 'zh' })).json()
    expect(zh[0].display_name).toBe('组织管理员')
    expect((await s.admin.get('/api/v1/rbac/roles/')).json()).toHaveLength(7)
  })

  it('creates custom roles with scope-filtered permissions, clones, and protects builtins', async () => {
    const r = await s.admin.post('/api/v1/rbac/org-roles/', {
      name: 'Helpdesk', scope: 'system', permissions: [id('users.view_user'), id('orgs.add_organization'), id('users.change_user')],
    })
    expect(r.statusCode).toBe(201)
    expect(r.json().scope.value).toBe('org')
    const perms = (await s.admin.get(`/api/v1/rbac/org-roles/${r.json().id}/permissions/`)).json()
    expect(perms.map((p: { codename: string }) => p.codename).sort()).toEqual(['change_user', 'view_user'])
    expect((await s.admin.post('/api/v1/rbac/org-roles/', { name: 'Helpdesk' })).json()).toEqual({ name: ['This field must be unique.'] })
    expect((await s.admin.post('/api/v1/rbac/system-roles/', { name: 'Helpdesk' })).statusCode).toBe(201)
    expect((await s.admin.post('/api/v1/rbac/org-roles/', { name: 'x', permissions: [999999] })).json()).toEqual({ permissions: ['Invalid pk "999999" - object does not exist.'] })
    expect((await s.admin.post('/api/v1/rbac/org-roles/', { name: 'x', permissions: 'all' })).json()).toEqual({ permissions: ['Expected a list of items but got type "str".'] })
    expect((await s.admin.post('/api/v1/rbac/roles/', { name: 'y' })).json()).toEqual({ scope: ['This field is required.'] })
    const clone = await s.admin.post(`/api/v1/rbac/org-roles/?clone_from=${ROLE_IDS.OrgAuditor}`, { name: 'Auditor copy' })
    expect(clone.statusCode).toBe(201)
    const cloned = (await s.admin.get(`/api/v1/rbac/org-roles/${clone.json().id}/permissions/`)).json()
    expect(cloned.map((p: { codename: string }) => p.codename)).toContain('view_operatelog')
    const builtin = await s.admin.patch(`/api/v1/rbac/org-roles/${ROLE_IDS.OrgUser}/`, { comment: 'x' })
    expect(builtin.statusCode).toBe(403)
    expect(builtin.json().detail).toBe("Internal role, can't be update/destroy")
    expect((await s.admin.delete(`/api/v1/rbac/org-roles/${ROLE_IDS.OrgUser}/`)).statusCode).toBe(403)
    expect((await s.admin.patch(`/api/v1/rbac/org-roles/${ROLE_IDS.OrgUser}/permissions/`, { permissions: [] })).statusCode).toBe(403)
  })

  it('edits permissions through the role permissions endpoint and the tree reflects them', async () => {
    const role = (await s.admin.post('/api/v1/rbac/system-roles/', { name: 'Tree' })).json()
    const set = await s.admin.patch(`/api/v1/rbac/system-roles/${role.id}/permissions/`, { permissions: [id('users.view_user'), id('users.add_user')] })
    expect(set.statusCode).toBe(200)
    expect(set.json().permissions.sort()).toEqual([id('users.view_user'), id('users.add_user')].sort())
    const tree = (await s.admin.get(`/api/v1/rbac/permissions/tree/?role=${role.id}`)).json() as Array<Record<string, any>>
    const leaf = tree.find((n) => n.id === String(id('users.view_user')))!
    expect(leaf).toMatchObject({ pId: 'model:console:users.user', isParent: false, checked: true, chkDisabled: false, title: 'users.view_user', name: 'View' })
    const model = tree.find((n) => n.id === 'model:console:users.user')!
    expect(model).toMatchObject({ isParent: true, checked: false, meta: { type: 'model', half: true } })
    const roots = tree.filter((n) => n.pId === null).map((n) => n.id)
    expect(roots).toEqual(['view:console', 'view:audit', 'view:workbench', 'view:setting'])
    expect(tree.filter((n) => !n.isParent)).toHaveLength(permissionsForScope('system').length)
    const org = (await s.admin.get('/api/v1/rbac/permissions/tree/?scope=org')).json() as Array<Record<string, any>>
    expect(org.some((n) => n.title === 'orgs.add_organization')).toBe(false)
    expect((await s.admin.get(`/api/v1/rbac/permissions/tree/?role=${ROLE_IDS.SystemAdmin}`)).json().every((n: { checked: boolean; chkDisabled: boolean }) => n.checked && n.chkDisabled)).toBe(true)
    expect((await s.admin.get('/api/v1/rbac/permissions/tree/?scope=bogus')).statusCode).toBe(400)
    expect((await s.admin.get('/api/v1/rbac/permissions/tree/?role=00000000-1111-2222-3333-444444444444')).statusCode).toBe(404)
    const list = (await s.admin.get('/api/v1/rbac/permissions/?scope=org&limit=5')).json()
    expect(list.results).toHaveLength(5)
    expect(list.results[0]).toEqual({ id: 1, name: 'Console view menu', codename: 'view_console', app_label: 'rbac', model: 'menupermission', scope: 'org' })
  })

  it('lists the users of a role and refuses deleting a bound role', async () => {
    const u = await s.t.createUser({ username: 'boundee' })
    const role = (await s.admin.post('/api/v1/rbac/org-roles/', { name: 'Bound' })).json()
    const b = await s.admin.post('/api/v1/rbac/org-role-bindings/', { user: u, role: role.id })
    expect(b.statusCode).toBe(201)
    expect(b.json()).toMatchObject({ user: u, user_display: 'boundee(boundee)', role: role.id, role_display: 'Bound', scope: { value: 'org' }, org_name: 'DEFAULT' })
    expect((await s.admin.get(`/api/v1/rbac/org-roles/${role.id}/users/`)).json()).toEqual([{ id: u, name: 'boundee', username: 'boundee' }])
    expect((await s.admin.get(`/api/v1/rbac/org-roles/${role.id}/`)).json().users_amount).toBe(1)
    const del = await s.admin.delete(`/api/v1/rbac/org-roles/${role.id}/`)
    expect(del.statusCode).toBe(403)
    expect(del.json().detail).toBe("The role has been bound to users, can't be destroy")
  })

  it('manages role bindings: duplicates, wrong scopes, last org role', async () => {
    const u = await s.t.createUser({ username: 'binder' })
    const dup = await s.admin.post('/api/v1/rbac/org-role-bindings/', { user: u, role: ROLE_IDS.OrgUser })
    expect(dup.json()).toEqual({ role: ['Has bound this role'] })
    const wrong = await s.admin.post('/api/v1/rbac/org-role-bindings/', { user: u, role: ROLE_IDS.SystemAdmin })
    expect(wrong.json()).toEqual({ role: [`Invalid pk "${ROLE_IDS.SystemAdmin}" - object does not exist.`] })
    const sys = await s.admin.post('/api/v1/rbac/system-role-bindings/', { user: u, role: ROLE_IDS.SystemAuditor })
    expect(sys.statusCode).toBe(201)
    expect(sys.json()).not.toHaveProperty('org')
    const list = (await s.admin.get(`/api/v1/rbac/org-role-bindings/?user=${u}`)).json()
    expect(list).toHaveLength(1)
    const last = await s.admin.delete(`/api/v1/rbac/org-role-bindings/${list[0].id}/`)
    expect(last.statusCode).toBe(400)
    expect(last.json().error).toMatch(/^User last role in org/)
    expect((await s.admin.get(`/api/v1/rbac/role-bindings/?user=${u}`)).json()).toHaveLength(3)
    expect((await s.admin.post('/api/v1/rbac/role-bindings/', { user: u, role: ROLE_IDS.OrgAdmin })).statusCode).toBe(405)
    const inRoot = await s.admin.post('/api/v1/rbac/org-role-bindings/', { user: u, role: ROLE_IDS.OrgAdmin }, { 'x-jms-org': 'ROOT' })
    expect(inRoot.json()).toEqual({ org: ['Please save in a org'] })
    // the binding made the user an org admin: the perms follow
    const plain = await s.t.as('binder')
    expect((await plain.get('/api/v1/users/users/')).statusCode).toBe(403)
    await s.admin.post('/api/v1/rbac/org-role-bindings/', { user: u, role: ROLE_IDS.OrgAdmin })
    expect((await plain.get('/api/v1/users/users/')).statusCode).toBe(200)
    expect((await plain.get('/api/v1/rbac/org-roles/')).statusCode).toBe(403)
  })
})
