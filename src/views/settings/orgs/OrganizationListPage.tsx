/** OrganizationList (its own module: a first visit to the list loads no form or detail code). Bulk delete is not
 * offered: the server never allows it. */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Page } from '../../../ui/common/Page.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { organizationResource } from './resource.ts'

export const organizationListConfig: ListConfig = {
  resource: organizationResource,
  label: msg`Organizations`,
  columns: { min: ['name', 'actions'], defaults: ['name', 'is_default', 'created_by', 'date_created', 'comment', 'actions'], exclude: ['resource_statistics', 'is_root'] },
  commands: { overrides: { bulkDelete: null } },
  searchExclude: ['id'],
}

export function OrganizationListPage() {
  const { t } = useLingui()
  return (
    <Page title={t`Organizations`} back={false}>
      <ListTable config={organizationListConfig} />
    </Page>
  )
}
