/**
 * Nodes `/api/v1/assets/nodes/` (contract §5.2): the asset tree of an organization. The tree mechanism itself
 * (keys, paths, moves, counts, zTree shape) is in server/engine/tree.ts; this file declares the resource and
 * its actions: children, the lazy zTree, assets add/replace/remove.
 */
import { sql } from 'kysely'
import type { FastifyRequest } from 'fastify'
import type { DB, RowOf } from '../../db/connection.ts'
import type { ResourceApi, ResourceDef } from '../../engine/types.ts'
import { bodyObject, refId, type Values } from '../../http/body.ts'
import { KeyTree } from '../../engine/tree.ts'
import { withTx } from '../../engine/write.ts'
import { validationError } from '../../http/errors.ts'
import { tr } from '../../i18n.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { createdBy, dateCreated, dateUpdated, idField } from '../common.ts'
import './messages.ts'

/** The asset node tree: nodes table, member links in asset_nodes. */
export const nodeTree = new KeyTree({ table: 'nodes', links: { table: 'asset_nodes', node: 'node_id', member: 'asset_id', path: 'node_path' },
  cache: { amount: 'members_amount', version: 'members_version' },
})

const VALUE_ERROR = 'Node value cannot contain "/"'

async function orgOfWrite(ctx: FastifyRequest['ctx'], body: Values, existing?: NodeRow): Promise<string | undefined> {
  if (existing) return String(existing.org_id)
  if (ctx.orgId !== ORG_IDS.ROOT) return ctx.orgId
  return typeof body.org_id === 'string' ? body.org_id : undefined
}

type NodeRow = RowOf<'nodes'>

export const nodes: ResourceDef<'nodes', { name: string }> = {
  name: 'assets.node',
  app: 'assets',
  model: 'node',
  verboseName: 'Node',
  path: '/api/v1/assets/nodes/',
  table: 'nodes',
  orgScoped: true,
  fields: [
    idField(),
    { name: 'key', type: 'string', label: 'Key', read_only: true },
    { name: 'value', type: 'string', label: 'Value', max_length: 128, validate: (v: string, ctx) => (v.includes('/') ? tr(ctx.lang, VALUE_ERROR) : undefined) },
    { name: 'name', type: 'string', label: 'Name', read_only: true, expr: 't.value' },
    { name: 'full_value', type: 'string', label: 'Full value', max_length: 4096 },
    { name: 'assets_amount', type: 'integer', label: 'Assets amount', read_only: true, column: false, load: (ids, { db, rows }) => nodeTree.amounts(db, rows.filter((r) => ids.includes(r.id)).map((r) => ({ id: String(r.id) }))) },
    createdBy,
    dateCreated,
    dateUpdated,
  ],
  search: ['value'],
  filters: ['id', 'key', 'value', { name: 'parent', apply: (v) => sql`t.parent_key = ${v}` }],
  ordering: { fields: ['value', 'key', 'date_created'], default: ['key'] },
  sizes: { mini: ['id', 'name', 'key', 'full_value'], small: ['id', 'name', 'key', 'value', 'full_value', 'assets_amount'] },
  display: (r) => String(r.full_value ?? r.value),
  hooks: {
    async validate(values, ctx, info) {
      const org = await orgOfWrite(ctx, info.req ? bodyObject(info.req) : {}, info.existing)
      if (!org) return undefined
      if (info.op === 'create') {
        if (values.full_value) {
          const parts = String(values.full_value).split('/').filter(Boolean)
          if (!parts.length) return { full_value: [tr(ctx.lang, 'This field is required.')] }
          return undefined
        }
        return undefined
      }
      if (values.full_value !== undefined && values.full_value !== info.existing?.full_value) {
        return { full_value: [tr(ctx.lang, 'Use the move action to change a node\'s place')] }
      }
      if (info.existing && !info.existing.parent_key && values.value !== undefined && values.value !== info.existing.value) {
        return undefined
      }
      return undefined
    },
    async columns(values, ctx, info) {
      if (info.op === 'create') {
        const body = info.req ? bodyObject(info.req) : {}
        const org = (await orgOfWrite(ctx, body))!
        const parentId = (info.req?.query as Values | undefined)?.parent ?? body.parent
        const made = await nodeTree.placeNew(info.tx, org, values, typeof parentId === 'string' ? parentId : undefined, ctx.lang)
        return made
      }
      return {}
    },
    async afterSave(tx, id, values, ctx, info) {
      if (info.op === 'update' && values.value !== undefined && values.value !== info.existing!.value) {
        await nodeTree.renamed(tx, info.existing!, String(values.value))
      }
    },
    async beforeDelete(tx, row, ctx) {
      await nodeTree.checkDelete(tx, row, ctx.lang)
    },
  },
  actions: [
    {
      path: 'children', detail: true, method: 'GET', perm: 'assets.view_node',
      async handler(req, _reply, api, id) {
        const node = await api.getObject(req, id!)
        const rows = await sql<NodeRow>`select * from nodes t where t.org_id = ${node.org_id} and t.parent_key = ${node.key}`.execute(req.ctx.db)
        return api.serialize(req, sortByValue(rows.rows))
      },
    },
    {
      path: 'children', detail: true, method: 'POST', perm: 'assets.add_node',
      async handler(req, reply, api, id) {
        const node = await api.getObject(req, id!)
        const body = bodyObject(req)
        const value = typeof body.value === 'string' && body.value.trim() ? body.value.trim() : undefined
        const made = await withTx(req.ctx.db, nodes, async (tx) => {
          const v = value ?? await nodeTree.freeName(tx, node, tr(req.ctx.lang, 'New node'))
          if (v.includes('/')) throw validationError({ value: [tr(req.ctx.lang, VALUE_ERROR)] })
          const created = await nodeTree.createChild(tx, node, v, req.ctx.lang)
          await api.audit(tx, req, 'create', created)
          return created
        }, req.ctx.lang)
        const [out] = await api.serialize(req, [made])
        return reply.status(201).send(out)
      },
    },
    {
      // lina's drag and drop: the given nodes move under this one (their subtrees follow).
      path: 'children/add', detail: true, method: 'PUT', perm: 'assets.change_node',
      async handler(req, _reply, api, id) {
        const parent = await api.getObject(req, id!)
        const raw = bodyObject(req).nodes
        if (!Array.isArray(raw)) throw validationError({ nodes: [tr(req.ctx.lang, 'Expected a list of items but got type "{type}".', { type: typeof raw })] })
        const moving: NodeRow[] = []
        for (const x of raw) {
          const nid = String(refId(x))
          moving.push(await api.getObject(req, nid).catch(() => { throw validationError({ nodes: [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: nid })] }) }))
        }
        await withTx(req.ctx.db, nodes, async (tx) => {
          for (const node of moving) {
            const fresh = (await nodeTree.byId(tx, String(node.id)))!
            const target = (await nodeTree.byId(tx, String(parent.id)))!
            await nodeTree.move(tx, fresh, target, req.ctx.lang)
            await api.audit(tx, req, 'update', node, [{ field: 'Full value', before: String(fresh.full_value), after: `${target.full_value}/${fresh.value}` }])
          }
        }, req.ctx.lang)
        return api.serialize(req, await Promise.all(moving.map((n) => api.getObject(req, String(n.id)))))
      },
    },
    ...(['add', 'replace', 'remove'] as const).map((op) => ({
      path: `assets/${op}`, detail: true, method: 'PUT' as const, perm: 'assets.change_node',
      async handler(req: FastifyRequest, _reply: unknown, api: ResourceApi<NodeRow>, id?: string) {
        const node = await api.getObject(req, id!)
        const raw = bodyObject(req).assets
        if (!Array.isArray(raw)) throw validationError({ assets: [tr(req.ctx.lang, 'Expected a list of items but got type "{type}".', { type: typeof raw })] })
        const ids = await existingAssets(req.ctx.db, String(node.org_id), raw)
        if (ids.missing) throw validationError({ assets: [tr(req.ctx.lang, 'Invalid pk "{pk}" - object does not exist.', { pk: ids.missing })] })
        await withTx(req.ctx.db, nodes, async (tx) => {
          await nodeTree.changeMembers(tx, node, ids.ids, op)
          await api.audit(tx, req, 'update', node)
        }, req.ctx.lang)
        return { assets: ids.ids }
      },
    })),
    {
      path: 'children/tree', detail: false, method: 'GET', perm: 'assets.view_node|assets.view_asset',
      async handler(req) {
        const q = (req.query ?? {}) as Values
        const tree = await nodeTree.zTree(req.ctx.db, req.ctx.orgId, q, req.ctx.lang)
        if (String(q.assets ?? '0') !== '1' || q.search) return tree
        // with assets=1 the expanded node's own assets follow its children as leaves
        const expanded = typeof q.key === 'string' && q.key ? tree.length ? tree[0]!.pId : q.key : tree.find((n) => !n.pId)?.id
        const node = expanded ? (await sql<NodeRow>`select * from nodes where key = ${expanded}`.execute(req.ctx.db)).rows[0] : undefined
        if (!node || (req.ctx.orgId !== ORG_IDS.ROOT && node.org_id !== req.ctx.orgId)) return tree
        const leaves = await sql<Pick<RowOf<'assets'>, 'id' | 'name' | 'address' | 'category' | 'type' | 'platform_id'>>`select a.id, a.name, a.address, a.category, a.type, a.platform_id from assets a join asset_nodes an on an.asset_id = a.id
          where an.node_id = ${node.id} order by a.name limit 1000`.execute(req.ctx.db)
        return [...tree, ...leaves.rows.map((a) => ({
          id: a.id, name: a.name, title: a.address, pId: node.key, isParent: false, open: false, iconSkin: a.type,
          meta: { type: 'asset', data: { id: a.id, name: a.name, address: a.address, category: a.category, type: a.type, platform: a.platform_id, org_id: node.org_id } },
        }))]
      },
    },
  ],
}

function sortByValue<T extends { value: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => String(a.value).localeCompare(String(b.value), undefined, { numeric: true }))
}

/** The asset ids of one org among `raw` (the first unknown one reported). */
async function existingAssets(db: DB, orgId: string, raw: unknown[]): Promise<{ ids: string[]; missing?: string }> {
  const wanted = raw.map(refId).map(String)
  const valid = wanted.filter((x) => /^[0-9a-f-]{36}$/i.test(x))
  const found = new Set(valid.length ? (await sql<{ id: string }>`select id from assets where org_id = ${orgId} and id = any(${valid}::uuid[])`.execute(db)).rows.map((r) => r.id) : [])
  const missing = wanted.find((x) => !found.has(x.toLowerCase()))
  return { ids: [...new Set(wanted.map((x) => x.toLowerCase()))], missing }
}
