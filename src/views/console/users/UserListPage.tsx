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
