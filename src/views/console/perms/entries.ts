/** Manifest entry of asset permissions (data and lazy imports only: part of the first chunk). */
import { msg } from '@lingui/core/macro'
import type { ResourceEntry } from '../../../router/resources.ts'

export const PERMS_ENTRIES: readonly ResourceEntry[] = [
  {
    key: 'asset-permissions',
    model: 'perms.assetpermission',
    url: '/api/v1/perms/asset-permissions/',
    path: '/console/perms/asset-permissions',
    routeName: 'AssetPermission',
    typeLabel: msg`Asset permission`,
    titles: { list: msg`Asset permissions`, create: msg`Create asset permission`, update: msg`Update asset permission`, detail: msg`Asset permission details` },
    related: { users: 'users.user', user_groups: 'users.usergroup', assets: 'assets.asset', nodes: 'assets.node' },
    pages: {
      list: () => import('./AssetPermissionListPage.tsx').then((m) => m.AssetPermissionListPage),
      create: () => import('./AssetPermissionPages.tsx').then((m) => m.AssetPermissionFormPage),
      update: () => import('./AssetPermissionPages.tsx').then((m) => m.AssetPermissionFormPage),
      detail: () => import('./AssetPermissionPages.tsx').then((m) => m.AssetPermissionDetailPage),
    },
  },
]
