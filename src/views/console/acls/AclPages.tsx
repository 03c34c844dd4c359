/**
 * Command filter ACLs (CommandFilterAcl*) and asset login ACLs (AssetAcl*): one form and detail configuration for
 * both (the lists: AclListPage.tsx) — the matchers (users, assets, accounts) are nested objects of lists, edited by the
 * generic nested and list widgets; login asset rules' time periods by the generic time-period grid. Command
 * groups use the generic pages.
 */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { TimePeriodSummary } from '../../../ui/form/TimePeriodGrid.tsx'
import { noEmoji } from '../../../ui/form/validators.ts'
import { MATCHER_COLUMNS, resourceOf, type Kind } from './resource.ts'

function formConfig(kind: Kind): FormPageConfig {
  return {
    resource: resourceOf(kind),
    title: kind === 'command'
      ? { create: msg`Create command filter`, update: msg`Update command filter` }
      : { create: msg`Create asset login ACL`, update: msg`Update asset login ACL` },
    layout: [
      [msg`Basic`, ['name', 'priority']],
      [msg`Users`, ['users']],
      [msg`Assets`, ['assets']],
      [msg`Accounts`, ['accounts']],
      kind === 'command' ? [msg`Commands`, ['command_groups']] : [msg`Rules`, ['rules']],
      [msg`Action`, ['action', 'reviewers']],
      [msg`Other`, ['is_active', 'comment']],
    ],
    overrides: {
      name: { rules: [noEmoji] },
      reviewers: { hidden: (v) => v.action !== 'review' },
    },
  }
}

const list = (v: unknown) => (Array.isArray(v) && v.length ? v.join(', ') : '-')

function Info({ object, fields, kind }: DetailContext & { kind: Kind }) {
  const { t } = useLingui()
  const rules = (object.rules ?? {}) as { ip_group?: string[]; time_period?: unknown[] }
  const items = [
    ...detailItems(object, fields, ['name', 'priority', ...MATCHER_COLUMNS, ...(kind === 'command' ? ['command_groups'] : [])]),
    ...(kind === 'asset'
      ? [
        { key: 'ip_group', label: t`IP`, value: list(rules.ip_group) },
        { key: 'time_period', label: t`Time period`, value: <TimePeriodSummary value={rules.time_period} /> },
      ]
      : []),
    ...detailItems(object, fields, ['action', 'reviewers', 'is_active', 'date_created', 'created_by', 'comment']),
  ]
  return <InfoCard title={t`Basic information`} items={items} />
}

const detailConfig = (kind: Kind): DetailConfig => ({
  resource: resourceOf(kind),
  tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} kind={kind} /> }],
})

const configs = { command: { form: formConfig('command'), detail: detailConfig('command') }, asset: { form: formConfig('asset'), detail: detailConfig('asset') } }

export const CommandAclFormPage = () => <GenericFormPage config={configs.command.form} />
export const AssetAclFormPage = () => <GenericFormPage config={configs.asset.form} />
export const CommandAclDetailPage = () => <GenericDetailPage config={configs.command.detail} />
export const AssetAclDetailPage = () => <GenericDetailPage config={configs.asset.detail} />
