/**
 * Kinds of a base resource: one base declaration (fields, hooks, filters) and, per kind, the part that differs
 * (name, path, its own fields, a scope that selects its rows, extra hooks). `kindOf(base, part)` gives a full
 * `ResourceDef` that the engine serves like any other (docs/engine.md, "Kinds of a base resource").
 * Assets use it: host, database, device, cloud, web and custom on the one `assets` table.
 */
import { sql } from 'kysely'
import type { Cond, FieldDef, FilterDef, Hooks, NoExtra, ResourceDef, Row, StoredRow, TableName } from './types.ts'

export interface KindPart<R = Row, F = R> {
  name: string
  model: string
  verboseName: string
  path: string
  title?: string
  /** Fields of this kind: a field named like a base field replaces it in place, others follow the base fields. */
  fields?: Array<FieldDef<F>>
  /** Base fields this kind leaves out. */
  omit?: string[]
  /** Selects this kind's rows (alias `t`); combined with the base scope. */
  scope?: ResourceDef['scope']
  filters?: Array<string | FilterDef>
  /** Run after the base hooks (validate errors are merged; columns are merged). */
  hooks?: Hooks<R>
  verbs?: ResourceDef['verbs']
  refusals?: ResourceDef['refusals']
}

function mergeFields<R>(base: Array<FieldDef<R>>, own: Array<FieldDef<R>> = [], omit: string[] = []): Array<FieldDef<R>> {
  const byName = new Map(own.map((f) => [f.name, f]))
  const out = base.filter((f) => !omit.includes(f.name)).map((f) => byName.get(f.name) ?? f)
  const used = new Set(out.map((f) => f.name))
  // Own fields go before the trailing read-only bookkeeping fields of the base (created_by, dates).
  const trailer = out.findIndex((f) => f.name === 'created_by' || f.name === 'date_created')
  const extra = own.filter((f) => !used.has(f.name))
  if (trailer < 0) return [...out, ...extra]
  return [...out.slice(0, trailer), ...extra, ...out.slice(trailer)]
}

function mergeHooks<R>(a: Hooks<R> = {}, b: Hooks<R> = {}): Hooks<R> {
  const out: Hooks<R> = { ...a, ...b }
  if (a.validate && b.validate) {
    out.validate = async (values, ctx, info) => {
      const first = await a.validate!(values, ctx, info)
      const second = await b.validate!(values, ctx, info)
      return first || second ? { ...(second ?? {}), ...(first ?? {}) } : undefined
    }
  }
  if (a.columns && b.columns) out.columns = async (values, ctx, info) => ({ ...(await a.columns!(values, ctx, info)), ...(await b.columns!(values, ctx, info)) })
  if (a.afterSave && b.afterSave) out.afterSave = async (tx, id, values, ctx, info) => { await a.afterSave!(tx, id, values, ctx, info); await b.afterSave!(tx, id, values, ctx, info) }
  if (a.beforeDelete && b.beforeDelete) out.beforeDelete = async (tx, row, ctx) => { await a.beforeDelete!(tx, row, ctx); await b.beforeDelete!(tx, row, ctx) }
  return out
}

/** A full resource declaration for one kind of a base resource. */
export function kindOf<T extends TableName, X extends object = NoExtra>(base: ResourceDef<T, X>, part: KindPart<StoredRow<T>, StoredRow<T, X>>): ResourceDef<T, X> {
  const scope = part.scope && base.scope
    ? (ctx: Parameters<NonNullable<ResourceDef['scope']>>[0]) => {
      const conds = [base.scope!(ctx), part.scope!(ctx)].filter((c): c is Cond => !!c)
      return conds.length ? sql.join(conds, sql` and `) as Cond : undefined
    }
    : part.scope ?? base.scope
  const def: ResourceDef<T, X> = {
    ...base,
    name: part.name,
    model: part.model,
    verboseName: part.verboseName,
    title: part.title,
    path: part.path,
    fields: mergeFields(base.fields, part.fields, part.omit),
    scope,
    filters: [...(base.filters ?? []), ...(part.filters ?? [])],
    hooks: mergeHooks(base.hooks, part.hooks),
    verbs: part.verbs ?? base.verbs,
    refusals: part.refusals ?? base.refusals,
  }
  return def
}

/**
 * Fields of a kind kept in a side table (`table`, one row per object, keyed by `key` = the object's id) instead of
 * the base table: each reads through a sub-select (so it sorts and filters like a column) and writes with an
 * upsert, inside the object's transaction. Read-only ones only read. Applet hosts keep their deploy options so.
 */
export function sideTableFields(table: string, key: string, fields: FieldDef[]): FieldDef[] {
  if (!/^[a-z_][a-z0-9_]*$/.test(table) || !/^[a-z_][a-z0-9_]*$/.test(key)) throw new Error(`bad side table ${table}.${key}`)
  return fields.map((f) => {
    const column = typeof f.column === 'string' ? f.column : f.name
    if (!/^[a-z_][a-z0-9_]*$/i.test(column)) throw new Error(`bad side column ${column}`)
    const out: FieldDef = { ...f, column: undefined, expr: `(select s.${column} from ${table} s where s.${key} = t.id)` }
    if (f.read_only) return out
    out.write = async (tx, id, value) => {
      const v = value !== null && typeof value === 'object' ? JSON.stringify(value) : value
      await sql`insert into ${sql.table(table)} (${sql.ref(key)}, ${sql.ref(column)}) values (${id}, ${v})
        on conflict (${sql.ref(key)}) do update set ${sql.ref(column)} = excluded.${sql.ref(column)}`.execute(tx)
    }
    return out
  })
}
