/**
 * Organizations `/api/v1/orgs/orgs/` (contract §5.1): system-scope permissions, SYSTEM hidden, ROOT virtual.
 * `resource_statistics` and the "has resources" delete refusal use one table of counters that later
 * resources extend with `registerOrgCounter`.
 */
import { sql } from 'kysely'
import type { DB } from '../../db/connection.ts'
import type { ResourceDef } from '../../engine/types.ts'
import { ApiError } from '../../http/errors.ts'
import { addMessages, tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { getSetting } from '../../settings/store.ts'
import { commentField, createdBy, dateCreated, idField } from '../common.ts'

addMessages({
  'Is default': ['是否默认', 'デフォルト'],
  'Is root': ['是否全局组织', 'グローバル組織'],
  'Resource statistics': ['资源统计', 'リソース統計'],
  'Groups amount': ['用户组数量', 'ユーザーグループ数'],
  'Assets amount': ['资产数量', '資産数'],
  'Nodes amount': ['节点数量', 'ノード数'],
  'Domains amount': ['网域数量', 'ドメイン数'],
  'Gateways amount': ['网关数量', 'ゲートウェイ数'],
  'Asset permissions amount': ['资产授权数量', '資産承認数'],
  'The current organization ({name}) cannot be deleted': ['当前组织 ({name}) 不能被删除', '現在の組織 ({name}) は削除できません'],
  'LDAP synced organization cannot be deleted': ['LDAP 同步设置组织为当前组织，请切换其他组织后再进行操作', 'LDAP 同期先の組織は削除できません'],
  'Default organization cannot be deleted': ['默认组织不能被删除', 'デフォルト組織は削除できません'],
  'The organization have resource ({resource}) cannot be deleted': ['组织存在资源 ({resource}) 不能被删除', '組織にリソース ({resource}) があるため削除できません'],
})

export interface OrgCounter {
  /** Key in `resource_statistics`. */
  key: string
  label: string
  /** Counts per org id (only for the given ids). */
  count: (db: DB, orgIds: string[]) => Promise<Map<string, number>>
  /** Whether rows of this kind keep an org from being deleted (members do not). */
  blocksDelete: boolean
  /** The kind of object named in the delete refusal (default: the label). */
  resource?: string
}

const counters: OrgCounter[] = []

/** Lets later resources (assets, nodes, permissions…) add themselves to the statistics and delete guard. */
export function registerOrgCounter(c: OrgCounter): void {
  const i = counters.findIndex((x) => x.key === c.key)
  if (i >= 0) counters[i] = c
  else counters.push(c)
}

export const tableCounter = (key: string, label: string, table: string, resource: string): OrgCounter => ({
  key, label, resource, blocksDelete: true,
  count: async (db, ids) => new Map((await sql<{ org_id: string; n: number }>`select org_id, count(*)::int as n from ${sql.table(table)}
    where org_id = any(${ids}::uuid[]) group by org_id`.execute(db)).rows.map((r) => [r.org_id, Number(r.n)])),
})

registerOrgCounter({
  key: 'users_amount', label: 'Users amount', blocksDelete: false,
  count: async (db, ids) => new Map((await sql<{ org_id: string; n: number }>`select org_id, count(distinct user_id)::int as n
    from role_bindings where scope = 'org' and org_id = any(${ids}::uuid[]) group by org_id`.execute(db)).rows.map((r) => [r.org_id, Number(r.n)])),
})
registerOrgCounter(tableCounter('groups_amount', 'Groups amount', 'user_groups', 'User group'))
for (const [key, label] of [['assets_amount', 'Assets amount'], ['nodes_amount', 'Nodes amount'], ['domains_amount', 'Domains amount'],
  ['gateways_amount', 'Gateways amount'], ['asset_perms_amount', 'Asset permissions amount']] as const) {
  if (!counters.some((c) => c.key === key)) counters.push({ key, label, blocksDelete: true, count: async () => new Map() })
}

async function statistics(ids: unknown[], { db }: { db: DB }): Promise<Map<unknown, unknown>> {
  const orgIds = ids as string[]
  const out = new Map<unknown, Record<string, number>>(orgIds.map((id) => [id, {}]))
  if (!orgIds.length) return out
  for (const c of counters) {
    const counts = await c.count(db, orgIds)
    for (const id of orgIds) out.get(id)![c.key] = counts.get(id) ?? 0
  }
  return out
}

export const organizations: ResourceDef<'organizations'> = {
  name: 'orgs.organization',
  app: 'orgs',
  model: 'organization',
  verboseName: 'Organization',
  path: '/api/v1/orgs/orgs/',
  table: 'organizations',
  fields: [
    idField(),
    { name: 'name', type: 'string', label: 'Name', required: true, max_length: 128, unique: true },
    commentField,
    { name: 'is_default', type: 'boolean', label: 'Is default', read_only: true, expr: `(t.id = '${ORG_IDS.DEFAULT}')` },
    { name: 'is_root', type: 'boolean', label: 'Is root', read_only: true, column: false, get: () => false },
    createdBy,
    dateCreated,
    {
      name: 'resource_statistics', type: 'nested', label: 'Resource statistics', read_only: true, column: false, load: statistics,
      children: counters.map((c) => ({ name: c.key, type: 'integer', label: c.label, read_only: true })),
    },
  ],
  scope: () => sql`t.id <> ${ORG_IDS.SYSTEM}`,
  systemPerms: true,
  search: ['name', 'comment'],
  filters: ['id', 'name'],
  ordering: { fields: ['name', 'date_created'], default: ['name'] },
  sizes: { mini: ['id', 'name'], small: ['id', 'name', 'comment', 'is_default', 'is_root'] },
  bulkDelete: 'never',
  auditOrg: 'system',
  hooks: {
    async beforeDelete(tx, row, ctx) {
      const refuse = (detail: string) => new ApiError(403, { detail, code: 'permission_denied' })
      if (row.id === ctx.orgId) throw refuse(tr(ctx.lang, 'The current organization ({name}) cannot be deleted', { name: row.name }))
      if (row.id === (await getSetting(tx, 'AUTH_LDAP_SYNC_ORG_ID'))) throw refuse(tr(ctx.lang, 'LDAP synced organization cannot be deleted'))
      if (row.builtin || row.id === ORG_IDS.DEFAULT) throw refuse(tr(ctx.lang, 'Default organization cannot be deleted'))
      for (const c of counters.filter((x) => x.blocksDelete)) {
        if ((await c.count(tx, [row.id])).get(row.id)) throw refuse(tr(ctx.lang, 'The organization have resource ({resource}) cannot be deleted', { resource: tr(ctx.lang, c.resource ?? c.label) }))
      }
      await sql`delete from role_bindings where org_id = ${row.id}`.execute(tx)
    },
  },
}
