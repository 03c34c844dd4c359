/**
 * Accounts and account templates: the generic form and detail, with the lists' commands on the detail (the lists:
 * AccountListPage.tsx).
 */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import type { FieldLayout, FieldOverrides } from '../../../ui/form/types.ts'
import { manifestItem } from '../../entries.ts'
import type { SecretKind } from '../../../api/accounts.ts'
import { commandsOf, KINDS, nameOf } from './accountCommands.tsx'
import { SecretHistory } from './SecretHistory.tsx'
import { SecretInput } from './SecretInput.tsx'
import { useSecretViewer } from './SecretViewer.tsx'

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

/** The secret keeps an SSH key's lines; a key's passphrase only for keys. */
const SECRET_FIELDS: FieldOverrides = {
  secret: { render: (props) => <SecretInput {...props} /> },
  passphrase: { hidden: (values) => values.secret_type !== 'ssh_key' },
}

function formPage(kind: SecretKind) {
  return function AccountFormPage() {
    const item = manifestItem(KINDS[kind].key)
    const { titles } = item.entry
    const config = useMemo<FormPageConfig>(() => ({
      resource: item.resource,
      title: { create: titles.create ?? titles.list, update: titles.update ?? titles.list },
      layout: FORM_LAYOUT[kind],
      overrides: SECRET_FIELDS,
      // an asset chosen beforehand (the asset's accounts tab links here with ?asset=<id>)
      initial: (search) => (kind === 'account' && typeof search.asset === 'string' ? { asset: search.asset } : {}),
    }), [item.resource, titles])
    return <GenericFormPage config={config} />
  }
}

export const AccountDetailPage = detailPage('account')
export const AccountFormPage = formPage('account')
export const AccountTemplateDetailPage = detailPage('template')
export const AccountTemplateFormPage = formPage('template')
