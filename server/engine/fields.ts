/** Field sets per request and action, permissions per action, and the OPTIONS info of a field (contract §2.2). */
import { ORG_IDS } from '../rbac/catalog.ts'
import { tr } from '../i18n.ts'
import { columnOf, isRelation, META_TYPE } from './kinds.ts'
import { defaultOf } from './parse.ts'
import { findResource } from './registry.ts'
import type { Action, Ctx, FieldDef, FilterDef, PermAction, ResourceDef, TreeChoice } from './types.ts'

const ORG_FIELDS: FieldDef[] = [
  { name: 'org_id', type: 'string', label: 'Organization ID', read_only: true },
  { name: 'org_name', type: 'string', label: 'Organization name', read_only: true, expr: '(select o.name from organizations o where o.id = t.org_id)' },
]

const withOrg = new WeakMap<ResourceDef, FieldDef[]>()

/** Declared fields plus the org fields of org-scoped resources. */
export function allFields(def: ResourceDef): FieldDef[] {
  let list = withOrg.get(def)
  if (!list) {
    list = def.orgScoped ? [...def.fields.filter((f) => f.name !== 'org_id' && f.name !== 'org_name'), ...ORG_FIELDS] : def.fields
    withOrg.set(def, list)
  }
  return list
}

export function fieldByName(def: ResourceDef, name: string): FieldDef | undefined {
  return allFields(def).find((f) => f.name === name)
}

/** The serializer of an action for this request (fields hidden by `visible` removed). */
export async function resolveFields(def: ResourceDef, ctx: Ctx, action: Action): Promise<FieldDef[]> {
  const out: FieldDef[] = []
  for (const f of allFields(def)) if (!f.visible || (await f.visible(ctx, action))) out.push(f)
  return out
}

export function labelOf(f: FieldDef): string {
  if (f.label) return f.label
  if (f.name === 'id') return 'ID'
  const s = f.name.replace(/_/g, ' ')
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** Permission requirement of an action kind (default `<app>.<action>_<model>`). */
export function permOf(def: ResourceDef, kind: PermAction): string | string[] {
  const own = def.perms?.[kind]
  if (own) return own
  if (kind === 'import_add') return permOf(def, 'add')
  if (kind === 'import_change') return permOf(def, 'change')
  return `${def.app}.${kind}_${def.model}`
}

/** The org in which permissions are checked: system-scope resources check ROOT (system bindings only). */
export function permOrg(def: ResourceDef, ctx: Ctx, kind?: PermAction): string {
  return def.systemPerms || (kind && def.systemPermFor?.includes(kind)) ? ORG_IDS.ROOT : ctx.orgId
}

export function filterDefs(def: ResourceDef): Array<string | FilterDef> {
  return def.filters ?? []
}

export function filterNames(def: ResourceDef): Set<string> {
  return new Set(filterDefs(def).map((f) => (typeof f === 'string' ? f : f.name)))
}

const NOT_ORDERABLE = new Set(['uuid', 'fk', 'pk', 'm2m', 'json', 'list', 'nested', 'nested_many', 'field', 'tree'])

/** Orderable field names: explicit list, else every column field except uuid/relations/json. */
export function orderNames(def: ResourceDef): Set<string> {
  if (def.ordering?.fields) return new Set(def.ordering.fields)
  return new Set(allFields(def).filter((f) => columnOf(f) && !f.write_only && !NOT_ORDERABLE.has(f.type) && f.name !== 'id').map((f) => f.name))
}

function plainDefault(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString()
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v
  if (Array.isArray(v)) return v
  return undefined
}

/** OPTIONS info of one field (contract §2.2). */
export function fieldInfo(f: FieldDef, ctx: Ctx, extra?: { filter?: boolean; order?: boolean }, isChild = false): Record<string, unknown> {
  const readOnly = !!f.read_only
  const info: Record<string, unknown> = {
    type: META_TYPE[f.type],
    required: isChild ? f.required !== false : !readOnly && !!f.required,
    read_only: readOnly,
    write_only: !!f.write_only,
  }
  if (!isChild || f.label) info.label = tr(ctx.lang, labelOf(f))
  if (f.help_text) info.help_text = tr(ctx.lang, f.help_text)
  if (f.min_length !== undefined) info.min_length = f.min_length
  if (f.max_length !== undefined) info.max_length = f.max_length
  if (f.min_value !== undefined) info.min_value = f.min_value
  if (f.max_value !== undefined) info.max_value = f.max_value
  if (!f.required && !readOnly && f.default !== undefined) {
    // the wire form: a bit-field tree's default as its names (JumpServer's `actions.default = [names]`), not bits
    const d = plainDefault(f.type === 'tree' && f.bits ? (typeof f.default === 'function' ? (f.default as () => unknown)() : f.default) : defaultOf(f))
    if (d !== undefined) info.default = d
  }
  if (f.choices) info.choices = f.choices.map((c) => ({ value: c.value, label: tr(ctx.lang, c.label) }))
  if (f.type === 'tree') info.tree = treeInfo(f.tree ?? [], ctx)
  if (f.type === 'list') info.child = f.child ? fieldInfo(f.child, ctx, undefined, true) : { type: 'field', required: true, read_only: false, write_only: false }
  if (f.type === 'nested') info.children = childrenInfo(f.children ?? [], ctx)
  // a JSON value with known keys: their labels and types, for structured views (the value stays JSON)
  if (f.type === 'json' && f.children?.length) info.children = childrenInfo(f.children, ctx)
  if (f.childrenBy) {
    info.type = META_TYPE.nested
    info.children_from = f.childrenBy.field
    info.variants = Object.fromEntries(Object.entries(f.childrenBy.variants).map(([k, children]) => [k, childrenInfo(children, ctx)]))
  }
  if (f.type === 'nested_many') {
    info.child = { type: 'nested object', required: true, read_only: readOnly, write_only: false, children: childrenInfo(f.children ?? [], ctx) }
  }
  const related = relatedHint(f)
  if (related) info.related = related
  if (extra?.filter) info.filter = true
  if (extra?.order) info.order = true
  return info
}

export interface RelatedHint { model: string; url: string; label: string }

/**
 * The picker source of a related field (our server only; a real JumpServer has no such hint): the target's
 * `<app>.<model>`, its list URL and the attribute that names an object. Undefined when the target is not registered.
 */
export function relatedHint(f: FieldDef): RelatedHint | undefined {
  if (!isRelation(f) || !f.relation) return undefined
  const target = findResource(f.relation.resource)
  if (!target) return undefined
  const label = (f.relation.attrs ?? ['id', 'name']).find((a) => a !== 'id' && a !== 'pk') ?? 'name'
  return { model: `${target.app}.${target.model}`, url: f.relation.query ? `${target.path}?${f.relation.query}` : target.path, label }
}

function treeInfo(nodes: TreeChoice[], ctx: Ctx): unknown[] {
  return nodes.map((n) => ({ value: n.value, label: tr(ctx.lang, n.label), ...(n.children?.length ? { children: treeInfo(n.children, ctx) } : {}) }))
}

function childrenInfo(children: FieldDef[], ctx: Ctx): Record<string, unknown> {
  return Object.fromEntries(children.map((c) => [c.name, fieldInfo(c, ctx)]))
}
