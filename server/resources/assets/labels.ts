/**
 * Labels `/api/v1/assets/labels/` (contract §5.2, JumpServer 3.2): `name:value` pairs per organization, bound to
 * assets (asset_labels); every asset list filters by them (`labels=name:value`, links.ts).
 */
import { sql } from 'kysely'
import type { ResourceDef } from '../../engine/types.ts'
import { tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, isActive, updatedBy } from '../common.ts'
import './net-messages.ts'

export const labels: ResourceDef<'labels'> = {
  name: 'assets.label',
  app: 'assets',
  model: 'label',
  verboseName: 'Label',
  path: '/api/v1/assets/labels/',
  table: 'labels',
  orgScoped: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128 },
    { name: 'value', type: 'string', label: 'Value', required: true, max_length: 128, allow_blank: false },
    {
      name: 'category', type: 'labeled_choice', label: 'Category', read_only: true, column: false,
      choices: [{ value: 'U', label: 'User' }, { value: 'S', label: 'System' }], get: () => 'U',
    },
    isActive,
    {
      name: 'assets', type: 'm2m', label: 'Asset', default: [],
      relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'], through: { table: 'asset_labels', from: 'label_id', to: 'asset_id' } },
    },
    { name: 'asset_count', type: 'integer', label: 'Assets amount', read_only: true, expr: '(select count(*) from asset_labels al where al.label_id = t.id)' },
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['name', 'value'],
  filters: ['id', 'name', 'value', 'is_active'],
  ordering: { fields: ['name', 'value', 'asset_count', 'date_created'], default: ['name', 'value'] },
  sizes: { mini: ['id', 'name', 'value'], small: ['id', 'name', 'value', 'is_active', 'comment'] },
  display: (r) => `${String(r.name)}:${String(r.value)}`,
  hooks: {
    // name:value is unique per organization (the table's unique constraint backs it up)
    async validate(values, ctx, info) {
      const name = values.name ?? info.existing?.name
      const value = values.value ?? info.existing?.value
      if (values.name === undefined && values.value === undefined) return undefined
      const org = info.existing?.org_id ?? (ctx.orgId === ORG_IDS.ROOT ? (info.req?.body as { org_id?: string } | undefined)?.org_id : ctx.orgId)
      if (!org || typeof org !== 'string' || !/^[0-9a-f-]{36}$/i.test(org)) return undefined
      const clash = await sql`select 1 from labels where org_id = ${org}::uuid and name = ${name} and value = ${value}
        and id <> ${info.existing?.id ?? '00000000-0000-0000-0000-000000000000'}::uuid`.execute(ctx.db)
      return clash.rows.length ? { value: [tr(ctx.lang, 'A label with this name and value already exists.')] } : undefined
    },
  },
}
