/**
 * What a user (or a user group) is granted, computed from the asset permissions (docs/perms.md).
 *
 * A permission is valid while it is active and now lies in [date_start, date_expired). It grants its assets and
 * every asset under its nodes (the whole subtree) to its users and the members of its user groups, with its
 * actions, accounts and protocols. An asset reached by several permissions gets the union of their actions, per
 * account the union of the actions of the permissions naming that account.
 *
 * A user's granted asset set and node tree are cached per (user, organization) in perm_user_assets /
 * perm_user_nodes. The cache row records the counters it was built at — the user's (perm_user_epoch), the
 * organization's (perm_org_epoch) and the global one (perm_epoch) — and the next instant one of the user's
 * permissions starts or expires. Statement triggers bump, from their transition tables, the users a change reaches
 * where they can tell, else the organization, else (node moves) everything (migration 025), so a cache is used only
 * when nothing that reaches it changed and no validity boundary passed.
 */
import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../../db/connection.ts'
import { analyzeSoon } from '../../db/maintenance.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'

export type Subject = { kind: 'user'; id: string } | { kind: 'group'; id: string }

const VALID = sql`p.is_active and p.date_start <= now() and p.date_expired > now()`

function orgCond(orgId: string, alias = 'p'): RawBuilder<unknown> {
  return orgId === ORG_IDS.ROOT ? sql`true` : sql`${sql.ref(`${alias}.org_id`)} = ${orgId}`
}

/** Condition on asset_permissions `p`: the permission names the subject (a user directly or through a group). */
export function subjectCond(s: Subject): RawBuilder<unknown> {
  if (s.kind === 'group') return sql`p.id in (select g.assetpermission_id from asset_permission_user_groups g where g.usergroup_id = ${s.id})`
  return sql`p.id in (select u.assetpermission_id from asset_permission_users u where u.user_id = ${s.id}
    union select g.assetpermission_id from asset_permission_user_groups g join user_group_members m on m.usergroup_id = g.usergroup_id where m.user_id = ${s.id})`
}

/** `(asset_id, actions)` rows of every asset the subject's valid permissions grant, actions merged. */
function grantedAssetsQuery(s: Subject, orgId: string): RawBuilder<{ asset_id: string; actions: number }> {
  return sql<{ asset_id: string; actions: number }>`with perms as (select p.id, p.actions from asset_permissions p where ${VALID} and ${orgCond(orgId)} and ${subjectCond(s)}),
    reached as (
      select a.asset_id, p.actions from perms p join asset_permission_assets a on a.assetpermission_id = p.id
      union all
      select an.asset_id, p.actions from perms p
        join asset_permission_nodes pn on pn.assetpermission_id = p.id
        join nodes top on top.id = pn.node_id
        join nodes n on n.org_id = top.org_id and (n.key = top.key or (n.key ~>=~ (top.key || ':') and n.key ~<~ (top.key || ';')))
        join asset_nodes an on an.node_id = n.id
    )
    select asset_id, bit_or(actions)::int as actions from reached group by asset_id`
}

/** The next instant a permission of the subject starts or expires (when a cached grant stops being true). */
async function nextBoundary(db: DB, s: Subject, orgId: string): Promise<Date | null> {
  const r = await sql<{ at: Date | null }>`select min(x) as at from (
      select case when p.date_start > now() then p.date_start when p.date_expired > now() then p.date_expired end as x
      from asset_permissions p where p.is_active and ${orgCond(orgId)} and ${subjectCond(s)}) b`.execute(db)
  return r.rows[0]?.at ? new Date(r.rows[0].at) : null
}

/** Counters of cache rebuilds (tests read them to prove a path did or did not invalidate). */
export const cacheStats = { rebuilds: 0 }

/**
 * Makes the user's cached grant in the organization current (rebuilds it when stale) and answers the number of
 * assets it grants (null for a cache built before migration 031, until its next build).
 */
export async function ensureUserGrants(db: DB, userId: string, orgId: string): Promise<number | null> {
  const fresh = sql<{ ok: boolean; amount: number | null }>`select (c.epoch = e.value and c.user_epoch = coalesce(ue.value, 0) and c.org_epoch = coalesce(oe.value, 0)
      and (c.valid_until is null or c.valid_until > now())) as ok, c.assets_amount as amount
    from perm_epoch e left join perm_user_cache c on c.user_id = ${userId} and c.org_id = ${orgId}
      left join perm_user_epoch ue on ue.user_id = ${userId} left join perm_org_epoch oe on oe.org_id = ${orgId} where e.id = 1`
  const now = (await fresh.execute(db)).rows[0]
  if (now?.ok) return now.amount
  const built = await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`perm:${userId}:${orgId}`}, 0))`.execute(tx)
    const again = (await fresh.execute(tx)).rows[0]
    if (again?.ok) return again.amount
    // The counters are read before the grant is computed: a change committed later bumps one past its value.
    const ep = (await sql<{ value: string; user_epoch: string; org_epoch: string }>`select e.value, coalesce((select value from perm_user_epoch where user_id = ${userId}), 0) as user_epoch,
      coalesce((select value from perm_org_epoch where org_id = ${orgId}), 0) as org_epoch from perm_epoch e where e.id = 1`.execute(tx)).rows[0]!
    const s: Subject = { kind: 'user', id: userId }
    await sql`delete from perm_user_assets where user_id = ${userId} and org_id = ${orgId}`.execute(tx)
    await sql`delete from perm_user_nodes where user_id = ${userId} and org_id = ${orgId}`.execute(tx)
    // Only assets the organization's lists show (the asset in the org), so the count below is the list's count.
    const inserted = await sql`insert into perm_user_assets (user_id, org_id, asset_id, actions)
      select ${userId}::uuid, ${orgId}::uuid, g.asset_id, g.actions from (${grantedAssetsQuery(s, orgId)}) g
        join assets a on a.id = g.asset_id and ${orgCond(orgId, 'a')}`.execute(tx)
    const amount = Number(inserted.numAffectedRows ?? 0)
    await sql`insert into perm_user_nodes (user_id, org_id, node_id, key, parent_key, assets_amount)
      select ${userId}::uuid, ${orgId}::uuid, t.id, t.key, t.parent_key, t.amount from (${treeQuery(sql`select asset_id from perm_user_assets where user_id = ${userId} and org_id = ${orgId}`)}) t`.execute(tx)
    const until = await nextBoundary(tx, s, orgId)
    await sql`insert into perm_user_cache (user_id, org_id, epoch, user_epoch, org_epoch, valid_until, assets_amount)
      values (${userId}, ${orgId}, ${ep.value}, ${ep.user_epoch}, ${ep.org_epoch}, ${until}, ${amount})
      on conflict (user_id, org_id) do update set epoch = excluded.epoch, user_epoch = excluded.user_epoch, org_epoch = excluded.org_epoch,
        valid_until = excluded.valid_until, assets_amount = excluded.assets_amount, date_built = now()`.execute(tx)
    cacheStats.rebuilds++
    return amount
  })
  // A rebuild that moved many rows changes what the planner should expect of the cache tables (a user's first
  // build, a large grant or revocation): have them analyzed now rather than when autovacuum notices.
  if (built !== null && Math.abs(built - (now?.amount ?? 0)) >= 1000) analyzeSoon(db, 'perm_user_assets', 'perm_user_nodes')
  return built
}

/**
 * Nodes holding a granted asset in their subtree, with the number of such assets: the ancestors (and self) of
 * every node a granted asset is linked to — found from the node keys' prefixes, not by scanning the tree.
 */
function treeQuery(assetIds: RawBuilder<unknown>): RawBuilder<{ id: string; key: string; parent_key: string; amount: number }> {
  return sql<{ id: string; key: string; parent_key: string; amount: number }>`select n.id, n.key, n.parent_key, count(distinct ga.asset_id)::int as amount
    from (${assetIds}) ga
    join asset_nodes an on an.asset_id = ga.asset_id
    join nodes leaf on leaf.id = an.node_id
    cross join lateral (select array_to_string((string_to_array(leaf.key, ':'))[1:i], ':') as k
      from generate_series(1, array_length(string_to_array(leaf.key, ':'), 1)) i) anc
    join nodes n on n.key = anc.k
    group by n.id, n.key, n.parent_key`
}

export interface Granted {
  /** Condition on assets `t`: granted to the subject in the organization. */
  cond: RawBuilder<unknown>
  /** How many assets the condition matches in the organization's asset list, when the cache knows it. */
  amount?: number
}

/** The subject's granted assets (a user's cache is made current first). */
export async function grantedAssets(db: DB, s: Subject, orgId: string): Promise<Granted> {
  if (s.kind === 'user') {
    const amount = await ensureUserGrants(db, s.id, orgId)
    return { cond: sql`t.id in (select g.asset_id from perm_user_assets g where g.user_id = ${s.id} and g.org_id = ${orgId})`, amount: amount ?? undefined }
  }
  return { cond: sql`t.id in (select g.asset_id from (${grantedAssetsQuery(s, orgId)}) g)` }
}

/**
 * How many of the subject's granted assets lie in the node's subtree (the node's `assets_amount` in their tree:
 * 0 when it is not in it), from a user's current cache; undefined for a group (not cached).
 */
export async function grantedNodeAmount(db: DB, s: Subject, orgId: string, nodeId: string): Promise<number | undefined> {
  if (s.kind !== 'user') return undefined
  const r = await db.selectFrom('perm_user_nodes').select('assets_amount')
    .where('user_id', '=', s.id).where('org_id', '=', orgId).where('node_id', '=', nodeId).executeTakeFirst()
  return Number(r?.assets_amount ?? 0)
}

/** Merged actions of the granted assets among `ids`. */
export async function grantedActions(db: DB, s: Subject, orgId: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map()
  const rows = s.kind === 'user'
    ? await db.selectFrom('perm_user_assets').select(['asset_id', 'actions'])
      .where('user_id', '=', s.id).where('org_id', '=', orgId).where('asset_id', '=', sql<string>`any(${ids}::uuid[])`).execute()
    : (await sql<{ asset_id: string; actions: number }>`select asset_id, actions from (${grantedAssetsQuery(s, orgId)}) g where asset_id = any(${ids}::uuid[])`.execute(db)).rows
  return new Map(rows.map((r) => [r.asset_id, Number(r.actions)]))
}

export interface GrantedNode { id: string; key: string; parent_key: string; value: string; org_id: string; amount: number }

/** The subject's visible nodes among the children of `parentKey` ('' = the top level). */
export async function grantedNodes(db: DB, s: Subject, orgId: string, parentKey: string | null): Promise<GrantedNode[]> {
  const byParent = parentKey === null ? sql`true` : sql`g.parent_key = ${parentKey}`
  if (s.kind === 'user') {
    await ensureUserGrants(db, s.id, orgId)
    return (await sql<GrantedNode>`select g.node_id as id, g.key, g.parent_key, n.value, n.org_id, g.assets_amount as amount
      from perm_user_nodes g join nodes n on n.id = g.node_id where g.user_id = ${s.id} and g.org_id = ${orgId} and ${byParent}`.execute(db)).rows
  }
  return (await sql<GrantedNode>`select g.id, g.key, g.parent_key, n.value, n.org_id, g.amount from (${treeQuery(sql`select asset_id from (${grantedAssetsQuery(s, orgId)}) x`)}) g
    join nodes n on n.id = g.id where ${byParent}`.execute(db)).rows
}

/** Does any of the subject's visible nodes have this key as its parent? (keys given) */
export async function nodesWithChildren(db: DB, s: Subject, orgId: string, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set()
  if (s.kind === 'user') {
    const r = await db.selectFrom('perm_user_nodes').select('parent_key').distinct()
      .where('user_id', '=', s.id).where('org_id', '=', orgId).where('parent_key', '=', sql<string>`any(${keys}::text[])`).execute()
    return new Set(r.map((x) => x.parent_key))
  }
  const all = await grantedNodes(db, s, orgId, null)
  const set = new Set(keys)
  return new Set(all.filter((n) => set.has(n.parent_key)).map((n) => n.parent_key))
}

/** The assets a permission names, and every asset under the nodes it names (valid or not): `asset_id` rows. */
export function permissionAssets(permissionId: string): RawBuilder<{ asset_id: string }> {
  return sql<{ asset_id: string }>`select a.asset_id from asset_permission_assets a where a.assetpermission_id = ${permissionId}
    union select an.asset_id from asset_permission_nodes pn join nodes top on top.id = pn.node_id
      join nodes n on n.org_id = top.org_id and (n.key = top.key or (n.key ~>=~ (top.key || ':') and n.key ~<~ (top.key || ';')))
      join asset_nodes an on an.node_id = n.id where pn.assetpermission_id = ${permissionId}`
}

/**
 * Condition on asset_permissions `p`: the permission reaches the asset — names it, or names one of its nodes or an
 * ancestor of one (JumpServer's `Q(assets=asset) | Q(nodes__in=asset.get_all_nodes())`), valid or not.
 */
export function reachesAssetCond(assetId: string): RawBuilder<unknown> {
  return sql`p.id in (select x.assetpermission_id from asset_permission_assets x where x.asset_id = ${assetId}
    union select x.assetpermission_id from asset_permission_nodes x join nodes pn on pn.id = x.node_id
      where pn.key in (select array_to_string((string_to_array(leaf.key, ':'))[1:i], ':') from asset_nodes an join nodes leaf on leaf.id = an.node_id
        cross join lateral generate_series(1, array_length(string_to_array(leaf.key, ':'), 1)) i where an.asset_id = ${assetId}))`
}

export interface PermedAccount {
  alias: string; name: string; username: string; id: string | null; secret_type: string; has_secret: boolean
  actions: number; date_expired: Date
}

export interface AssetGrant { actions: number; accounts: PermedAccount[]; protocols: Set<string> | 'all' }

/**
 * What the subject may do on one asset: the valid permissions reaching it (directly or through an ancestor-or-self
 * of one of its nodes), their accounts resolved against the asset's accounts, actions merged per account.
 * Undefined when nothing grants the asset.
 */
export async function assetGrant(db: DB, s: Subject, orgId: string, assetId: string, username: string): Promise<AssetGrant | undefined> {
  // One statement (one round trip, a plan of small parts): the ancestor-or-self keys of the asset's nodes, the
  // permissions reaching the asset directly or through one of those nodes, kept when valid and the subject's; and
  // the asset's active accounts.
  type Perm = { id: string; actions: number; accounts: string[]; protocols: string[]; date_expired: string }
  type Account = { id: string; name: string; username: string; secret_type: string; has_secret: boolean; source_id: string }
  const row = (await sql<{ perms: Perm[] | null; accounts: Account[] | null }>`with keys as (
      select array_to_string((string_to_array(leaf.key, ':'))[1:i], ':') as k from asset_nodes an join nodes leaf on leaf.id = an.node_id
        cross join lateral generate_series(1, array_length(string_to_array(leaf.key, ':'), 1)) i where an.asset_id = ${assetId}),
    reach as (
      select x.assetpermission_id as id from asset_permission_assets x where x.asset_id = ${assetId}
      union select x.assetpermission_id from nodes pn join asset_permission_nodes x on x.node_id = pn.id where pn.key in (select k from keys))
    select (select json_agg(json_build_object('id', p.id, 'actions', p.actions, 'accounts', p.accounts, 'protocols', p.protocols, 'date_expired', p.date_expired))
        from asset_permissions p where p.id in (select id from reach) and ${VALID} and ${orgCond(orgId)} and ${subjectCond(s)}) as perms,
      (select json_agg(json_build_object('id', a.id, 'name', a.name, 'username', a.username, 'secret_type', a.secret_type, 'has_secret', a.secret <> '', 'source_id', a.source_id) order by a.username)
        from accounts a where a.asset_id = ${assetId} and a.is_active) as accounts`.execute(db)).rows[0]
  const perms = row?.perms ?? []
  if (!perms.length) return undefined
  const accounts = row?.accounts ?? []
  const merged = new Map<string, PermedAccount>()
  const grant = (key: string, base: Omit<PermedAccount, 'actions' | 'date_expired'>, p: { actions: number; date_expired: Date | string }) => {
    const cur = merged.get(key)
    if (cur) {
      cur.actions |= p.actions
      if (new Date(p.date_expired) > cur.date_expired) cur.date_expired = new Date(p.date_expired)
    } else merged.set(key, { ...base, actions: p.actions, date_expired: new Date(p.date_expired) })
  }
  const real = (a: (typeof accounts)[number]) => ({ alias: a.name, name: a.name, username: a.username, id: a.id, secret_type: a.secret_type, has_secret: a.has_secret })
  let actions = 0
  let protocols: Set<string> | 'all' = new Set()
  for (const p of perms) {
    actions |= p.actions
    if (protocols !== 'all') {
      if (p.protocols.includes('all')) protocols = 'all'
      else for (const x of p.protocols) protocols.add(x)
    }
    const spec = new Set(p.accounts)
    for (const a of accounts) {
      if (spec.has('@ALL') || spec.has(a.username) || spec.has(a.name) || (a.source_id && spec.has(`%${a.source_id}`))) grant(a.id, real(a), p)
    }
    if (spec.has('@USER')) {
      const same = accounts.find((a) => a.username === username)
      if (same) grant(same.id, real(same), p)
      else grant('@USER', { alias: '@USER', name: 'Same with user', username, id: null, secret_type: 'password', has_secret: false }, p)
    }
    if (spec.has('@INPUT')) grant('@INPUT', { alias: '@INPUT', name: 'Manual input', username: '', id: null, secret_type: 'password', has_secret: false }, p)
    if (spec.has('@ANON')) grant('@ANON', { alias: '@ANON', name: 'Anonymous account', username: '', id: null, secret_type: 'password', has_secret: false }, p)
  }
  return { actions, accounts: [...merged.values()], protocols }
}
