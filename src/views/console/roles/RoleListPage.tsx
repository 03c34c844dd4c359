/** RoleList: system roles and organization roles, one tab each (the tab is remembered like every tab). */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { TabbedListPage, type ListTab } from '../../../ui/list/TabbedListPage.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { routePath } from '../../../ui/common/resource.ts'
import { CellValue } from '../../../ui/table/CellValue.tsx'
import { isBuiltin, roleName, roleResources, type RoleScope } from './resource.ts'

export function roleListConfig(scope: RoleScope): ListConfig {
  const resource = roleResources[scope]
  const { routes } = resource
  return {
    resource,
    label: scope === 'system' ? msg`System roles` : msg`Organization roles`,
    tableName: scope === 'system' ? 'SystemRoleList' : 'OrgRoleList',
    linkSearch: { scope },
    rowName: roleName,
    columns: {
      min: ['name', 'actions'],
      defaults: ['name', 'builtin', 'users_amount', 'comment', 'actions'],
      exclude: ['display_name', 'scope'],
      // Built-in roles show their translated display name; the column still sorts by name.
      overrides: { name: { render: (row) => <CellValue kind="detailLink" value={roleName(row)} to={routePath(routes.detail!, { id: row.id })} search={{ scope }} /> } },
    },
    commands: {
      overrides: {
        update: { visible: (_e, { row }) => !isBuiltin(row) },
        delete: { visible: (_e, { row }) => !isBuiltin(row) },
      },
    },
    searchExclude: ['id', 'scope'],
  }
}

const ROLE_TABS: readonly ListTab[] = (['system', 'org'] as const).map((scope) => ({
  key: scope,
  label: scope === 'system' ? msg`System roles` : msg`Organization roles`,
  perm: roleResources[scope].perms.view,
  config: () => roleListConfig(scope),
}))

export function RoleListPage() {
  const { t } = useLingui()
  return <TabbedListPage title={t`Roles`} tabs={ROLE_TABS} fallback="system" tabParam="scope" />
}
