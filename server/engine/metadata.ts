/** OPTIONS metadata (contract §2): one entry per allowed method, field infos in declaration order. */
import { tr } from '../i18n.ts'
import { fieldInfo, filterNames, orderNames, resolveFields } from './fields.ts'
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

function describe(def: ResourceDef, fields: FieldDef[], ctx: Ctx, withFlags: boolean, update = false): Record<string, unknown> {
  const filters = withFlags ? filterNames(def) : new Set<string>()
  const orders = withFlags ? orderNames(def) : new Set<string>()
  return Object.fromEntries(fields.map((f) => {
    const info = fieldInfo(f, ctx, { filter: filters.has(f.name), order: orders.has(f.name) })
    if (update && keepsStoredSecret(f)) info.required = false
    return [f.name, info]
  }))
}

export async function metadata(def: ResourceDef, ctx: Ctx, methods: MetaMethod[], detail: boolean): Promise<Record<string, unknown>> {
  const actions: Record<string, unknown> = {}
  for (const m of methods) {
    const fields = await resolveFields(def, ctx, ACTION_OF[m][detail ? 'detail' : 'list'])
    actions[m] = describe(def, fields, ctx, m === 'GET', m === 'PUT' || m === 'PATCH')
  }
  return {
    name: def.title ? tr(ctx.lang, def.title) : tr(ctx.lang, '{name} List', { name: tr(ctx.lang, def.verboseName) }),
    description: def.description ? tr(ctx.lang, def.description) : '',
    renders: RENDERS,
    parses: PARSES,
    actions,
  }
}
