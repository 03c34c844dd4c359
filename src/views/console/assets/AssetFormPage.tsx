/**
 * HostCreate/Update, DatabaseCreate/Update…: the kind's form from its OPTIONS, opened with `?platform=` (and
 * `?node_id=`). On create its Accounts section (the server's write-only `accounts` rows) takes accounts typed in
 * ("Add") or copied from an account template ("Add from template": the row shows the template picker only).
 */
import { msg } from '@lingui/core/macro'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import type { FieldOverrides } from '../../../ui/form/types.ts'
import { required, type FormValues } from '../../../ui/form/validators.ts'
import { manifestItem, type ResourceKey } from '../../entries.ts'
import { SecretInput } from '../accounts/SecretInput.tsx'

/** Marks an account row added from a template (not a field: never sent). */
const FROM_TEMPLATE = '$fromTemplate'
const fromTemplate = (row: FormValues) => row[FROM_TEMPLATE] === true

const ACCOUNT_ROWS: FieldOverrides = {
  accounts: {
    // lina disables it without the permission; the server refuses a template row from such a user
    adds: [{ label: msg`Add from template`, values: { [FROM_TEMPLATE]: true }, perms: ['accounts.view_accounttemplate'] }],
    fields: {
      template: { widget: 'related', hidden: (row) => !fromTemplate(row), rules: [required] },
      username: { hidden: fromTemplate, rules: [required] },
      secret_type: { hidden: fromTemplate },
      secret: { hidden: fromTemplate, render: (props) => <SecretInput {...props} /> },
      passphrase: { hidden: (row) => fromTemplate(row) || row.secret_type !== 'ssh_key' },
      privileged: { hidden: fromTemplate },
    },
  },
}

export function assetFormConfig(key: ResourceKey): FormPageConfig {
  const item = manifestItem(key)
  return {
    resource: { ...item.resource, routes: { ...item.resource.routes, detail: manifestItem('assets').routes.detail } },
    title: { create: item.entry.titles.create!, update: item.entry.titles.update! },
    layout: '__all__',
    initial: (search) => {
      const out: FormValues = {}
      const platform = Number(search.platform)
      if (Number.isInteger(platform) && platform > 0) out.platform = platform
      if (typeof search.node_id === 'string') out.nodes = [search.node_id]
      return out
    },
    // No protocols given: the server takes the platform's defaults (required and default ones).
    transform: (payload) => {
      if (Array.isArray(payload.protocols) && payload.protocols.length === 0) {
        const { protocols: _omit, ...rest } = payload
        return rest
      }
      return payload
    },
    overrides: ACCOUNT_ROWS,
    keepSearch: ['node_id'],
  }
}

export function assetFormPage(key: ResourceKey) {
  const config = assetFormConfig(key)
  return function AssetFormPage() {
    return <GenericFormPage config={config} />
  }
}
