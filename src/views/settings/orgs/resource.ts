/** Organizations, under settings (contract §5.1): system-scope permissions `orgs.*_organization`. */
import { msg } from '@lingui/core/macro'
import { crudRoutes, defineResource } from '../../../ui/common/resource.ts'

export const organizationResource = defineResource({
  url: '/api/v1/orgs/orgs/',
  routes: crudRoutes('Organization', '/settings/orgs'),
  typeLabel: msg`Organization`,
  perms: { view: 'orgs.view_organization', add: 'orgs.add_organization', change: 'orgs.change_organization', delete: 'orgs.delete_organization' },
})
