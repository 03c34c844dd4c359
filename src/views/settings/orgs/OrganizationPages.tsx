/**
 * OrganizationCreate/Update and OrganizationDetail with its resource statistics (the list: OrganizationListPage.tsx).
 * Deleting an organization that still holds resources is refused with a reason shown to the user.
 */
import { makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard, type DetailItem } from '../../../ui/detail/InfoCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { noEmoji } from '../../../ui/form/validators.ts'
import { organizationResource } from './resource.ts'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(360px, 100%), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
})

export const organizationFormConfig: FormPageConfig = {
  resource: organizationResource,
  title: { create: msg`Create organization`, update: msg`Update organization` },
  layout: ['name', 'comment'],
  overrides: { name: { rules: [noEmoji] } },
}

export function OrganizationFormPage() {
  return <GenericFormPage config={organizationFormConfig} />
}

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  const styles = useStyles()
  const statsField = fields.find((f) => f.name === 'resource_statistics')
  const stats = (object.resource_statistics ?? {}) as Record<string, unknown>
  const statItems: DetailItem[] = Object.entries(stats).map(([key, value]) => ({
    key,
    label: statsField?.children?.find((c) => c.name === key)?.label ?? key,
    value: String(value ?? 0),
  }))
  return (
    <div className={styles.grid}>
      <InfoCard title={t`Basic information`} items={detailItems(object, fields, ['name', 'is_default', 'created_by', 'date_created', 'comment'])} />
      <InfoCard title={t`Resource statistics`} items={statItems} />
    </div>
  )
}

export const organizationDetailConfig: DetailConfig = {
  resource: organizationResource,
  tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> }],
}

export function OrganizationDetailPage() {
  return <GenericDetailPage config={organizationDetailConfig} />
}
