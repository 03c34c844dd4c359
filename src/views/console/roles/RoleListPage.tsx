/** RoleList: system roles and organization roles, one tab each (the tab is remembered like every tab). */
import { Tab, TabList, makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import Cookies from 'js-cookie'
import { useMemo, useState } from 'react'
import { useAccess } from '../../../ui/common/access.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { hasPerm } from '../../../ui/common/perms.ts'
import { ACTIVE_TAB, chooseTab } from '../../../ui/detail/activeTab.ts'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { routePath } from '../../../ui/common/resource.ts'
import { CellValue } from '../../../ui/table/CellValue.tsx'
import { isBuiltin, roleName, roleResources, type RoleScope } from './resource.ts'

const useStyles = makeStyles({ tabs: { marginBottom: tokens.spacingVerticalM } })

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

export function RoleListPage() {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const navigate = useNavigate()
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const tabs = (['system', 'org'] as const).filter((s) => hasPerm(access.perms, roleResources[s].perms.view))
  const [picked, setPicked] = useState<string>()
  const active = chooseTab(tabs, picked ?? search[ACTIVE_TAB], Cookies.get(ACTIVE_TAB), 'system') as RoleScope | undefined
  const config = useMemo(() => (active ? roleListConfig(active) : undefined), [active])
  const labels: Record<RoleScope, string> = { system: i18n._(msg`System roles`), org: i18n._(msg`Organization roles`) }
  return (
    <Page title={t`Roles`} back={false}>
      {tabs.length > 1 && (
        <TabList className={styles.tabs} selectedValue={active} onTabSelect={(_, d) => {
          const tab = String(d.value)
          setPicked(tab)
          Cookies.set(ACTIVE_TAB, tab, { expires: 1, path: '/', sameSite: 'lax' })
          // A new tab starts a new list: its search, filters and page do not carry over.
          void navigate({ to: '.', search: {} } as never)
        }}>
          {tabs.map((s) => <Tab key={s} value={s}>{labels[s]}</Tab>)}
        </TabList>
      )}
      {config && <ListTable key={active} config={config} />}
    </Page>
  )
}
