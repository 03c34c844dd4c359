/** RoleDetail: information, the permission tree and the users bound to the role. */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { actionUrl } from '../../../api/resources.ts'
import { hasPerm } from '../../../ui/common/perms.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { userResource } from '../users/resource.ts'
import { isBuiltin, roleName, roleResourceFor, roleResources, scopeOf } from './resource.ts'
import { RolePermissions } from './RolePermissions.tsx'

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields, ['name', 'display_name', 'scope', 'builtin', 'users_amount', 'created_by', 'date_created', 'date_updated', 'comment'])} />
}

function Permissions({ object, access, reload }: DetailContext) {
  const scope = scopeOf(object.scope)
  const canChange = scope !== undefined && hasPerm(access.perms, roleResources[scope].perms.change)
  return <RolePermissions role={object} canChange={canChange} onSaved={reload} />
}

function Users({ object, url }: DetailContext) {
  const config = useMemo<ListConfig>(() => ({
    resource: { ...userResource, url: actionUrl(url, object.id, 'users') },
    label: msg`Users`,
    tableName: 'RoleUsers',
    stateIn: 'local',
    defaultOrder: null,
    commands: { overrides: { create: null, bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null, import: null, export: null } },
    // The bound-users action has no OPTIONS of its own: its three columns are named here.
    columns: { min: ['name'], exclude: ['actions'], fields: [{ name: 'name', label: msg`Name` }, { name: 'username', label: msg`Username` }] },
  }), [url, object.id])
  return <ListTable config={config} />
}

export function roleDetailConfig(scope: unknown): DetailConfig {
  return {
    resource: roleResourceFor(scope),
    keepSearch: ['scope'],
    rowName: roleName,
    tabs: [
      { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
      { id: 'Permissions', label: msg`Permissions`, render: (ctx) => <Permissions {...ctx} /> },
      { id: 'Users', label: msg`Users`, render: (ctx) => <Users {...ctx} /> },
    ],
    commands: {
      overrides: {
        update: { visible: (_e, { row }) => !isBuiltin(row) },
        delete: { visible: (_e, { row }) => !isBuiltin(row) },
      },
    },
  }
}

export function RoleDetailPage() {
  const search = useSearch({ strict: false }) as { scope?: string }
  const config = useMemo(() => roleDetailConfig(search.scope), [search.scope])
  return <GenericDetailPage config={config} />
}
