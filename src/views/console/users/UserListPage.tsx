/** UserList: the generic list with the users' columns and their remove/delete distinction. */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Page } from '../../../ui/common/Page.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { userResource } from './resource.ts'
import { bulkRemoveFromOrg, removeFromOrg, userCommandOverrides } from './userCommands.tsx'

export const userListConfig: ListConfig = {
  resource: userResource,
  label: msg`Users`,
  columns: {
    min: ['name', 'username', 'actions'],
    defaults: ['name', 'username', 'email', 'groups', 'system_roles', 'org_roles', 'source', 'is_valid', 'actions'],
    // what stays when they do not all fit: whether the account may log in, then who it is and its roles
    priority: { is_valid: 1, email: 2, system_roles: 2, org_roles: 3, source: 4, groups: 4 },
    exclude: ['avatar_url', 'wecom_id', 'dingtalk_id', 'feishu_id'],
  },
  commands: { overrides: userCommandOverrides, extra: [removeFromOrg, bulkRemoveFromOrg] },
  searchExclude: ['id'],
}

export function UserListPage() {
  const { t } = useLingui()
  return (
    <Page title={t`Users`} back={false}>
      <ListTable config={userListConfig} />
    </Page>
  )
}
