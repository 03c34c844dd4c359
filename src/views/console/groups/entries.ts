/** Manifest entries of user groups (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const USER_GROUP_ENTRIES = defineEntries([
  {
    key: 'user-groups',
    model: 'users.usergroup',
    url: '/api/v1/users/groups/',
    path: '/console/users/groups',
    routeName: 'UserGroup',
    typeLabel: msg`User group`,
    titles: { list: msg`User groups`, create: msg`Create user group`, update: msg`Update user group`, detail: msg`User group details` },
    perms: { view: 'users.view_usergroup', add: 'users.add_usergroup', change: 'users.change_usergroup', delete: 'users.delete_usergroup' },
    related: { users: 'users.user' },
  },
])
