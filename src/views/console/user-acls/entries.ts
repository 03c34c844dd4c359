/** Manifest entries of user login ACLs (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const USER_ACL_ENTRIES = defineEntries([
  {
    key: 'user-acls',
    model: 'acls.loginacl',
    url: '/api/v1/acls/login-acls/',
    path: '/console/users/users/user-acl',
    parent: 'users',
    routeName: 'UserLoginACL',
    typeLabel: msg`Login ACL`,
    titles: { list: msg`User login ACLs`, create: msg`Create user login ACL`, update: msg`Update user login ACL`, detail: msg`User login ACL details` },
    defaultOrder: 'priority',
    related: { user: 'users.user', reviewers: 'users.user' },
  },
])
