/** Manifest entries of organizations (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const ORG_ENTRIES = defineEntries([
  {
    key: 'organizations',
    model: 'orgs.organization',
    url: '/api/v1/orgs/orgs/',
    path: '/settings/orgs',
    routeName: 'Organization',
    typeLabel: msg`Organization`,
    titles: { list: msg`Organizations`, create: msg`Create organization`, update: msg`Update organization`, detail: msg`Organization details` },
    perms: { view: 'orgs.view_organization', add: 'orgs.add_organization', change: 'orgs.change_organization', delete: 'orgs.delete_organization' },
    icon: 'orgs',
    licenseRequired: true,
  },
])
