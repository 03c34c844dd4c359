/** User login ACLs, nested under a user: `/console/users/users/user-acl?user=<id>` (contract §5.4). */
import { msg } from '@lingui/core/macro'
import { withQuery } from '../../../api/resources.ts'
import { crudRoutes, defineResource } from '../../../ui/common/resource.ts'

export const LOGIN_ACLS_URL = '/api/v1/acls/login-acls/'

export const loginAclResource = defineResource({
  url: LOGIN_ACLS_URL,
  routes: crudRoutes('UserLoginACL', '/console/users/users/user-acl'),
  typeLabel: msg`Login ACL`,
})

/** The ACLs of one user (the `user` filter of the list URL). */
export function userAclsUrl(userId: string | undefined): string {
  return userId ? withQuery(LOGIN_ACLS_URL, { user: userId }) : LOGIN_ACLS_URL
}
