/** Account templates `/api/v1/accounts/account-templates/` (contract §5.3): the base account fields, secrets sealed. */
import type { ResourceDef } from '../../engine/types.ts'
import { addMessages } from '../../i18n.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, isActive, updatedBy } from '../common.ts'
import { sealedColumns, secretErrors, secretFields } from './secrets.ts'

addMessages({
  'Account template': ['账号模版', 'アカウントテンプレート'],
})

export const accountTemplates: ResourceDef<'account_templates'> = {
  name: 'accounts.accounttemplate',
  app: 'accounts',
  model: 'accounttemplate',
  verboseName: 'Account template',
  path: '/api/v1/accounts/account-templates/',
  table: 'account_templates',
  orgScoped: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: 'org' },
    { name: 'username', type: 'string', label: 'Username', required: true, max_length: 128 },
    ...secretFields(),
    { name: 'privileged', type: 'boolean', label: 'Privileged', default: false },
    isActive,
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['name', 'username'],
  filters: ['id', 'name', 'username', 'secret_type', 'privileged', 'is_active'],
  ordering: { fields: ['name', 'username', 'date_created', 'date_updated'], default: ['name'] },
  sizes: { mini: ['id', 'name', 'username'], small: ['id', 'name', 'username', 'secret_type', 'privileged'] },
  hooks: {
    validate: (values, ctx, info) => secretErrors(values, ctx, info.existing),
    columns: (values, _ctx, info) => sealedColumns('account_templates', values, info),
  },
}
