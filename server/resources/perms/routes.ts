/**
 * What a user or a user group is granted (JumpServer's perms/users/… and perms/user-groups/… APIs, the calls of
 * lina's workbench and of the user / group detail pages):
 *
 *   GET /api/v1/perms/users/<self|id>/assets/                 granted assets (the assets list's search, filters,
 *                                                              order and pages) with `actions` merged
 *   GET /api/v1/perms/users/<self|id>/assets/<asset>/         the asset with permed_accounts and permed_protocols
 *   GET /api/v1/perms/users/<self|id>/assets/<asset>/accounts/ the permed accounts alone
 *   GET /api/v1/perms/users/<self|id>/nodes/                  visible nodes with their granted asset counts
 *   GET /api/v1/perms/users/<self|id>/nodes/children/tree/    the lazy zTree (`key`/`id`; none: the top, open)
 *   GET /api/v1/perms/users/<self|id>/nodes/<node|favorite>/assets/  granted assets under a node / favourites
 *   the same under /api/v1/perms/user-groups/<id>/ (no favourites).
 *
 * Self needs perms.view_myassets; another user perms.view_userassets (and the user a member of the org); a group
 * perms.view_usergroupassets (and the group in the org). Everything is limited to the request's organization.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import { resourceApi } from '../../engine/index.ts'
import { isUuid } from '../../engine/parse.ts'
import type { Values } from '../../http/body.ts'
import { requirePerm, requireUser } from '../../http/context.ts'
import { ApiError } from '../../http/errors.ts'
import { tr } from '../../i18n.ts'
import type { Lang } from '../../http/request-context.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { assets } from '../assets/assets.ts'
import { accounts } from '../accounts/accounts.ts'
import { userGroups } from '../users/groups.ts'
import { users } from '../users/users.ts'
import { actionsOf, assetPermissions } from './permissions.ts'
import { assetGrant, permissionAssets, reachesAssetCond, grantedActions, grantedAssets, grantedNodeAmount, grantedNodes, nodesWithChildren, type Subject } from './grants.ts'

/** Fields of a granted asset in lists (no kind-specific or sensitive fields). */
export const GRANTED_ASSET_FIELDS = ['id', 'name', 'address', 'platform', 'nodes_display', 'protocols', 'category', 'type', 'is_active', 'connectivity', 'comment', 'org_id', 'org_name']

const notFound = (lang: Lang, what: string) => new ApiError(404, { detail: tr(lang, '{model} object does not exist.', { model: tr(lang, what) }), code: 'object_does_not_exist' })

interface Who { subject: Subject; username: string; favoritesOf?: string }

async function resolveUser(req: FastifyRequest, who: string): Promise<Who> {
  const me = requireUser(req)
  if (who === 'self') {
    await requirePerm(req, 'perms.view_myassets')
    return { subject: { kind: 'user', id: me.id }, username: me.username, favoritesOf: me.id }
  }
  await requirePerm(req, 'perms.view_userassets')
  const ctx = req.ctx
  const inOrg = ctx.orgId === ORG_IDS.ROOT ? sql<boolean>`true` : sql<boolean>`org_ids @> array[${ctx.orgId}]::uuid[]`
  const u = isUuid(who) ? await ctx.db.selectFrom('users').select(['id', 'username']).where('id', '=', who).where(inOrg).executeTakeFirst() : undefined
  if (!u) throw notFound(ctx.lang, 'User')
  return { subject: { kind: 'user', id: u.id }, username: u.username }
}

async function resolveGroup(req: FastifyRequest, id: string): Promise<Who> {
  await requirePerm(req, 'perms.view_usergroupassets')
  const ctx = req.ctx
  const g = isUuid(id)
    ? await ctx.db.selectFrom('user_groups').select('id').where('id', '=', id).$if(ctx.orgId !== ORG_IDS.ROOT, (q) => q.where('org_id', '=', ctx.orgId)).executeTakeFirst()
    : undefined
  if (!g) throw notFound(ctx.lang, 'User group')
  return { subject: { kind: 'group', id: g.id }, username: '' }
}

type Params = { who?: string; id?: string; asset?: string; node?: string }

export function registerGrantRoutes(app: FastifyInstance): void {
  const assetApi = resourceApi(assets)

  /**
   * A list of granted assets (optionally narrowed), with the merged actions and the favourite flag added. The
   * unfiltered count comes from the grant cache (all granted assets, or `count` for the narrowed set).
   */
  async function assetList(req: FastifyRequest, who: Who, extra?: RawBuilder<unknown>, count?: () => Promise<number | undefined>) {
    const ctx = req.ctx
    const granted = await grantedAssets(ctx.db, who.subject, ctx.orgId)
    const cond = extra ? sql`(${granted.cond} and ${extra})` : granted.cond
    const known = extra ? count : async () => granted.amount
    const answer = await assetApi.listResponse(req, { extra: cond, only: GRANTED_ASSET_FIELDS, count: known }) as Values[] | { results: Values[] }
    const rows = Array.isArray(answer) ? answer : answer.results
    const ids = rows.map((r) => String(r.id))
    const actions = await grantedActions(ctx.db, who.subject, ctx.orgId, ids)
    const favs = who.favoritesOf && ids.length
      ? new Set((await ctx.db.selectFrom('favorite_assets').select('asset_id').where('user_id', '=', who.favoritesOf).where('asset_id', '=', sql<string>`any(${ids}::uuid[])`).execute()).map((r) => r.asset_id))
      : new Set<string>()
    for (const r of rows) {
      r.actions = actionsOf(actions.get(String(r.id)) ?? 0, ctx.lang)
      r.is_favorite = favs.has(String(r.id))
    }
    return answer
  }

  async function assetDetail(req: FastifyRequest, who: Who, assetId: string, accountsOnly: boolean) {
    const ctx = req.ctx
    const grant = isUuid(assetId) ? await assetGrant(ctx.db, who.subject, ctx.orgId, assetId, who.username) : undefined
    if (!grant) throw notFound(ctx.lang, 'Asset')
    const accounts = grant.accounts.map((a) => ({
      alias: a.alias, name: a.name, username: a.username, id: a.id, secret_type: { value: a.secret_type, label: a.secret_type },
      has_secret: a.has_secret, actions: actionsOf(a.actions, ctx.lang), date_expired: a.date_expired.toISOString(),
    }))
    if (accountsOnly) return accounts
    const [row] = await assetApi.serialize(req, [{ id: assetId }], { only: GRANTED_ASSET_FIELDS })
    if (!row) throw notFound(ctx.lang, 'Asset')
    const protocols = (Array.isArray(row.protocols) ? row.protocols : []) as Array<{ name: string }>
    return {
      ...row,
      actions: actionsOf(grant.actions, ctx.lang),
      permed_accounts: accounts,
      permed_protocols: protocols.filter((p) => grant.protocols === 'all' || grant.protocols.has(String(p.name))),
    }
  }

  async function zTree(req: FastifyRequest, who: Who) {
    const ctx = req.ctx
    const q = req.query as Record<string, string | undefined>
    let parent: string | null = ''
    if (q.key) parent = q.key
    else if (q.id && isUuid(q.id)) parent = (await ctx.db.selectFrom('nodes').select('key').where('id', '=', q.id).executeTakeFirst())?.key ?? '\u0000'
    const top = !q.key && !q.id
    const rows = await grantedNodes(ctx.db, who.subject, ctx.orgId, top ? '' : parent)
    const sortByValue = (list: typeof rows) => list.sort((a, b) => a.value.localeCompare(b.value, ctx.lang, { numeric: true }))
    let shown = sortByValue(rows)
    if (top) {
      const children = (await Promise.all(rows.map((r) => grantedNodes(ctx.db, who.subject, ctx.orgId, r.key)))).flat()
      shown = [...rows, ...sortByValue(children)]
    }
    const parents = await nodesWithChildren(ctx.db, who.subject, ctx.orgId, shown.map((n) => n.key))
    const out: Values[] = shown.map((n) => ({
      id: n.key, name: `${n.value} (${n.amount})`, title: n.value, pId: n.parent_key, isParent: parents.has(n.key), open: top && !n.parent_key,
      meta: { type: 'node', data: { id: n.id, name: n.value, value: n.value, key: n.key, assets_amount: n.amount, org_id: n.org_id } },
    }))
    if (top && who.favoritesOf) {
      const favCond = sql`t.id in (select f.asset_id from favorite_assets f where f.user_id = ${who.favoritesOf})`
      const granted = await grantedAssets(ctx.db, who.subject, ctx.orgId)
      const n = (await sql<{ n: number }>`select count(*)::int as n from assets t where ${granted.cond} and ${favCond}`.execute(ctx.db)).rows[0]!.n
      const name = tr(ctx.lang, 'Favorite')
      out.unshift({ id: 'favorite', name: `${name} (${n})`, title: name, pId: '', isParent: false, open: false, meta: { type: 'node', data: { id: 'favorite', name, value: name, key: 'favorite', assets_amount: n, org_id: ctx.orgId } } })
    }
    return out
  }

  /**
   * lina's job center tree (`nodes/children-with-assets/tree/`): the lazy node tree, and the granted assets placed
   * directly in each node shown (zTree leaves whose `meta.type` is `asset`), at most 1,000 per call.
   */
  async function zTreeWithAssets(req: FastifyRequest, who: Who) {
    const ctx = req.ctx
    const nodes = (await zTree(req, who)).filter((n) => n.id !== 'favorite')
    const keys = nodes.map((n) => String(n.id))
    if (!keys.length) return nodes
    const granted = await grantedAssets(ctx.db, who.subject, ctx.orgId)
    const rows = (await sql<{ id: string; name: string; address: string; key: string; platform_id: number; org_id: string }>`
      select t.id, t.name, t.address, x.key, t.platform_id, t.org_id from assets t join asset_nodes an on an.asset_id = t.id join nodes x on x.id = an.node_id
      where ${granted.cond} and x.org_id = ${ctx.orgId} and x.key = any(${keys}::text[]) order by t.name limit 1000`.execute(ctx.db)).rows
    return [...nodes, ...rows.map((a) => ({
      id: a.id, name: a.name, title: a.address, pId: a.key, isParent: false, open: false, iconSkin: 'file',
      meta: { type: 'asset', data: { id: a.id, name: a.name, address: a.address, platform_id: a.platform_id, org_id: a.org_id } },
    }))]
  }

  async function nodeAssets(req: FastifyRequest, who: Who, node: string) {
    const ctx = req.ctx
    if (node === 'favorite') {
      if (!who.favoritesOf) return assetList(req, who, sql`false`)
      return assetList(req, who, sql`t.id in (select f.asset_id from favorite_assets f where f.user_id = ${who.favoritesOf})`)
    }
    const n = isUuid(node) ? await ctx.db.selectFrom('nodes').select(['key', 'org_id']).where('id', '=', node).executeTakeFirst() : undefined
    if (!n) throw notFound(ctx.lang, 'Node')
    return assetList(req, who, sql`t.id in (select an.asset_id from asset_nodes an join nodes x on x.id = an.node_id
      where x.org_id = ${n.org_id} and (x.key = ${n.key} or (x.key ~>=~ ${`${n.key}:`} and x.key ~<~ ${`${n.key};`})))`,
    () => grantedNodeAmount(ctx.db, who.subject, ctx.orgId, node))
  }

  async function nodeList(req: FastifyRequest, who: Who) {
    const rows = await grantedNodes(req.ctx.db, who.subject, req.ctx.orgId, null)
    return rows.sort((a, b) => a.key.localeCompare(b.key)).map((n) => ({ id: n.id, key: n.key, value: n.value, name: n.value, assets_amount: n.amount, org_id: n.org_id }))
  }

  for (const [prefix, resolve] of [['/api/v1/perms/users/:who/', (req: FastifyRequest, p: Params) => resolveUser(req, p.who!)], ['/api/v1/perms/user-groups/:id/', (req: FastifyRequest, p: Params) => resolveGroup(req, p.id!)]] as const) {
    const get = (path: string, handler: (req: FastifyRequest, who: Who, p: Params) => Promise<unknown>) => {
      for (const url of [prefix + path, (prefix + path).replace(/\/$/, '')]) {
        app.get(url, async (req) => {
          const p = req.params as Params
          return handler(req, await resolve(req, p), p)
        })
      }
    }
    get('assets/', (req, who) => assetList(req, who))
    get('assets/:asset/', (req, who, p) => assetDetail(req, who, p.asset!, false))
    get('assets/:asset/accounts/', (req, who, p) => assetDetail(req, who, p.asset!, true))
    get('nodes/', (req, who) => nodeList(req, who))
    get('nodes/children/tree/', (req, who) => zTree(req, who))
    get('nodes/children-with-assets/tree/', (req, who) => zTreeWithAssets(req, who))
    get('nodes/:node/assets/', (req, who, p) => nodeAssets(req, who, p.node!))
  }

  // A permission's own reach: `…/asset-permissions/<id>/assets/all/` and `…/users/all/` (direct and through nodes /
  // groups), with the assets and users lists' parameters.
  const permApi = resourceApi(assetPermissions)
  const usersApi = resourceApi(users)
  for (const url of ['/api/v1/perms/asset-permissions/:id/assets/all/', '/api/v1/perms/asset-permissions/:id/assets/all']) {
    app.get(url, async (req) => {
      await requirePerm(req, 'perms.view_assetpermission')
      const p = await permApi.getObject(req, (req.params as Params).id!)
      return assetApi.listResponse(req, { only: GRANTED_ASSET_FIELDS, extra: sql`t.id in (${permissionAssets(String(p.id))})` })
    })
  }
  // A permission's accounts: the accounts of every asset it reaches whose username it names (all with `@ALL`),
  // JumpServer's AssetPermission.get_all_accounts.
  const accountsApi = resourceApi(accounts)
  for (const url of ['/api/v1/perms/asset-permissions/:id/accounts/', '/api/v1/perms/asset-permissions/:id/accounts']) {
    app.get(url, async (req) => {
      await requirePerm(req, 'perms.view_assetpermission')
      const p = await permApi.getObject(req, (req.params as Params).id!)
      const names = (Array.isArray(p.accounts) ? p.accounts : []).map(String)
      const named = names.includes('@ALL') ? sql`true` : sql`t.username = any(${names.filter((n) => !n.startsWith('@') && !n.startsWith('%'))}::text[])`
      return accountsApi.listResponse(req, { extra: sql`${named} and t.asset_id in (${permissionAssets(String(p.id))})` })
    })
  }

  // Who is granted an asset (lina's asset detail, "Authorized users" tab): the users and user groups of the
  // permissions reaching it, and those permissions per user / group (JumpServer's AssetPermUser… APIs).
  const groupsApi = resourceApi(userGroups)
  const reaching = async (req: FastifyRequest) => {
    await requirePerm(req, 'perms.view_assetpermission')
    const asset = await assetApi.getObject(req, (req.params as Params).id!)
    return sql`select p.id from asset_permissions p where ${reachesAssetCond(String(asset.id))}`
  }
  const route = (path: string, handler: (req: FastifyRequest) => Promise<unknown>) => {
    for (const url of [path, path.replace(/\/$/, '')]) app.get(url, handler)
  }
  route('/api/v1/assets/assets/:id/perm-users/', async (req) => {
    const perms = await reaching(req)
    return usersApi.listResponse(req, { extra: sql`t.id in (select u.user_id from asset_permission_users u where u.assetpermission_id in (${perms})
      union select m.user_id from asset_permission_user_groups g join user_group_members m on m.usergroup_id = g.usergroup_id where g.assetpermission_id in (${perms}))` })
  })
  route('/api/v1/assets/assets/:id/perm-user-groups/', async (req) => {
    const perms = await reaching(req)
    return groupsApi.listResponse(req, { extra: sql`t.id in (select g.usergroup_id from asset_permission_user_groups g where g.assetpermission_id in (${perms}))` })
  })
  route('/api/v1/assets/assets/:id/perm-users/:user/permissions/', async (req) => {
    const perms = await reaching(req)
    const user = String((req.params as { user: string }).user)
    if (!isUuid(user)) throw notFound(req.ctx.lang, 'User')
    return permApi.listResponse(req, { extra: sql`t.id in (${perms}) and t.id in (select u.assetpermission_id from asset_permission_users u where u.user_id = ${user}
      union select g.assetpermission_id from asset_permission_user_groups g join user_group_members m on m.usergroup_id = g.usergroup_id where m.user_id = ${user})` })
  })
  route('/api/v1/assets/assets/:id/perm-user-groups/:group/permissions/', async (req) => {
    const perms = await reaching(req)
    const group = String((req.params as { group: string }).group)
    if (!isUuid(group)) throw notFound(req.ctx.lang, 'User group')
    return permApi.listResponse(req, { extra: sql`t.id in (${perms}) and t.id in (select g.assetpermission_id from asset_permission_user_groups g where g.usergroup_id = ${group})` })
  })

  for (const url of ['/api/v1/perms/asset-permissions/:id/users/all/', '/api/v1/perms/asset-permissions/:id/users/all']) {
    app.get(url, async (req) => {
      await requirePerm(req, 'perms.view_assetpermission')
      const p = await permApi.getObject(req, (req.params as Params).id!)
      return usersApi.listResponse(req, { only: ['id', 'name', 'username', 'email', 'is_active', 'is_valid', 'source', 'org_roles', 'system_roles'], extra: sql`t.id in (select u.user_id from asset_permission_users u where u.assetpermission_id = ${p.id}
        union select m.user_id from asset_permission_user_groups g join user_group_members m on m.usergroup_id = g.usergroup_id where g.assetpermission_id = ${p.id})` })
    })
  }
}
