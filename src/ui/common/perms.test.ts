import { describe, expect, it } from 'vitest'
import { hasPerm, hasPerms, resourcePerms } from './perms.ts'

const perms = new Set(['users.view_user', 'rbac.view_orgrole'])

describe('hasPerm / hasPerms', () => {
  it('reads alternatives and requires every entry', () => {
    expect(hasPerm(perms, 'users.view_user')).toBe(true)
    expect(hasPerm(perms, 'rbac.view_systemrole|rbac.view_orgrole')).toBe(true)
    expect(hasPerm(perms, 'users.add_user')).toBe(false)
    expect(hasPerms(perms, ['users.view_user', 'rbac.view_systemrole|rbac.view_orgrole'])).toBe(true)
    expect(hasPerms(perms, ['users.view_user', 'users.add_user'])).toBe(false)
    expect(hasPerms(perms, [])).toBe(true)
    expect(hasPerm(new Set(), '')).toBe(true)
  })
})

describe('resourcePerms', () => {
  it('derives app.action_resource from the API URL', () => {
    expect(resourcePerms('/api/v1/users/users/')).toEqual({ view: 'users.view_user', add: 'users.add_user', change: 'users.change_user', delete: 'users.delete_user' })
    expect(resourcePerms('/api/v1/acls/login-acls/?user=1').view).toBe('acls.view_loginacl')
    expect(resourcePerms('/api/v1/accounts/account-templates/').add).toBe('accounts.add_accounttemplate')
  })
  it('takes overrides', () => {
    expect(resourcePerms('/api/v1/users/groups/', { view: 'users.view_usergroup' }).view).toBe('users.view_usergroup')
  })
})
