/** AssetPermissionList (its own module: a first visit to the list loads no form or detail code). */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Page } from '../../../ui/common/Page.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { manifestItem } from '../../entries.ts'

const resource = () => manifestItem('asset-permissions').resource

let listConfig: ListConfig | undefined
const permissionListConfig = (): ListConfig => (listConfig ??= {
  resource: resource(),
  label: msg`Asset permissions`,
  columns: {
    min: ['name', 'actions'],
    defaults: ['name', 'users_amount', 'user_groups_amount', 'assets_amount', 'nodes_amount', 'accounts', 'is_valid', 'date_expired', 'actions'],
    exclude: ['users', 'user_groups', 'assets', 'nodes'],
  },
  searchExclude: ['id'],
})

export function AssetPermissionListPage() {
  const { t } = useLingui()
  return (
    <Page title={t`Asset permissions`} back={false}>
      <ListTable config={permissionListConfig()} />
    </Page>
  )
}
