/** OPTIONS metadata (contract §2): one entry per allowed method, field infos in declaration order. */
import { tr } from '../i18n.ts'
import { fieldByName, fieldInfo, filterNames, orderNames, resolveFields } from './fields.ts'
import { columnOf } from './kinds.ts'
import type { Action, Ctx, FieldDef, ResourceDef } from './types.ts'

export const RENDERS = ['application/json', 'text/csv', 'application/xlsx']
export const PARSES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'text/csv', 'text/xlsx', '*/*']

export type MetaMethod = 'POST' | 'GET' | 'PUT' | 'PATCH'

const ACTION_OF: Record<MetaMethod, { list: Action; detail: Action }> = {
  POST: { list: 'create', detail: 'create' },
  GET: { list: 'list', detail: 'retrieve' },
  PUT: { list: 'bulk_update', detail: 'update' },
  PATCH: { list: 'partial_bulk_update', detail: 'partial_update' },
}

/** A required write-only secret is required on create only: an update that leaves it out keeps the stored one. */
export const keepsStoredSecret = (f: FieldDef) => !!f.secret && !!f.write_only

/** Where OPTIONS reads the values other fields depend on (`childrenFrom`): the query, then the object. */
export interface MetaSource { query?: Record<string, unknown>; object?: Record<string, unknown> }

const scalar = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v) ? ((v as Record<string, unknown>).id ?? (v as Record<string, unknown>).pk ?? (v as Record<string, unknown>).value) : v)

/** The value of the field `name` that other fields depend on: `?<name>=`, else the object's own. */
function valueOf(def: ResourceDef, name: string, source: MetaSource): unknown {
  const from = fieldByName(def, name)
  const given = source.query?.[name] ?? (from && source.object ? source.object[columnOf(from) ?? from.name] : undefined)
  return scalar(Array.isArray(given) ? given[0] : given)
}

async function describe(def: ResourceDef, fields: FieldDef[], ctx: Ctx, withFlags: boolean, update: boolean, source: MetaSource): Promise<Record<string, unknown>> {
  const filters = withFlags ? filterNames(def) : new Set<string>()
  const orders = withFlags ? orderNames(def) : new Set<string>()
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    let shown = f
    if (f.childrenFrom) {
      const value = valueOf(def, f.childrenFrom.field, source)
      const children = value === undefined || value === null || value === '' ? undefined : await f.childrenFrom.children(value, ctx)
      if (children) shown = { ...f, type: 'nested', children }
    }
    const info = fieldInfo(shown, ctx, { filter: filters.has(f.name), order: orders.has(f.name) })
    if (f.childrenFrom) info.children_from = f.childrenFrom.field
    if (f.defaultFrom && !update && !f.read_only) {
      const dep = f.defaultFrom.field
      if (dep) info.default_from = dep
      const value = dep ? valueOf(def, dep, source) : undefined
      const d = dep && (value === undefined || value === null || value === '') ? undefined : await f.defaultFrom.get(value, ctx)
      if (d !== undefined) info.default = d
    }
    if (update && keepsStoredSecret(f)) info.required = false
    out[f.name] = info
  }
  return out
}

export async function metadata(def: ResourceDef, ctx: Ctx, methods: MetaMethod[], detail: boolean, source: MetaSource = {}): Promise<Record<string, unknown>> {
  const actions: Record<string, unknown> = {}
  for (const m of methods) {
    const fields = await resolveFields(def, ctx, ACTION_OF[m][detail ? 'detail' : 'list'])
    actions[m] = await describe(def, fields, ctx, m === 'GET', m === 'PUT' || m === 'PATCH', source)
  }
  return {
    name: def.title ? tr(ctx.lang, def.title) : tr(ctx.lang, '{name} List', { name: tr(ctx.lang, def.verboseName) }),
    description: def.description ? tr(ctx.lang, def.description) : '',
    renders: RENDERS,
    parses: PARSES,
    actions,
  }
}
