/** Manifest entry of the roles, system and organization (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import Cookies from 'js-cookie'
import { ACTIVE_TAB, chooseTab } from '../../../ui/detail/activeTab.ts'
import { defineEntries } from '../../../router/resources.ts'

export const ROLE_ENTRIES = defineEntries([
  {
    // System and organization roles share the Role* routes; `?scope=` (or the list's tab) picks the endpoint.
    key: 'roles',
    model: 'rbac.role',
    url: '/api/v1/rbac/roles/',
    path: '/console/users/roles',
    routeName: 'Role',
    typeLabel: msg`Role`,
    titles: { list: msg`Roles`, create: msg`Create role`, update: msg`Update role`, detail: msg`Role details` },
    perms: {
      view: 'rbac.view_orgrole|rbac.view_systemrole', add: 'rbac.add_orgrole|rbac.add_systemrole',
      change: 'rbac.change_orgrole|rbac.change_systemrole', delete: 'rbac.delete_orgrole|rbac.delete_systemrole',
    },
    licenseRequired: true,
    label: 'display_name',
    defaultOrder: null,
    // As the role pages choose (src/views/console/roles): `?scope=`, else on the list the remembered tab.
    pageUrl: (kind, search, can) => {
      const given = search.scope === 'system' || search.scope === 'org' ? search.scope : undefined
      if (given) return `/api/v1/rbac/${given}-roles/`
      if (kind !== 'list') return '/api/v1/rbac/roles/'
      const tabs = ['system', 'org'].filter((scope) => can(`rbac.view_${scope}role`))
      const scope = chooseTab(tabs, search[ACTIVE_TAB], Cookies.get(ACTIVE_TAB), 'system')
      return scope ? `/api/v1/rbac/${scope}-roles/` : undefined
    },
  },
])
