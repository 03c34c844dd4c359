/** User login ACLs, nested under a user: `/console/users/users/user-acl?user=<id>` (contract §5.4). */
import { withQuery } from '../../../api/resources.ts'
import { manifestItem } from '../../entries.ts'

export const loginAclResource = manifestItem('user-acls').resource
export const LOGIN_ACLS_URL = loginAclResource.url

/** The ACLs of one user (the `user` filter of the list URL). */
export function userAclsUrl(userId: string | undefined): string {
  return userId ? withQuery(LOGIN_ACLS_URL, { user: userId }) : LOGIN_ACLS_URL
}
