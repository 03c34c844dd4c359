/** UserLoginACLList: a user's login ACLs (the `user` query is fixed by the page, not a removable filter). */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { Page } from '../../../ui/common/Page.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { loginAclResource, userAclsUrl } from './resource.ts'

export function loginAclListConfig(userId: string | undefined, stateIn: 'url' | 'local' = 'url'): ListConfig {
  return {
    resource: loginAclResource,
    url: stateIn === 'local' ? userAclsUrl(userId) : undefined,
    label: msg`Login ACLs`,
    stateIn,
    hiddenFilters: ['user'],
    linkSearch: userId ? { user: userId } : undefined,
    columns: {
      min: ['name', 'actions'],
      defaults: ['name', 'priority', 'ip_group', 'action', 'is_active', 'comment', 'actions'],
      exclude: ['user', 'rules'],
      extra: [{
        id: 'ip_group', label: msg`IP`,
        render: (row) => {
          const ips = (row.rules as { ip_group?: string[] } | undefined)?.ip_group ?? []
          return ips.join(', ') || '-'
        },
      }],
    },
    searchExclude: ['user'],
  }
}

export function UserLoginAclListPage() {
  const { t } = useLingui()
  const search = useSearch({ strict: false }) as { user?: string }
  const config = useMemo(() => loginAclListConfig(search.user), [search.user])
  return (
    <Page title={t`User login ACLs`} help={t`Rules that accept, reject or ask for review of this user's logins by source IP and time. The lower the priority value, the earlier a rule matches.`}>
      <ListTable config={config} />
    </Page>
  )
}
