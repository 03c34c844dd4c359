/** Users: the resource described once (contract §4.11, §5.1). */
import { msg } from '@lingui/core/macro'
import { crudRoutes, defineResource } from '../../../ui/common/resource.ts'

export const USERS_URL = '/api/v1/users/users/'
export const GROUPS_URL = '/api/v1/users/groups/'
export const SYSTEM_ROLES_URL = '/api/v1/rbac/system-roles/'
export const ORG_ROLES_URL = '/api/v1/rbac/org-roles/'

export const userResource = defineResource({
  url: USERS_URL,
  routes: crudRoutes('User', '/console/users/users'),
  typeLabel: msg`User`,
})

/** Removing from the current organization is a membership change, allowed with either permission. */
export const REMOVE_USER_PERM = 'users.remove_user|users.change_user'
