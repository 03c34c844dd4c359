/** UserGroupList (its own module: a first visit to the list loads no form or detail code). */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Page } from '../../../ui/common/Page.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { userGroupResource } from './resource.ts'

export const userGroupListConfig: ListConfig = {
  resource: userGroupResource,
  label: msg`User groups`,
  columns: { min: ['name', 'actions'], defaults: ['name', 'users_amount', 'comment', 'actions'], exclude: ['users'] },
  searchExclude: ['id'],
}

export function UserGroupListPage() {
  const { t } = useLingui()
  return (
    <Page title={t`User groups`} back={false}>
      <ListTable config={userGroupListConfig} />
    </Page>
  )
}
