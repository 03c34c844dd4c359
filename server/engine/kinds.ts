/**
 * Per field type: the OPTIONS `type`, the JSON value shape (contract §3), the export cell (contract §4.7),
 * the import cell reading (contract §4.8) and the operate-log display text.
 */
import { formatDateTime, zoneOffsetMinutes } from '../http/datetime.ts'
import { tr } from '../i18n.ts'
import type { Ctx, FieldDef, FieldType, TreeChoice } from './types.ts'

export const META_TYPE: Record<FieldType, string> = {
  string: 'string', text: 'string', uuid: 'string', email: 'email', url: 'url', integer: 'integer', float: 'float',
  boolean: 'boolean', datetime: 'datetime', date: 'date', choice: 'choice', labeled_choice: 'labeled_choice',
  multiple_choice: 'multiple choice', fk: 'object_related_field', m2m: 'm2m_related_field', pk: 'field', json: 'json',
  list: 'list', nested: 'nested object', nested_many: 'field', field: 'field', tree: 'tree', image: 'image upload',
}

/** The leaves of a choice tree (the storable values). */
export function treeLeaves(tree: TreeChoice[] = []): TreeChoice[] {
  return tree.flatMap((n) => (n.children?.length ? treeLeaves(n.children) : [n]))
}

/** Fields that are relations to another resource. */
export const isRelation = (f: FieldDef) => f.type === 'fk' || f.type === 'm2m' || f.type === 'pk'

/** The database column of a field, or undefined for computed fields. */
export function columnOf(f: FieldDef): string | undefined {
  if (f.column === false || f.expr || f.type === 'm2m') return undefined
  if (f.column) return f.column
  if (f.get || f.load) return undefined
  return f.type === 'fk' || f.type === 'pk' ? `${f.name}_id` : f.name
}

const offsets = new Map<string, Map<number, number>>()
const QUARTER_HOUR = 900_000
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n))

/**
 * `formatDateTime` with the zone offset cached per quarter hour (zone offsets and their transitions are whole
 * quarter hours): exports format tens of thousands of datetimes, and Intl is the slow part.
 */
export function fastDateTime(value: unknown, tz: string): string | null {
  const ms = value instanceof Date ? value.getTime() : value === null || value === undefined || value === '' ? NaN : new Date(value as string).getTime()
  if (Number.isNaN(ms)) return null
  const year = new Date(ms).getUTCFullYear()
  if (year < 1000 || year > 9998) return formatDateTime(ms, tz)
  const bucket = Math.floor(ms / QUARTER_HOUR)
  let zone = offsets.get(tz)
  if (!zone) offsets.set(tz, (zone = new Map()))
  let off = zone.get(bucket)
  if (off === undefined) {
    if (zone.size > 50_000) zone.clear()
    off = zoneOffsetMinutes(ms, tz)
    zone.set(bucket, off)
  }
  const w = new Date(Math.floor(ms / 1000) * 1000 + off * 60_000)
  const a = Math.abs(off)
  return `${w.getUTCFullYear()}/${pad2(w.getUTCMonth() + 1)}/${pad2(w.getUTCDate())} ${pad2(w.getUTCHours())}:${pad2(w.getUTCMinutes())}:${pad2(w.getUTCSeconds())} ` +
    `${off < 0 ? '-' : '+'}${pad2(Math.trunc(a / 60))}${pad2(a % 60)}`
}

function toNumber(v: unknown): unknown {
  return typeof v === 'bigint' ? Number(v) : v
}

function choiceOut(f: FieldDef, v: unknown, ctx: Ctx): unknown {
  if (v === null || v === undefined) return null
  const c = f.choices?.find((x) => x.value === v || String(x.value) === String(v))
  return { value: c ? c.value : v, label: c ? tr(ctx.lang, c.label) : String(v) }
}

/** Database value → JSON value (relations are resolved by the serializer). */
export function toJson(f: FieldDef, v: unknown, ctx: Ctx): unknown {
  switch (f.type) {
    case 'datetime':
      return fastDateTime(v, ctx.tz)
    case 'date':
      if (v === null || v === undefined) return null
      return v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10)
    case 'labeled_choice':
      return choiceOut(f, v, ctx)
    case 'multiple_choice':
      return Array.isArray(v) ? v.map((x) => choiceOut(f, x, ctx)) : []
    case 'integer':
    case 'float':
      return v === null || v === undefined ? null : Number(toNumber(v))
    case 'tree': {
      const leaves = treeLeaves(f.tree)
      const held = f.bits ? leaves.filter((l) => (Number(toNumber(v) ?? 0) & (f.bits![l.value] ?? 0)) !== 0) : leaves.filter((l) => Array.isArray(v) && v.includes(l.value))
      return held.map((l) => ({ value: l.value, label: tr(ctx.lang, l.label) }))
    }
    default:
      return toNumber(v) ?? null
  }
}

const nameOf = (o: Record<string, unknown>): string => {
  for (const [k, v] of Object.entries(o)) if (k !== 'id' && k !== 'pk' && (typeof v === 'string' || typeof v === 'number')) return String(v)
  return ''
}
const relCell = (o: unknown): string => (o && typeof o === 'object' ? `${nameOf(o as Record<string, unknown>)}(${String((o as { id?: unknown }).id ?? '')})` : String(o))

/** JSON value → export cell text (contract §4.7). */
export function toCell(f: FieldDef, v: unknown): string {
  if (v === null || v === undefined) return '-'
  if (typeof v === 'boolean') return v ? 'Yes' : 'No'
  if (f.type === 'labeled_choice' && typeof v === 'object') return String((v as { value: unknown }).value)
  if ((f.type === 'multiple_choice' || f.type === 'tree') && Array.isArray(v)) return JSON.stringify(v.map((x) => (x && typeof x === 'object' ? (x as { value: unknown }).value : x)))
  if (f.type === 'fk') return relCell(v)
  if (f.type === 'm2m' && Array.isArray(v)) return JSON.stringify(v.map(relCell))
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

/** JSON value (serialized in English) → operate-log diff text; translated again when read. */
export function toDisplay(f: FieldDef, v: unknown): string {
  if (v === null || v === undefined || v === '') return ''
  if (typeof v === 'boolean') return v ? 'Yes' : 'No'
  if ((f.type === 'labeled_choice') && typeof v === 'object') return String((v as { label: unknown }).label)
  if ((f.type === 'multiple_choice' || f.type === 'tree') && Array.isArray(v)) return v.map((x) => String((x as { label?: unknown }).label ?? x)).join(', ')
  if (f.type === 'fk' && typeof v === 'object') return nameOf(v as Record<string, unknown>)
  if (f.type === 'm2m' && Array.isArray(v)) return v.map((x) => (x && typeof x === 'object' ? nameOf(x) : String(x))).join(', ')
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

const REL_CELL = /^(.*)\(([^()]*)\)$/s

function pkValue(text: string): string | number {
  return text.length < 36 && /^-?\d+$/.test(text) ? Number(text) : text
}

function relFromCell(v: unknown): unknown {
  if (typeof v !== 'string') return v
  const m = REL_CELL.exec(v.trim())
  return m ? { pk: pkValue(m[2]!.trim()), name: m[1]!.trim() } : v
}

function parseJsonLike(text: string): unknown {
  const t = text.trim()
  if (!((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}')))) return undefined
  const normal = t.replace(/[\u201c\u201d\u2018\u2019']/g, '"')
  try {
    return JSON.parse(normal)
  } catch {
    return undefined
  }
}

/** Import cell text → JSON value as render-to-json returns it (contract §4.8). */
export function fromCell(f: FieldDef, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null
  const text = typeof raw === 'string' ? raw : String(raw)
  const nullable = f.allow_null || f.type === 'fk' || f.type === 'pk' || f.type === 'datetime' || f.type === 'date'
  if (text.trim() === '-' && nullable) return null
  const json = parseJsonLike(text)
  switch (f.type) {
    case 'boolean':
      return /^(true|1|yes)$/i.test(text.trim())
    case 'integer':
    case 'float':
      return text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text
    case 'fk':
    case 'pk':
      return relFromCell(text)
    case 'm2m':
      if (Array.isArray(json)) return json.map(relFromCell)
      return text.trim() === '' || text.trim() === '-' ? [] : [relFromCell(text)]
    case 'labeled_choice':
    case 'choice': {
      const c = f.choices?.find((x) => String(x.value) === text.trim() || x.label === text.trim())
      return c ? c.value : text
    }
    case 'json':
    case 'list':
    case 'nested':
    case 'nested_many':
    case 'multiple_choice':
    case 'tree':
      return json !== undefined ? json : text
    default:
      return json !== undefined ? json : text
  }
}
