/**
 * The asset fields that point at assets-net's resources — `domain` and `labels` — and the `labels` filter of
 * every asset list (contract §5.2). Declared here, joined into the asset base (assets.ts).
 */
import { sql } from 'kysely'
import type { Cond, FieldDef, FilterDef } from '../../engine/types.ts'

/** The built-in platform whose hosts are gateways (JumpServer: `Domain.get_gateway_queryset()`). */
export const GATEWAY_PLATFORM = 'Gateway'

/** Rows of `assets` (alias) that are gateways. */
export const isGateway = (alias = 't'): Cond =>
  sql`${sql.ref(`${alias}.platform_id`)} in (select p.id from platforms p where p.name = ${GATEWAY_PLATFORM})`

export const domainField: FieldDef = {
  name: 'domain', type: 'fk', label: 'Domain', allow_null: true, default: null,
  relation: { resource: 'assets.domain', attrs: ['id', 'name'] },
}

export const labelsField: FieldDef = {
  name: 'labels', type: 'm2m', label: 'Label', default: [],
  relation: { resource: 'assets.label', attrs: ['id', 'name', 'value'], through: { table: 'asset_labels', from: 'asset_id', to: 'label_id' } },
}

/**
 * `labels=env:prod,team:ops` — assets holding every given label; a term without `:` matches a label's name or
 * value. Label ids are accepted too.
 */
export const labelsFilter: FilterDef = {
  name: 'labels',
  apply(value) {
    const terms = value.split(',').map((s) => s.trim()).filter(Boolean)
    if (!terms.length) return undefined
    const conds = terms.map((term) => {
      const i = term.indexOf(':')
      const match = /^[0-9a-f-]{36}$/i.test(term)
        ? sql`l.id = ${term}::uuid`
        : i > 0
          ? sql`l.name = ${term.slice(0, i).trim()} and l.value = ${term.slice(i + 1).trim()}`
          : sql`(l.name = ${term} or l.value = ${term})`
      return sql`exists (select 1 from asset_labels al join labels l on l.id = al.label_id where al.asset_id = t.id and ${match})`
    })
    return sql.join(conds, sql` and `) as Cond
  },
}

/** `domain=<id or name>`. */
export const domainFilter: FilterDef = {
  name: 'domain',
  apply: (v) => (/^[0-9a-f-]{36}$/i.test(v) ? sql`t.domain_id = ${v}::uuid` : sql`t.domain_id in (select d.id from domains d where d.name = ${v})`),
}
