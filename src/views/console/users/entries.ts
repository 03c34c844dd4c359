/** Manifest entries of users (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const USER_ENTRIES = defineEntries([
  {
    key: 'users',
    model: 'users.user',
    url: '/api/v1/users/users/',
    path: '/console/users/users',
    routeName: 'User',
    typeLabel: msg`User`,
    titles: { list: msg`User list`, create: msg`Create user`, update: msg`Update user`, detail: msg`User details` },
    defaultOrder: null,
    related: { groups: 'users.usergroup', system_roles: 'rbac.systemrole', org_roles: 'rbac.orgrole' },
  },
])
