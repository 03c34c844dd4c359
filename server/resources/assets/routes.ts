/**
 * Asset routes outside the resource engine: automation methods, the built-in category tree, the start-up hooks
 * of the categories endpoints (custom types, asset count), and the organization counters of assets and nodes.
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { requirePerm, requireUser } from '../../http/context.ts'
import { tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { registerOrgCounter, tableCounter } from '../orgs/orgs.ts'
import { automationMethods, CATEGORIES, CATEGORY_LABELS, TYPES } from './catalog.ts'
import { registerFavoriteAssets } from './favorites.ts'

registerOrgCounter(tableCounter('assets_amount', 'Assets amount', 'assets', 'Asset'))
registerOrgCounter({
  key: 'nodes_amount', label: 'Nodes amount', resource: 'Node', blocksDelete: true,
  // the root node comes and goes with its organization: it does not keep one from being deleted
  count: async (db, ids) => new Map((await sql<{ org_id: string; n: number }>`select org_id, count(*)::int as n from nodes
    where org_id = any(${ids}::uuid[]) and parent_key <> '' group by org_id`.execute(db)).rows.map((r) => [r.org_id, Number(r.n)])),
})

const paths = (p: string) => [p, p.replace(/\/$/, '')]

export async function registerAssetRoutes(app: FastifyInstance): Promise<void> {
  registerFavoriteAssets(app)
  // the categories endpoints (server/startup/categories.ts) list custom types from custom platforms
  app.startupHooks.customTypes = async (db) => (await sql<{ type: string }>`select distinct type from platforms where category = 'custom' order by type`.execute(db)).rows.map((r) => r.type)
  app.startupHooks.assetCount = async (db) => Number((await sql<{ n: number }>`select count(*)::int as n from assets`.execute(db)).rows[0]!.n)
  for (const url of paths('/api/v1/assets/platform-automation-methods/')) {
    app.get(url, async (req) => {
      requireUser(req)
      return automationMethods(req.ctx.lang).map((m) => ({ ...m, params_serializer: null }))
    })
  }
  // The built-in tree: categories → types, counting the current org's assets (lina's "Built-in tree").
  for (const url of paths('/api/v1/assets/nodes/category/tree/')) {
    app.get(url, async (req) => {
      await requirePerm(req, 'assets.view_asset|assets.view_node')
      const ctx = req.ctx
      const orgCond = ctx.orgId === ORG_IDS.ROOT ? sql`true` : sql`org_id = ${ctx.orgId}`
      const counts = (await sql<{ category: string; type: string; n: number }>`select category, type, count(*)::int as n from assets where ${orgCond} group by category, type`.execute(ctx.db)).rows
      const count = (c: string, t?: string) => counts.filter((x) => x.category === c && (!t || x.type === t)).reduce((acc, x) => acc + Number(x.n), 0)
      const out: Array<{ id: string; name: string; title: string; pId: string; isParent: boolean; open: boolean; meta: unknown }> = []
      for (const c of CATEGORIES) {
        const own = TYPES.filter((x) => x.category === c && (c !== 'custom' || counts.some((k) => k.type === x.value)))
        if (!own.length) continue
        const label = tr(ctx.lang, CATEGORY_LABELS[c])
        out.push({ id: c, name: `${label} (${count(c)})`, title: label, pId: '', isParent: true, open: true, meta: { type: 'category', data: { category: c, name: label } } })
        for (const tp of own) {
          const tl = tr(ctx.lang, tp.label)
          out.push({ id: `${c}_${tp.value}`, name: `${tl} (${count(c, tp.value)})`, title: tl, pId: c, isParent: false, open: false, meta: { type: 'type', data: { category: c, type: tp.value, name: tl } } })
        }
      }
      return out
    })
  }
}
