/**
 * A tree of named nodes per organization keyed by paths of integers (JumpServer's node keys): the root key is a
 * bare integer unique across organizations, a child key is `<parent key>:<n>` with `n` from the parent's
 * `child_mark`; `full_value` is the `/`-joined path of values. Members (e.g. assets) are linked to nodes through a
 * link table; counts include the whole subtree. The answer of a lazy tree is zTree-shaped (contract §5.2).
 * Used by asset nodes; later trees (granted assets, org trees) build on it. docs/engine.md "Trees".
 */
import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../db/connection.ts'
import { validationError } from '../http/errors.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { ApiError } from '../http/errors.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { randomUUID } from 'node:crypto'

export interface TreeNode { id: string; key: string; value: string; full_value: string; parent_key: string; child_mark: number; org_id: string }

export interface KeyTreeOptions {
  table: string
  /**
   * Member links: (node, member) rows. `path`: a column of the link holding its node's `key || ':'`, kept by the
   * database's triggers (migration 030) and indexed with varchar_pattern_ops, so a subtree's links are one index
   * range; without it the subtree's node ids are read first.
   */
  links: { table: string; node: string; member: string; path?: string }
  /**
   * Cached subtree counts on the tree table: `amount` (NULL = unknown) and `version` (grows with every change),
   * both kept stale-marked by the database's triggers; a read computes the unknown ones and stores them.
   */
  cache: { amount: string; version: string }
}

export interface ZNode {
  id: string
  name: string
  title: string
  pId: string
  isParent: boolean
  open: boolean
  meta: { type: 'node'; data: { id: string; name: string; value: string; key: string; assets_amount: number; org_id: string } }
}

const like = (key: string) => `${key}:%`

export class KeyTree {
  constructor(readonly o: KeyTreeOptions) {}

  private get t() { return sql.table(this.o.table) }
  private get l() { return sql.table(this.o.links.table) }
  private get ln() { return sql.ref(this.o.links.node) }
  private get lm() { return sql.ref(this.o.links.member) }

  async root(db: DB, orgId: string): Promise<TreeNode> {
    const r = await sql<TreeNode>`select * from ${this.t} where org_id = ${orgId} and parent_key = '' order by key limit 1`.execute(db)
    if (r.rows[0]) return r.rows[0]
    throw new Error(`organization ${orgId} has no root node`)
  }

  async byId(db: DB, id: string): Promise<TreeNode | undefined> {
    return (await sql<TreeNode>`select * from ${this.t} where id = ${id}`.execute(db)).rows[0]
  }

  /**
   * Members in the subtree of each node (distinct). Cached counts are read as they are; unknown ones are counted
   * over the links' path range and stored unless a change came in between (the version moved) or a writer holds
   * the node (it will mark it unknown again).
   */
  async amounts(db: DB, nodes: Array<Pick<TreeNode, 'id'>>): Promise<Map<unknown, unknown>> {
    const out = new Map<unknown, unknown>(nodes.map((n) => [n.id, 0]))
    if (!nodes.length) return out
    const amount = sql.ref(this.o.cache.amount)
    const version = sql.ref(this.o.cache.version)
    const r = await sql<{ id: string; n: number; v: string; stale: boolean }>`select x.id, x.${version} as v, x.${amount} is null as stale,
        coalesce(x.${amount}, (select count(distinct l.${this.lm}) from ${this.l} l where ${this.subtreeLinks(sql`x.key`)}))::int as n
      from ${this.t} x where x.id = any(${nodes.map((n) => n.id)}::uuid[])`.execute(db)
    for (const row of r.rows) out.set(row.id, Number(row.n))
    const stale = r.rows.filter((row) => row.stale)
    if (stale.length) {
      await sql`update ${this.t} t set ${amount} = v.n from unnest(${stale.map((x) => x.id)}::uuid[], ${stale.map((x) => x.n)}::int[], ${stale.map((x) => x.v)}::bigint[]) as v(id, n, ver)
        where t.id = v.id and t.${version} = v.ver
          and t.id in (select s.id from ${this.t} s where s.id = any(${stale.map((x) => x.id)}::uuid[]) for update skip locked)`.execute(db)
    }
    return out
  }

  private async childNamed(db: DB, parent: TreeNode, value: string): Promise<TreeNode | undefined> {
    return (await sql<TreeNode>`select * from ${this.t} where org_id = ${parent.org_id} and parent_key = ${parent.key} and value = ${value}`.execute(db)).rows[0]
  }

  private async nextKey(db: DB, parent: TreeNode): Promise<string> {
    const r = await sql<{ child_mark: number }>`update ${this.t} set child_mark = child_mark + 1 where id = ${parent.id} returning child_mark`.execute(db)
    return `${parent.key}:${r.rows[0]!.child_mark}`
  }

  private sameName(lang: Lang): ApiError {
    return validationError({ value: [tr(lang, 'The same level node name cannot be the same')] })
  }

  /** A new child node (its value must be free among the siblings). */
  async createChild(db: DB, parent: TreeNode, value: string, lang: Lang, createdBy = ''): Promise<TreeNode> {
    if (await this.childNamed(db, parent, value)) throw this.sameName(lang)
    const key = await this.nextKey(db, parent)
    const r = await sql<TreeNode>`insert into ${this.t} (id, key, value, full_value, parent_key, org_id, created_by)
      values (${randomUUID()}, ${key}, ${value}, ${`${parent.full_value}/${value}`}, ${parent.key}, ${parent.org_id}, ${createdBy}) returning *`.execute(db)
    return r.rows[0]!
  }

  /** "New node", "New node 1", … : the first value free among a node's children. */
  async freeName(db: DB, parent: TreeNode, base: string): Promise<string> {
    const taken = new Set((await sql<{ value: string }>`select value from ${this.t} where org_id = ${parent.org_id} and parent_key = ${parent.key} and value like ${`${base}%`}`.execute(db)).rows.map((r) => r.value))
    if (!taken.has(base)) return base
    for (let i = 1; ; i++) if (!taken.has(`${base} ${i}`)) return `${base} ${i}`
  }

  /**
   * Columns of a node created through the list URL: under `parentId` (or the org root) with `value`, or along
   * `full_value` (`/Root/a/b`, the root's name optional), creating the missing intermediate nodes.
   */
  async placeNew(db: DB, orgId: string, values: { value?: unknown; full_value?: unknown }, parentId: string | undefined, lang: Lang): Promise<Pick<TreeNode, 'key' | 'value' | 'full_value' | 'parent_key'>> {
    let parent = await this.root(db, orgId)
    let value = values.value as string | undefined
    if (parentId) {
      const p = await this.byId(db, parentId)
      if (!p || p.org_id !== orgId) throw validationError({ parent: [tr(lang, 'Invalid pk "{pk}" - object does not exist.', { pk: parentId })] })
      parent = p
    }
    if (values.full_value) {
      const parts = String(values.full_value).split('/').map((s) => s.trim()).filter(Boolean)
      if (parts[0] === parent.value && parts.length > 1) parts.shift()
      value = parts.pop()!
      for (const part of parts) parent = (await this.childNamed(db, parent, part)) ?? (await this.createChild(db, parent, part, lang))
    }
    if (!value) value = await this.freeName(db, parent, tr(lang, 'New node'))
    if (value.includes('/')) throw validationError({ value: [tr(lang, 'Node value cannot contain "/"')] })
    if (await this.childNamed(db, parent, value)) throw this.sameName(lang)
    return { key: await this.nextKey(db, parent), value, full_value: `${parent.full_value}/${value}`, parent_key: parent.key }
  }

  /** After a rename: the node's and its subtree's full values follow. */
  async renamed(db: DB, before: TreeNode, value: string): Promise<void> {
    const parentFull = before.full_value.slice(0, before.full_value.length - before.value.length - 1)
    const full = `${parentFull}/${value}`
    await sql`update ${this.t} set full_value = ${full} || substr(full_value, ${before.full_value.length + 1})
      where org_id = ${before.org_id} and (key = ${before.key} or key like ${like(before.key)})`.execute(db)
  }

  /** Moves a node under another of the same org: the subtree's keys, parent keys and full values follow. */
  async move(db: DB, node: TreeNode, parent: TreeNode, lang: Lang): Promise<void> {
    if (!node.parent_key) throw validationError({ parent: [tr(lang, 'The root node cannot be moved')] })
    if (parent.org_id !== node.org_id || parent.key === node.key || parent.key.startsWith(`${node.key}:`)) {
      throw validationError({ parent: [tr(lang, 'A node cannot be moved under itself or its descendants')] })
    }
    if (parent.key === node.parent_key) return
    const fresh = (await this.byId(db, parent.id))!
    if (await this.childNamed(db, fresh, node.value)) throw this.sameName(lang)
    const key = await this.nextKey(db, fresh)
    const full = `${fresh.full_value}/${node.value}`
    const n = node.key.length + 1
    await sql`update ${this.t} set
        key = ${key} || substr(key, ${n}),
        parent_key = case when key = ${node.key} then ${fresh.key} else ${key} || substr(parent_key, ${n}) end,
        full_value = ${full} || substr(full_value, ${node.full_value.length + 1}),
        date_updated = now()
      where org_id = ${node.org_id} and (key = ${node.key} or key like ${like(node.key)})`.execute(db)
  }

  /** Refuses to delete a root, a node with children or a node holding members. */
  async checkDelete(db: DB, node: TreeNode, lang: Lang): Promise<void> {
    const refuse = (detail: string) => new ApiError(400, { detail, code: 'node_not_empty' })
    if (!node.parent_key) throw refuse(tr(lang, 'The root node cannot be deleted'))
    const children = await sql<{ n: number }>`select count(*)::int as n from ${this.t} where org_id = ${node.org_id} and parent_key = ${node.key}`.execute(db)
    if (children.rows[0]!.n) throw refuse(tr(lang, 'The node "{name}" has child nodes and cannot be deleted', { name: node.value }))
    const members = await sql<{ n: number }>`select count(*)::int as n from ${this.l} where ${this.ln} = ${node.id}`.execute(db)
    if (members.rows[0]!.n) throw refuse(tr(lang, 'The node "{name}" holds assets and cannot be deleted', { name: node.value }))
  }

  /**
   * add: link the members to the node; replace: the node becomes the members' only node (move here);
   * remove: unlink them (a member left in no node goes to the org root).
   */
  async changeMembers(db: DB, node: TreeNode, ids: string[], op: 'add' | 'replace' | 'remove'): Promise<void> {
    if (!ids.length) return
    if (op === 'replace') {
      await sql`delete from ${this.l} where ${this.lm} = any(${ids}::uuid[]) and ${this.ln} <> ${node.id}`.execute(db)
    }
    if (op === 'add' || op === 'replace') {
      await sql`insert into ${this.l} (${this.lm}, ${this.ln}) select x, ${node.id}::uuid from unnest(${ids}::uuid[]) as x on conflict do nothing`.execute(db)
      return
    }
    await sql`delete from ${this.l} where ${this.lm} = any(${ids}::uuid[]) and ${this.ln} = ${node.id}`.execute(db)
    const root = await this.root(db, node.org_id)
    await sql`insert into ${this.l} (${this.lm}, ${this.ln}) select x, ${root.id}::uuid from unnest(${ids}::uuid[]) as x
      where not exists (select 1 from ${this.l} l where l.${this.lm} = x) on conflict do nothing`.execute(db)
  }

  /** Links one member to the given nodes or, when none, to the org root. */
  async placeMember(db: DB, orgId: string, member: string, nodeIds: string[]): Promise<void> {
    const ids = nodeIds.length ? nodeIds : [(await this.root(db, orgId)).id]
    await sql`insert into ${this.l} (${this.lm}, ${this.ln}) select ${member}::uuid, x from unnest(${ids}::uuid[]) as x on conflict do nothing`.execute(db)
  }

  /**
   * Condition on the links (alias `l`) of the subtree of the node whose key is `key`: one range of the links' path
   * index ('K:' ≤ path < 'K;' holds K's own links and its descendants', never a sibling's such as K0), or,
   * without a path column, the subtree's nodes from a range of the key index joined to their links.
   */
  private subtreeLinks(key: RawBuilder<unknown> | string) {
    const k = typeof key === 'string' ? sql`${key}::text` : key
    if (this.o.links.path) {
      const p = sql.ref(`l.${this.o.links.path}`)
      return sql`${p} ~>=~ (${k} || ':') and ${p} ~<~ (${k} || ';')`
    }
    return sql`l.${this.ln} in (select n.id from ${this.t} n where n.key = ${k} or (n.key ~>=~ (${k} || ':') and n.key ~<~ (${k} || ';')))`
  }

  /** Condition on a member table (alias `t`): members of the node, with or without its descendants. */
  memberCond(node: TreeNode, withDescendants: boolean) {
    if (!withDescendants) return sql`t.id in (select l.${this.lm} from ${this.l} l where l.${this.ln} = ${node.id})`
    return sql`t.id in (select l.${this.lm} from ${this.l} l where ${this.subtreeLinks(node.key)})`
  }

  private async zNodes(db: DB, rows: TreeNode[], open: (n: TreeNode) => boolean): Promise<ZNode[]> {
    const amounts = await this.amounts(db, rows)
    const parents = new Set(rows.length ? (await sql<{ parent_key: string }>`select distinct parent_key from ${this.t}
      where parent_key = any(${rows.map((r) => r.key)}::text[])`.execute(db)).rows.map((r) => r.parent_key) : [])
    return rows.map((n) => {
      const count = Number(amounts.get(n.id) ?? 0)
      return {
        id: n.key, name: `${n.value} (${count})`, title: n.value, pId: n.parent_key, isParent: parents.has(n.key), open: open(n),
        meta: { type: 'node', data: { id: n.id, name: n.value, value: n.value, key: n.key, assets_amount: count, org_id: n.org_id } },
      }
    })
  }

  /**
   * The lazy zTree answer: `key` (or `id`) → that node's children; `search` → matching nodes; nothing → the
   * org's root (every org's root in ROOT) open, with its children.
   */
  async zTree(db: DB, orgId: string, q: Record<string, unknown>, lang: Lang): Promise<ZNode[]> {
    const orgCond = orgId === ORG_IDS.ROOT ? sql`true` : sql`org_id = ${orgId}`
    const key = typeof q.key === 'string' && q.key ? q.key : undefined
    const id = typeof q.id === 'string' && /^[0-9a-f-]{36}$/i.test(q.id) ? q.id : undefined
    const search = typeof q.search === 'string' && q.search.trim() ? q.search.trim() : undefined
    const sort = (rows: TreeNode[]) => rows.sort((a, b) => a.value.localeCompare(b.value, lang, { numeric: true }))
    if (search) {
      const rows = (await sql<TreeNode>`select * from ${this.t} where ${orgCond} and value ilike ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}
        order by key limit 1000`.execute(db)).rows
      return this.zNodes(db, sort(rows), () => false)
    }
    if (key || id) {
      const parent = (await sql<TreeNode>`select * from ${this.t} where ${orgCond} and ${key ? sql`key = ${key}` : sql`id = ${id}`}`.execute(db)).rows[0]
      if (!parent) return []
      const rows = (await sql<TreeNode>`select * from ${this.t} where org_id = ${parent.org_id} and parent_key = ${parent.key}`.execute(db)).rows
      return this.zNodes(db, sort(rows), () => false)
    }
    const roots = (await sql<TreeNode>`select * from ${this.t} where ${orgCond} and parent_key = '' and org_id <> ${ORG_IDS.SYSTEM} order by key`.execute(db)).rows
    const children = roots.length ? (await sql<TreeNode>`select * from ${this.t} where parent_key = any(${roots.map((r) => r.key)}::text[])`.execute(db)).rows : []
    return this.zNodes(db, [...roots, ...sort(children)], (n) => !n.parent_key)
  }
}
