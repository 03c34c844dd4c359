/** UserLoginACLDetail: the rule's settings and its activity. */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { GenericDetailPage, type DetailConfig } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { TimePeriodSummary } from '../../../ui/form/TimePeriodGrid.tsx'
import { loginAclResource } from './resource.ts'

function Info({ object, fields }: Parameters<DetailConfig['tabs'][number]['render']>[0]) {
  const { t } = useLingui()
  const rules = (object.rules ?? {}) as { ip_group?: string[]; time_period?: unknown[] }
  const items = [
    ...detailItems(object, fields, ['name', 'user', 'priority', 'action', 'reviewers', 'is_active']),
    { key: 'ip_group', label: t`IP`, value: (rules.ip_group ?? []).join(', ') || '-' },
    { key: 'time_period', label: t`Time period`, value: <TimePeriodSummary value={rules.time_period} /> },
    ...detailItems(object, fields, ['date_created', 'created_by', 'comment']),
  ]
  return <InfoCard title={t`Basic information`} items={items} />
}

export const loginAclDetailConfig: DetailConfig = {
  resource: loginAclResource,
  keepSearch: ['user'],
  tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> }],
}

export function UserLoginAclDetailPage() {
  return <GenericDetailPage config={loginAclDetailConfig} />
}
