/**
 * Domains (zones) and gateways (contract §5.2). A domain groups assets that are reached through one of its
 * gateways; a gateway is a host on the built-in Gateway platform whose `domain` is required
 * (`/api/v1/assets/gateways/`, permissions `assets.*_gateway`). A domain's `assets` leave out its gateways;
 * writing them moves assets into (and the left-out ones out of) the domain, gateways untouched.
 */
import { sql } from 'kysely'
import type { DB, RowOf } from '../../db/connection.ts'
import { kindOf } from '../../engine/derive.ts'
import type { Ctx, FieldDef, ResourceDef } from '../../engine/types.ts'
import { ApiError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { registerOrgCounter, tableCounter } from '../orgs/orgs.ts'
import { commentField, createdBy, dateCreated, dateUpdated, idField, updatedBy } from '../common.ts'
import { assetBase } from './assets.ts'
import { domainField, GATEWAY_PLATFORM, isGateway } from './links.ts'
import './messages.ts'
import './net-messages.ts'

addMessages({
  'The domain "{name}" still has {n} gateway(s): delete them or move them to another domain first.': [
    '网域 "{name}" 仍有 {n} 个网关：请先删除它们或将其移到其他网域。',
    'ドメイン "{name}" にはまだ {n} 個のゲートウェイがあります：先に削除するか、別のドメインへ移してください。',
  ],
})

/**
 * A domain with gateways is not deleted (a gateway without a domain is invalid here, unlike JumpServer's
 * SET_NULL: docs/decisions/deleting-a-domain-that-has-gateways-is-refused.md); its other assets just leave it (on delete set null).
 */
async function refuseWithGateways(tx: DB, row: Pick<RowOf<'domains'>, 'id' | 'name'>, ctx: Ctx): Promise<void> {
  const n = (await sql<{ n: number }>`select count(*)::int as n from assets t where t.domain_id = ${row.id} and ${isGateway()}`.execute(tx)).rows[0]!.n
  if (n) {
    throw new ApiError(400, {
      detail: tr(ctx.lang, 'The domain "{name}" still has {n} gateway(s): delete them or move them to another domain first.', { name: String(row.name), n: String(n) }),
      code: 'domain_has_gateways',
    })
  }
}

type Member = Pick<RowOf<'assets'>, 'id' | 'name' | 'address'>

async function membersOf(db: DB, ids: unknown[], gateways: boolean): Promise<Map<unknown, Member[]>> {
  const out = new Map<unknown, Member[]>(ids.map((id) => [id, []]))
  if (!ids.length) return out
  const r = await sql<Member & Pick<RowOf<'assets'>, 'domain_id'>>`select a.id, a.name, a.address, a.domain_id from assets a
    where a.domain_id = any(${ids}::uuid[]) and ${gateways ? isGateway('a') : sql`not ${isGateway('a')}`} order by a.name, a.id`.execute(db)
  for (const a of r.rows) out.get(a.domain_id)?.push({ id: a.id, name: a.name, address: a.address })
  return out
}

export const domains: ResourceDef<'domains'> = {
  name: 'assets.domain',
  app: 'assets',
  model: 'domain',
  verboseName: 'Domain',
  path: '/api/v1/assets/domains/',
  table: 'domains',
  orgScoped: true,
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: 'org' },
    {
      name: 'assets', type: 'm2m', label: 'Asset', default: [], column: false,
      relation: { resource: 'assets.asset', attrs: ['id', 'name', 'address'], limit: () => sql`not ${isGateway()}` },
      load: (ids, { db }) => membersOf(db, ids, false),
      async write(tx, id, value: unknown[]) {
        await sql`update assets t set domain_id = null where t.domain_id = ${id} and not ${isGateway()} and not (t.id = any(${value}::uuid[]))`.execute(tx)
        if (value.length) await sql`update assets t set domain_id = ${id} where t.id = any(${value}::uuid[])`.execute(tx)
      },
    },
    {
      name: 'gateways', type: 'm2m', label: 'Gateway', read_only: true, column: false,
      relation: { resource: 'assets.gateway', attrs: ['id', 'name', 'address'] },
      load: (ids, { db }) => membersOf(db, ids, true),
    },
    {
      name: 'assets_amount', type: 'integer', label: 'Assets amount', read_only: true,
      expr: `(select count(*) from assets a where a.domain_id = t.id and a.platform_id not in (select p.id from platforms p where p.name = 'Gateway'))`,
    },
    {
      name: 'gateways_amount', type: 'integer', label: 'Gateways amount', read_only: true,
      expr: `(select count(*) from assets a where a.domain_id = t.id and a.platform_id in (select p.id from platforms p where p.name = 'Gateway'))`,
    },
    commentField,
    createdBy,
    updatedBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['name'],
  filters: ['id', 'name'],
  ordering: { fields: ['name', 'assets_amount', 'gateways_amount', 'date_created'], default: ['name'] },
  sizes: { mini: ['id', 'name'], small: ['id', 'name', 'comment'] },
  hooks: { beforeDelete: refuseWithGateways },
}

const gatewayPlatform: FieldDef = {
  name: 'platform', type: 'fk', label: 'Platform', required: false,
  // the Gateway platform (id 2 in migration 010's built-in list) unless another gateway platform is named
  default: 2,
  relation: { resource: 'assets.platform', attrs: ['id', 'name'], query: `name=${GATEWAY_PLATFORM}`, limit: () => sql`t.name = ${GATEWAY_PLATFORM}` },
}

export const gateways: ResourceDef<'assets'> = {
  ...kindOf(assetBase, {
    name: 'assets.gateway',
    model: 'gateway',
    verboseName: 'Gateway',
    path: '/api/v1/assets/gateways/',
    fields: [
      gatewayPlatform,
      { name: 'address', type: 'string', label: 'IP/Host', required: true, max_length: 767 },
      { ...domainField, required: true, allow_null: false, default: undefined },
    ],
    scope: () => isGateway(),
    filters: [{ name: 'domain__name', apply: (v) => sql`t.domain_id in (select d.id from domains d where d.name = ${v})` }],
  }),
  perms: { view: 'assets.view_gateway', add: 'assets.add_gateway', change: 'assets.change_gateway', delete: 'assets.delete_gateway' },
}

registerOrgCounter(tableCounter('domains_amount', 'Domains amount', 'domains', 'Domain'))
registerOrgCounter({
  key: 'gateways_amount', label: 'Gateways amount', resource: 'Gateway', blocksDelete: true,
  count: async (db, ids) => new Map((await sql<{ org_id: string; n: number }>`select t.org_id, count(*)::int as n from assets t
    where t.org_id = any(${ids}::uuid[]) and ${isGateway()} group by t.org_id`.execute(db)).rows.map((r) => [r.org_id, Number(r.n)])),
})
