/** Manifest entry of asset permissions (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const PERMS_ENTRIES = defineEntries([
  {
    key: 'asset-permissions',
    model: 'perms.assetpermission',
    url: '/api/v1/perms/asset-permissions/',
    path: '/console/perms/asset-permissions',
    routeName: 'AssetPermission',
    typeLabel: msg`Asset permission`,
    titles: { list: msg`Asset permissions`, create: msg`Create asset permission`, update: msg`Update asset permission`, detail: msg`Asset permission details` },
    related: { users: 'users.user', user_groups: 'users.usergroup', assets: 'assets.asset', nodes: 'assets.node' },
  },
])
