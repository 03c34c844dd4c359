/**
 * Accounts and account templates: the generic list, form and detail, plus "View secret" (after the user
 * confirmation) on rows and details, and for accounts "Verify" (log in with the stored secret; opens the task log).
 */
import { CheckmarkStarburstRegular, EyeRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import { accountTask, type SecretKind } from '../../../api/accounts.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import type { FieldLayout } from '../../../ui/form/types.ts'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { manifestItem } from '../../manifest.ts'
import { SecretHistory, useSecretViewer } from './SecretViewer.tsx'

const taskLogPath = (id: string) => `/ops/celery/task/${encodeURIComponent(id)}/log`

const KINDS = {
  account: { key: 'accounts', secretPerm: 'accounts.view_accountsecret', title: msg`Accounts` },
  template: { key: 'account-templates', secretPerm: 'accounts.view_accounttemplatesecret', title: msg`Account templates` },
} as const

const rowName = (row: Record<string, unknown>) => `${String(row.name ?? '')}${row.username && row.username !== row.name ? ` (${String(row.username)})` : ''}`
/** A template's name is unique in its organization: it alone names it (the detail heading "…: <name>", as lina). */
const templateName = (row: Record<string, unknown>) => String(row.name ?? '')
const nameOf = (kind: SecretKind) => (kind === 'account' ? rowName : templateName)

function viewSecretCommand(kind: SecretKind, view: (id: string, name: string) => Promise<void>): ListCommand {
  return {
    id: 'viewSecret', scope: 'row', label: msg`View secret`, icon: EyeRegular, order: 4, perms: [KINDS[kind].secretPerm],
    run: async ({ row }) => { if (row) await view(String(row.id), nameOf(kind)(row)) },
  }
}

const verifyCommand: ListCommand = {
  id: 'verify', scope: 'row', label: msg`Verify`, icon: CheckmarkStarburstRegular, order: 6, perms: ['accounts.verify_account'],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      const task = await accountTask('verify', [String(row.id)])
      notify('success', t`Verification started`)
      h.openInNewTab(taskLogPath(task))
    } catch (e) {
      notify('error', t`Could not start the verification`, describeError(e))
    }
  },
}

function commandsOf(kind: SecretKind, view: (id: string, name: string) => Promise<void>): ListCommand[] {
  return kind === 'account' ? [viewSecretCommand(kind, view), verifyCommand] : [viewSecretCommand(kind, view)]
}

function listPage(kind: SecretKind) {
  return function AccountListPage() {
    const { i18n } = useLingui()
    const item = manifestItem(KINDS[kind].key)
    const viewer = useSecretViewer(kind)
    const config = useMemo<ListConfig>(() => ({
      resource: item.resource,
      label: KINDS[kind].title,
      rowName: nameOf(kind),
      columns: kind === 'account'
        ? { min: ['name', 'actions'], defaults: ['name', 'username', 'asset', 'secret_type', 'privileged', 'source', 'connectivity', 'date_verified', 'actions'] }
        : { min: ['name', 'actions'], defaults: ['name', 'username', 'secret_type', 'privileged', 'is_active', 'date_created', 'actions'] },
      commands: { extra: commandsOf(kind, viewer.view) },
    }), [item.resource, viewer.view])
    return (
      <Page title={i18n._(KINDS[kind].title)} back={false}>
        <ListTable config={config} />
        {viewer.element}
      </Page>
    )
  }
}

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields)} />
}

function detailPage(kind: SecretKind) {
  return function AccountDetailPage() {
    const item = manifestItem(KINDS[kind].key)
    const viewer = useSecretViewer(kind)
    const config = useMemo<DetailConfig>(() => ({
      resource: item.resource,
      rowName: nameOf(kind),
      tabs: [
        { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
        ...(kind === 'account' ? [{ id: 'History', label: msg`Secret history`, perms: [KINDS.account.secretPerm], render: ({ object }: DetailContext) => <SecretHistory accountId={String(object.id)} /> }] : []),
      ],
      commands: { extra: commandsOf(kind, viewer.view) },
    }), [item.resource, viewer.view])
    return (
      <>
        <GenericDetailPage config={config} />
        {viewer.element}
      </>
    )
  }
}

/** The form's fields: the API's command fields (template, push_now, on_invalid, params) are left to API clients. */
const FORM_LAYOUT: Record<SecretKind, FieldLayout> = {
  account: [
    [msg`Basic`, ['asset', 'name', 'username', 'privileged', 'su_from', 'is_active']],
    [msg`Secret`, ['secret_type', 'secret', 'passphrase']],
    [msg`Other`, ['comment']],
  ],
  template: [
    [msg`Basic`, ['name', 'username', 'privileged', 'is_active']],
    [msg`Secret`, ['secret_type', 'secret', 'passphrase']],
    [msg`Other`, ['comment']],
  ],
}

function formPage(kind: SecretKind) {
  return function AccountFormPage() {
    const item = manifestItem(KINDS[kind].key)
    const { titles } = item.entry
    const config = useMemo<FormPageConfig>(() => ({
      resource: item.resource,
      title: { create: titles.create ?? titles.list, update: titles.update ?? titles.list },
      layout: FORM_LAYOUT[kind],
      // an asset chosen beforehand (the asset's accounts tab links here with ?asset=<id>)
      initial: (search) => (kind === 'account' && typeof search.asset === 'string' ? { asset: search.asset } : {}),
    }), [item.resource, titles])
    return <GenericFormPage config={config} />
  }
}

export const AccountListPage = listPage('account')
export const AccountDetailPage = detailPage('account')
export const AccountFormPage = formPage('account')
export const AccountTemplateListPage = listPage('template')
export const AccountTemplateDetailPage = detailPage('template')
export const AccountTemplateFormPage = formPage('template')

/** The asset detail's Accounts tab: the asset's accounts with the same commands; "Create" starts on this asset. */
export function AssetAccountsTab({ assetId }: { assetId: string }) {
  const item = manifestItem(KINDS.account.key)
  const viewer = useSecretViewer('account')
  const config = useMemo<ListConfig>(() => ({
    resource: item.resource,
    url: `${item.url}?asset=${encodeURIComponent(assetId)}`,
    stateIn: 'local',
    label: KINDS.account.title,
    rowName,
    hiddenFilters: ['asset'],
    linkSearch: { asset: assetId },
    columns: { min: ['name', 'actions'], defaults: ['name', 'username', 'secret_type', 'privileged', 'source', 'connectivity', 'date_verified', 'actions'], exclude: ['asset'] },
    commands: { extra: commandsOf('account', viewer.view) },
    tools: { import: false },
  }), [item.resource, item.url, assetId, viewer.view])
  return (
    <>
      <ListTable config={config} />
      {viewer.element}
    </>
  )
}
