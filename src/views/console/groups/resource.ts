/** User groups (contract §5.1): members are the `users` m2m, changed by PATCH. */
import { msg } from '@lingui/core/macro'
import { crudRoutes, defineResource } from '../../../ui/common/resource.ts'

export const userGroupResource = defineResource({
  url: '/api/v1/users/groups/',
  routes: crudRoutes('UserGroup', '/console/users/groups'),
  typeLabel: msg`User group`,
  perms: { view: 'users.view_usergroup', add: 'users.add_usergroup', change: 'users.change_usergroup', delete: 'users.delete_usergroup' },
})
