/**
 * How a column shows its values (console-behaviour §1.5): a formatter is chosen by field name first, then by
 * metadata type; `displayValue` turns a raw cell into something the renderer shows. Both are pure.
 */
import type { FieldMeta } from '../../api/metadata.ts'
import { parseServerDateTime } from '../../api/resources.ts'
import { preferredTimeZone } from '../../api/timeZone.ts'

export type FormatterKind =
  | 'detailLink' | 'text' | 'longText' | 'number' | 'yesNo' | 'choice' | 'labeledChoice' | 'datetime'
  | 'related' | 'relatedList' | 'list' | 'json' | 'secret'

/**
 * Fields whose values are secrets, everywhere in the console: hidden with stars in tables and encrypted
 * before they are sent (form submit). One list, documented in docs/generic-pages.md.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['password', 'secret', 'passphrase', 'private_key', 'token', 'zip_encrypt_password'])

export function chooseFormatter(field: Pick<FieldMeta, 'name' | 'type' | 'child'>): FormatterKind {
  const { name, type } = field
  if (name === 'name') return 'detailLink'
  if (SECRET_FIELDS.has(name)) return 'secret'
  if (name === 'is_valid' || name === 'is_active') return 'yesNo'
  if (name === 'comment') return 'longText'
  switch (type) {
    case 'boolean':
      return 'yesNo'
    case 'choice':
      return 'choice'
    case 'labeled_choice':
      return 'labeledChoice'
    case 'datetime':
    case 'date':
      return 'datetime'
    case 'object_related_field':
      return 'related'
    case 'm2m_related_field':
      return 'relatedList'
    case 'list':
    case 'multiple choice':
    case 'tree':
      return 'list'
    case 'json':
    case 'nested object':
      return 'json'
    case 'field':
      return field.child?.type === 'nested object' ? 'relatedList' : 'text'
    case 'integer':
    case 'float':
    case 'decimal':
      return 'number'
    default:
      return 'text'
  }
}

export type Display =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'yes' }
  | { kind: 'no' }
  | { kind: 'items'; items: string[] }
  | { kind: 'secret' }
  /** a structured value (JSON object, nested object): labelled entries, each shown as a value of its own */
  | { kind: 'fields'; entries: FieldEntry[] }

export interface FieldEntry {
  key: string
  label: string
  shown: Display
}

/** What a structured value's entries are labelled from: the metadata's sub-fields, when it has them. */
export type StructureMeta = Pick<FieldMeta, 'choices' | 'children' | 'child' | 'type' | 'name'>

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

export function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
}

/** A related object's or labeled choice's display text: name, display_name, username, label, value, id. */
export function objectLabel(value: unknown): string {
  if (!isObject(value)) return value === null || value === undefined ? '' : String(value)
  // A phone field (JumpServer's PhoneField: `{"code": "+86", "phone": 13800000000}`) reads `+86 13800000000`, in
  // lists, details and forms alike; the server takes that text back (issue 17).
  if ('phone' in value && 'code' in value && Object.keys(value).length === 2) {
    const phone = value.phone === null || value.phone === undefined ? '' : String(value.phone)
    return phone ? [String(value.code ?? '').trim(), phone].filter(Boolean).join(' ') : ''
  }
  for (const key of ['display_name', 'name', 'username', 'label', 'value', 'id'] as const) {
    const v = value[key]
    if (typeof v === 'string' && v) return v
    if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  }
  return JSON.stringify(value)
}

function two(n: number): string {
  return String(n).padStart(2, '0')
}

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>()

/** The parts of a date in a time zone (null: a zone Intl does not know). */
function zoneFormat(zone: string): Intl.DateTimeFormat | null {
  let f = zoneFormats.get(zone)
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    } catch {
      f = null
    }
    zoneFormats.set(zone, f)
  }
  return f
}

/**
 * The console's one way of showing a moment: `YYYY/MM/DD HH:mm:ss` in the user's time zone — the one chosen in
 * Preferences, else the browser's (the zone the server is told, X-TZ). Without a chosen zone no Intl is asked
 * (its zone database costs a first visit tens of ms).
 */
export function formatDateTime(date: Date, zone: string | null = preferredTimeZone()): string {
  const f = zone ? zoneFormat(zone) : null
  if (f) {
    const p = Object.fromEntries(f.formatToParts(date).map((part) => [part.type, part.value]))
    return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`
  }
  return `${date.getFullYear()}/${two(date.getMonth() + 1)}/${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
}

/**
 * A moment as the server or the browser wrote it (`2026/11/28 03:41:37 +0000`, ISO 8601) shown as `formatDateTime`
 * does; a text that is not a moment is shown as it is, nothing as ''.
 */
export function formatMoment(value: unknown, zone: string | null = preferredTimeZone()): string {
  if (value === null || value === undefined || value === '') return ''
  const date = parseServerDateTime(value) ?? (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : undefined)
  return date && !Number.isNaN(date.getTime()) ? formatDateTime(date, zone) : String(value)
}

function choiceLabel(field: Pick<FieldMeta, 'choices'>, value: unknown): string {
  const found = field.choices?.find((c) => c.value === value || String(c.value) === String(value))
  return found ? found.label : objectLabel(value)
}

/** `ansible_enabled` → "Ansible enabled", `INDEX_BY_DATE` → "Index by date": a key without a label of its own. */
export function humanizeKey(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase()
  return words ? words[0]!.toUpperCase() + words.slice(1) : key
}

const MAX_DEPTH = 4

/**
 * A JSON value as labelled entries (issue 35: raw JSON was shown): an object's keys labelled by the metadata's
 * sub-fields (else the key made readable), each value shown by its sub-field's formatter (else by its shape:
 * yes/no, a list, another object); an `id` with sibling keys is left out (it names the row, not a setting), and
 * so is a key beside its `<key>_display`.
 */
/** `{value, label}` / `{id, …}` → its value or id. */
const scalarOf = (v: unknown): unknown => (isObject(v) ? (v.value ?? v.id ?? v) : v)

export function structuredValue(value: unknown, children: readonly FieldMeta[] = [], depth = 0): Display {
  if (isEmpty(value)) return { kind: 'empty' }
  if (typeof value === 'string') {
    const text = value.trim()
    if ((text.startsWith('{') || text.startsWith('[')) && depth === 0) {
      try { return structuredValue(JSON.parse(text), children, depth) } catch { /* plain text */ }
    }
    return { kind: 'text', text: value }
  }
  if (typeof value === 'boolean') return { kind: value ? 'yes' : 'no' }
  if (typeof value === 'number') return { kind: 'text', text: String(value) }
  if (Array.isArray(value)) {
    if (value.every((v) => !isObject(v))) return { kind: 'items', items: value.map((v) => String(v)) }
    return { kind: 'items', items: value.map((v) => (isObject(v) ? summary(structuredValue(v, children, depth + 1)) : String(v))) }
  }
  if (!isObject(value)) return { kind: 'text', text: String(value) }
  if (Object.keys(value).length === 0) return { kind: 'empty' }
  if (depth >= MAX_DEPTH) return { kind: 'text', text: JSON.stringify(value) }
  const byName = new Map(children.map((c) => [c.name, c]))
  // `x` beside its `x_display` (JumpServer's convention) shows once, as the display
  const keys = Object.keys(value).filter((k) => !(k === 'id' && Object.keys(value).length > 1 && !byName.has('id')) && !(`${k}_display` in value))
  const ordered = [...children.map((c) => c.name).filter((k) => keys.includes(k)), ...keys.filter((k) => !byName.has(k))]
  return {
    kind: 'fields',
    entries: ordered.filter((k) => !byName.get(k)?.writeOnly).map((key) => {
      const sub = byName.get(key)
      const v = value[key]
      const kind = sub ? chooseFormatter(sub) : undefined
      // a sub-value whose keys depend on a sibling (a protocol's setting on its name): that value's children
      const variant = sub?.variants && sub.childrenFrom ? sub.variants[String(scalarOf(value[sub.childrenFrom]))] : undefined
      const shown = sub && kind && !variant && kind !== 'json' && kind !== 'detailLink' ? displayValue(kind, v, sub) : structuredValue(v, variant ?? sub?.children ?? sub?.child?.children, depth + 1)
      return { key, label: sub?.label || humanizeKey(key), shown }
    }),
  }
}

/** A display as one line of text (a table cell, a tooltip); yes/no in the caller's words. */
export function summary(shown: Display, words: { yes: string; no: string } = { yes: '✓', no: '✗' }): string {
  switch (shown.kind) {
    case 'empty': return '-'
    case 'text': return shown.text
    case 'yes': return words.yes
    case 'no': return words.no
    case 'secret': return '******'
    case 'items': return shown.items.join(', ')
    case 'fields': return shown.entries.map((e) => `${e.label}: ${summary(e.shown, words)}`).join('; ')
  }
}

export function displayValue(kind: FormatterKind, value: unknown, field: Partial<StructureMeta> = {}): Display {
  if (kind === 'secret') return isEmpty(value) ? { kind: 'empty' } : { kind: 'secret' }
  if (kind === 'yesNo') {
    const v = isObject(value) ? value.value : value
    if (v === true || v === 'true' || v === 'True' || v === 1) return { kind: 'yes' }
    if (v === false || v === 'false' || v === 'False' || v === 0) return { kind: 'no' }
    return { kind: 'empty' }
  }
  if (isEmpty(value)) return { kind: 'empty' }
  switch (kind) {
    case 'choice':
      return { kind: 'text', text: choiceLabel(field, value) }
    case 'labeledChoice':
      return { kind: 'text', text: isObject(value) ? objectLabel({ label: value.label, value: value.value }) : choiceLabel(field, value) }
    case 'datetime': {
      return { kind: 'text', text: formatMoment(value) }
    }
    case 'related':
      return { kind: 'text', text: objectLabel(value) }
    case 'relatedList':
    case 'list': {
      const list = Array.isArray(value) ? value : [value]
      return { kind: 'items', items: list.map((v) => (isObject(v) ? objectLabel(v) : String(v))) }
    }
    case 'json':
      return structuredValue(value, field.children ?? field.child?.children)
    default:
      return { kind: 'text', text: isObject(value) ? objectLabel(value) : Array.isArray(value) ? value.map(objectLabel).join(', ') : String(value) }
  }
}
