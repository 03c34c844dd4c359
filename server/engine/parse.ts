/**
 * Input parsing of one field value with DRF's rules and messages: strings are trimmed, numbers accept
 * numeric strings, choices accept the bare value or `{value}`, relations accept ids or objects with
 * `id`/`pk` (existence is checked later, in one query per field).
 */
import { parseDateTime } from '../http/datetime.ts'
import { tr } from '../i18n.ts'
import { treeLeaves } from './kinds.ts'
import { pyType } from './messages.ts'
import type { Ctx, FieldDef } from './types.ts'

export type Parsed = { ok: true; value: unknown } | { ok: false; error: unknown }

const ok = (value: unknown): Parsed => ({ ok: true, value })
const fail = (ctx: Ctx, text: string, vars?: Record<string, string | number>): Parsed => ({ ok: false, error: [tr(ctx.lang, text, vars)] })

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const URL_RE = /^(https?|ftp|wss?):\/\/[^\s/$.?#][^\s]*$/i
const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
const TRUE = new Set(['true', 'True', 'TRUE', 't', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', '1'])
const FALSE = new Set(['false', 'False', 'FALSE', 'f', 'F', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF', '0'])
const ISO_FORMATS = 'YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]'

export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID_RE.test(s)

/** Canonical lower-case dashed UUID. */
export function normUuid(s: string): string {
  const h = s.replace(/-/g, '').toLowerCase()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** Allows blank strings: explicit flag, else optional fields do and required ones do not. */
const allowsBlank = (f: FieldDef) => f.allow_blank ?? !f.required

const INT32_MAX = 2_147_483_647

/** PostgreSQL text cannot hold NUL characters (DRF refuses them too). */
function hasNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000')
  if (Array.isArray(v)) return v.some(hasNul)
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => k.includes('\u0000') || hasNul(x))
  return false
}

function parseString(f: FieldDef, v: unknown, ctx: Ctx): Parsed {
  if (typeof v === 'boolean' || (typeof v !== 'string' && typeof v !== 'number')) return fail(ctx, 'Not a valid string.')
  const s = String(v).trim()
  if (s === '') return allowsBlank(f) ? ok('') : fail(ctx, 'This field may not be blank.')
  const len = [...s].length
  if (f.max_length !== undefined && len > f.max_length) return fail(ctx, 'Ensure this field has no more than {n} characters.', { n: f.max_length })
  if (f.min_length !== undefined && len < f.min_length) return fail(ctx, 'Ensure this field has at least {n} characters.', { n: f.min_length })
  if (f.type === 'email' && !EMAIL.test(s)) return fail(ctx, 'Enter a valid email address.')
  if (f.type === 'url' && !URL_RE.test(s)) return fail(ctx, 'Enter a valid URL.')
  if (f.type === 'uuid') return UUID_RE.test(s) ? ok(normUuid(s)) : fail(ctx, 'Must be a valid UUID.')
  return ok(s)
}

function parseNumber(f: FieldDef, v: unknown, ctx: Ctx): Parsed {
  let n: number
  if (f.type === 'integer') {
    const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().replace(/\.0*$/, '') : ''
    if (!/^-?\d{1,15}$/.test(text)) return fail(ctx, 'A valid integer is required.')
    n = Number(text)
  } else {
    n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
    if (!Number.isFinite(n)) return fail(ctx, 'A valid number is required.')
  }
  const max = f.max_value ?? (f.type === 'integer' ? INT32_MAX : undefined)
  const min = f.min_value ?? (f.type === 'integer' ? -INT32_MAX - 1 : undefined)
  if (max !== undefined && n > max) return fail(ctx, 'Ensure this value is less than or equal to {n}.', { n: max })
  if (min !== undefined && n < min) return fail(ctx, 'Ensure this value is greater than or equal to {n}.', { n: min })
  return ok(n)
}

function parseChoice(f: FieldDef, v: unknown, ctx: Ctx): Parsed {
  const raw = v && typeof v === 'object' && !Array.isArray(v) && 'value' in v ? (v as { value: unknown }).value : v
  // `""` is a choice only where the field allows blank and lists it (DRF would store "" otherwise, an invalid value).
  if (raw === '' && !(f.allow_blank && f.choices?.some((c) => c.value === ''))) return fail(ctx, '"{input}" is not a valid choice.', { input: '' })
  const c = typeof raw === 'object' ? undefined : f.choices?.find((x) => String(x.value) === String(raw))
  if (!c) return fail(ctx, '"{input}" is not a valid choice.', { input: typeof raw === 'object' ? JSON.stringify(raw) : String(raw) })
  return ok(c.value)
}

/** A relation reference: bare id, or an object carrying `id` or `pk`. */
export function refOf(v: unknown): string | number | undefined {
  const id = v && typeof v === 'object' && !Array.isArray(v) ? ((v as { id?: unknown }).id ?? (v as { pk?: unknown }).pk) : v
  if (typeof id === 'string' && id.trim() !== '') return id.trim()
  if (typeof id === 'number' && Number.isInteger(id)) return id
  return undefined
}

function parseRef(v: unknown, ctx: Ctx): Parsed {
  const id = refOf(v)
  if (id === undefined) {
    if (typeof v === 'string' || (v && typeof v === 'object' && !Array.isArray(v))) return fail(ctx, 'Invalid pk "{pk}" - object does not exist.', { pk: typeof v === 'string' ? v : JSON.stringify(v) })
    return fail(ctx, 'Incorrect type. Expected pk value, received {type}.', { type: pyType(v) })
  }
  return ok(id)
}

function parseList(f: FieldDef, v: unknown, ctx: Ctx, each: (x: unknown) => Parsed, errorsAsMap: boolean): Parsed {
  if (!Array.isArray(v)) {
    if (f.type === 'm2m' && (typeof v === 'string' || typeof v === 'number')) return parseList(f, [v], ctx, each, errorsAsMap)
    return fail(ctx, 'Expected a list of items but got type "{type}".', { type: pyType(v) })
  }
  if (v.length === 0 && f.required && f.type === 'm2m') return fail(ctx, 'This list may not be empty.')
  const out: unknown[] = []
  const errors: Record<string, unknown> = {}
  const aligned: unknown[] = []
  let bad = false
  v.forEach((x, i) => {
    const r = each(x)
    if (r.ok) {
      out.push(r.value)
      aligned.push({})
    } else {
      bad = true
      errors[String(i)] = r.error
      aligned.push(r.error)
    }
  })
  if (!bad) return ok(out)
  // Relations and plain lists report the first failing item's messages (DRF ManyRelatedField);
  // list fields map index → messages; many nested serializers align one object per item.
  if (f.type === 'nested_many') return { ok: false, error: aligned }
  if (!errorsAsMap) return { ok: false, error: Object.values(errors)[0] }
  return { ok: false, error: errors }
}

/** Tree / bit choices: names or `{value}` objects; "all" selects every leaf; stored as bits or a list. */
function parseTree(f: FieldDef, v: unknown, ctx: Ctx): Parsed {
  if (!Array.isArray(v)) return fail(ctx, 'Expected a list of items but got type "{type}".', { type: pyType(v) })
  const leaves = treeLeaves(f.tree)
  const picked = new Set<string>()
  for (const x of v) {
    const name = x && typeof x === 'object' && !Array.isArray(x) ? (x as { value?: unknown }).value : x
    if (name === 'all') leaves.forEach((l) => picked.add(l.value))
    else if (typeof name === 'string' && leaves.some((l) => l.value === name)) picked.add(name)
    else return fail(ctx, 'Invalid choice: {value}', { value: typeof name === 'object' ? JSON.stringify(name) : String(name) })
  }
  const values = leaves.map((l) => l.value).filter((x) => picked.has(x))
  return ok(f.bits ? values.reduce((acc, x) => acc | (f.bits![x] ?? 0), 0) : values)
}

function parseNested(children: FieldDef[], v: unknown, ctx: Ctx, partial: boolean): Parsed {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return fail(ctx, 'Invalid data. Expected a dictionary, but got {type}.', { type: pyType(v) })
  const { values, errors } = parseObject(children, v as Record<string, unknown>, ctx, { partial })
  return Object.keys(errors).length ? { ok: false, error: errors } : ok(values)
}

/** Parses one present value (not undefined) of a writable field. */
export function parseValue(f: FieldDef, v: unknown, ctx: Ctx): Parsed {
  if (hasNul(v)) return fail(ctx, 'Null characters are not allowed.')
  if (v === null) {
    if (f.allow_null) return ok(null)
    if ((f.type === 'string' || f.type === 'text') && allowsBlank(f)) return ok('')
    return fail(ctx, 'This field may not be null.')
  }
  let r: Parsed
  if (f.parse) {
    const c = f.parse(v, ctx)
    return 'error' in c ? { ok: false, error: [c.error] } : ok(c.value)
  }
  switch (f.type) {
    case 'string': case 'text': case 'email': case 'url':
      r = parseString(f, v, ctx); break
    case 'uuid':
      // Checked here, before any SQL: a uuid column given "" or garbage is a field error, not a 500 (issue 36).
      r = isUuid(typeof v === 'string' ? v.trim() : v) ? ok(normUuid((v as string).trim())) : fail(ctx, 'Must be a valid UUID.')
      break
    case 'integer': case 'float':
      r = parseNumber(f, v, ctx); break
    case 'boolean':
      if (typeof v === 'boolean') r = ok(v)
      else if (v === 1 || v === 0) r = ok(v === 1)
      else if (typeof v === 'string' && TRUE.has(v.trim())) r = ok(true)
      else if (typeof v === 'string' && FALSE.has(v.trim())) r = ok(false)
      else r = fail(ctx, 'Must be a valid boolean.')
      break
    case 'datetime': {
      const d = v instanceof Date ? v : parseDateTime(v, ctx.tz)
      r = d ? ok(d) : fail(ctx, 'Datetime has wrong format. Use one of these formats instead: {formats}.', { formats: ISO_FORMATS })
      break
    }
    case 'date':
      r = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) && parseDateTime(v.trim(), 'UTC')
        ? ok(v.trim()) : fail(ctx, 'Date has wrong format. Use one of these formats instead: {formats}.', { formats: 'YYYY-MM-DD' })
      break
    case 'choice': case 'labeled_choice':
      r = parseChoice(f, v, ctx); break
    case 'multiple_choice':
      r = parseList(f, v, ctx, (x) => parseChoice(f, x, ctx), false); break
    case 'fk': case 'pk':
      r = parseRef(v, ctx); break
    case 'm2m':
      r = parseList(f, v, ctx, (x) => parseRef(x, ctx), false)
      if (r.ok) r = ok([...new Set(r.value as unknown[])])
      break
    case 'list':
      r = parseList(f, v, ctx, (x) => (f.child ? parseValue({ ...f.child, name: f.name }, x, ctx) : ok(x)), true); break
    case 'nested':
      r = parseNested(f.children ?? [], v, ctx, false); break
    case 'nested_many':
      r = parseList(f, v, ctx, (x) => parseNested(f.children ?? [], x, ctx, false), true); break
    case 'tree':
      r = parseTree(f, v, ctx); break
    default:
      r = ok(v)
  }
  if (r.ok && f.validate) {
    const e = f.validate(r.value, ctx)
    if (e !== undefined) return { ok: false, error: typeof e === 'string' ? [e] : e }
  }
  return r
}

/** The default of a field (functions are evaluated; a bit-field tree's list of values becomes its bits). */
export function defaultOf(f: FieldDef): unknown {
  const v = typeof f.default === 'function' ? (f.default as () => unknown)() : structuredClone(f.default)
  if (f.type === 'tree' && f.bits && Array.isArray(v)) return v.reduce((acc: number, x) => acc | (f.bits![String(x)] ?? 0), 0)
  return v
}

/**
 * Parses an object body against writable fields: unknown keys and read-only fields are ignored,
 * missing required fields get "This field is required." unless `partial`, defaults fill the rest on create.
 */
export function parseObject(fields: FieldDef[], body: Record<string, unknown>, ctx: Ctx, opts: { partial: boolean; fillDefaults?: boolean }): { values: Record<string, unknown>; errors: Record<string, unknown> } {
  const values: Record<string, unknown> = {}
  const errors: Record<string, unknown> = {}
  for (const f of fields) {
    if (f.read_only) continue
    const present = Object.prototype.hasOwnProperty.call(body, f.name) && body[f.name] !== undefined
    if (f.childrenBy) {
      // sub-fields chosen by a sibling's value: parsed against that variant, defaults filled, unknown keys dropped
      if (!present && opts.partial) continue
      const children = f.childrenBy.variants[String(body[f.childrenBy.field] ?? '')] ?? []
      const given = present ? body[f.name] : {}
      const r = given === null && f.allow_null ? ok(null) : parseNested(children, given, ctx, false)
      if (r.ok) values[f.name] = r.value
      else errors[f.name] = r.error
      continue
    }
    if (!present) {
      if (opts.partial) continue
      // an update (no defaults filled) that leaves a write-only secret out keeps the stored one
      if (f.required && !(opts.fillDefaults === false && f.secret && f.write_only)) errors[f.name] = [tr(ctx.lang, 'This field is required.')]
      else if (f.default !== undefined && opts.fillDefaults !== false) values[f.name] = defaultOf(f)
      continue
    }
    const r = parseValue(f, body[f.name], ctx)
    if (r.ok) values[f.name] = r.value
    else errors[f.name] = r.error
  }
  return { values, errors }
}
