/**
 * The form's values (console-behaviour §1.6): server objects flattened into widget values (labeled choices and
 * related objects to their value/id, dates to the date-time input's format, JSON to text), metadata defaults
 * filled in recursively, the clone marker, and the payload built back from the values. Pure.
 */
import type { MessageDescriptor } from '@lingui/core'
import type { FieldMeta } from '../../api/metadata.ts'
import { parseServerDateTime, type RowId } from '../../api/resources.ts'
import { objectLabel, SECRET_FIELDS } from '../table/formatters.ts'
import type { FieldLayout, FieldOverrides, WidgetKind } from './types.ts'
import type { FormValues } from './validators.ts'
import { chooseWidget } from './widgets.ts'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** `{value, label}` → value; `{id, …}` → id; else as is. */
function scalarOf(v: unknown): unknown {
  if (isObject(v)) {
    if ('value' in v) return v.value
    if ('id' in v) return v.id
    if ('pk' in v) return v.pk
  }
  return v
}

const two = (n: number) => String(n).padStart(2, '0')

/** A server datetime → `YYYY-MM-DDTHH:mm` for `<input type="datetime-local">` ('' when unparsable). */
export function toDateTimeInput(value: unknown): string {
  const d = value instanceof Date ? value : parseServerDateTime(value)
  if (!d) return ''
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`
}

/** One raw value → what its widget edits. */
export function toFormValue(widget: WidgetKind, field: FieldMeta, raw: unknown, overrides: FieldOverrides = {}): unknown {
  switch (widget) {
    case 'related':
    case 'radio':
    case 'select':
      return raw === undefined ? null : scalarOf(raw)
    case 'relatedMulti':
    case 'checkboxGroup':
    case 'tree':
      return Array.isArray(raw) ? raw.map(scalarOf) : []
    case 'list':
      return Array.isArray(raw) ? raw.map((v) => (isObject(v) ? objectLabel(v) : String(v))) : []
    case 'switch':
      return scalarOf(raw) === true
    case 'datetime':
      return toDateTimeInput(raw)
    case 'date':
      return typeof raw === 'string' ? raw.slice(0, 10).replace(/\//g, '-') : ''
    case 'json':
      return raw === undefined || raw === null ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw, null, 2)
    case 'number':
      return raw === undefined || raw === null ? '' : String(raw)
    case 'nested':
      return nestedValues(field.children ?? [], isObject(raw) ? raw : undefined, overrides)
    case 'nestedList': {
      const children = (field.child ?? field).children ?? []
      return Array.isArray(raw) ? raw.map((item) => nestedValues(children, isObject(item) ? item : undefined, overrides)) : []
    }
    case 'readonly':
      return raw
    case 'timePeriod':
      return Array.isArray(raw) ? raw : []
    default:
      return raw === undefined || raw === null ? '' : isObject(raw) ? objectLabel(raw) : String(raw)
  }
}

/**
 * A sub-field whose children depend on a sibling's value (`variants`, e.g. a protocol's setting by its name): as a
 * nested object with the children of the row's value (none: no children, and the form shows nothing for it).
 */
export function resolveVariant(field: FieldMeta, row: FormValues): FieldMeta {
  if (!field.variants || !field.childrenFrom) return field
  const children = field.variants[String(scalarOf(row[field.childrenFrom]) ?? '')] ?? []
  return { ...field, type: 'nested object', children }
}

/**
 * A row after one of its values changed: each sub-field depending on a sibling takes its new variant's keys,
 * keeping same-named values and filling the others with their defaults.
 */
export function followVariants(children: readonly FieldMeta[], row: FormValues, overrides: FieldOverrides = {}): FormValues {
  let out = row
  for (const child of children) {
    if (!child.variants || !child.childrenFrom) continue
    const resolved = resolveVariant(child, row)
    const next = nestedValues(resolved.children ?? [], isObject(row[child.name]) ? (row[child.name] as Json) : undefined, overrides[child.name]?.fields ?? {})
    if (JSON.stringify(next) !== JSON.stringify(row[child.name])) out = { ...out, [child.name]: next }
  }
  return out
}

function nestedValues(children: readonly FieldMeta[], object: Json | undefined, overrides: FieldOverrides): FormValues {
  const out: FormValues = {}
  for (const child of children) {
    const o = overrides[child.name] ?? {}
    const raw = object && child.name in object ? object[child.name] : child.hasDefault ? child.default : undefined
    const field = resolveVariant(child, object ?? {})
    // a variant without keys (a protocol without settings) is an empty object, not JSON text
    out[child.name] = field.variants && !field.children?.length ? {} : toFormValue(chooseWidget(field, o), field, raw, o.fields ?? {})
  }
  return out
}

/**
 * The form's starting values: the object's (update/clone), else the page's `initial`, else the metadata
 * default — for every field of the form.
 */
export function initialValues(fields: readonly FieldMeta[], overrides: FieldOverrides, object?: Json, initial: FormValues = {}): FormValues {
  const out: FormValues = {}
  for (const field of fields) {
    const o = overrides[field.name] ?? {}
    const widget = chooseWidget(field, o)
    let raw: unknown
    if (object && field.name in object) raw = object[field.name]
    else if (field.name in initial) raw = initial[field.name]
    else if (field.hasDefault) raw = field.default
    out[field.name] = toFormValue(widget, field, raw, o.fields ?? {})
  }
  return out
}

/**
 * Known labels of related values (`{id, name}` objects in the server's answer): field → id → label, through the
 * field's picker label when it has one, so a value reads the same before and after the picker is opened.
 */
export function relatedLabels(object: Json | undefined, overrides: FieldOverrides = {}): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {}
  if (!object) return out
  for (const [key, value] of Object.entries(object)) {
    const label = overrides[key]?.related?.label
    const items = Array.isArray(value) ? value : [value]
    for (const item of items) {
      if (isObject(item) && ('id' in item || 'pk' in item)) {
        const id = (item.id ?? item.pk) as RowId
        ;(out[key] ??= {})[String(id)] = label ? label({ ...item, id }) : objectLabel(item)
      }
    }
  }
  return out
}

/**
 * The clone marker (console-behaviour §2.10) on `name`, or on `hostname` when there is no name. The reference
 * also set `name` to the marker plus `undefined` in the hostname case; that bug is fixed here.
 */
export function cloneValues(object: Json, marker: string): Json {
  if (typeof object.name === 'string') return { ...object, name: `${marker}${object.name}` }
  if (typeof object.hostname === 'string') return { ...object, hostname: `${marker}${object.hostname}` }
  return { ...object }
}

/** One widget value → the payload value. */
export function fromFormValue(widget: WidgetKind, field: FieldMeta, value: unknown, overrides: FieldOverrides = {}, encrypt?: (plain: string) => string): unknown {
  switch (widget) {
    case 'number':
      return value === '' || value === undefined || value === null ? null : Number(value)
    case 'datetime': {
      if (typeof value !== 'string' || value === '') return null
      const d = new Date(value)
      return Number.isNaN(d.getTime()) ? value : d.toISOString()
    }
    case 'date':
      return value === '' ? null : value
    case 'json':
      if (typeof value !== 'string') return value ?? null
      return value.trim() === '' ? null : (JSON.parse(value) as unknown)
    case 'nested':
      return nestedPayload(field.children ?? [], isObject(value) ? value : {}, overrides, encrypt)
    case 'nestedList': {
      const children = (field.child ?? field).children ?? []
      return Array.isArray(value) ? value.map((item) => nestedPayload(children, isObject(item) ? item : {}, overrides, encrypt)) : []
    }
    default:
      return value
  }
}

function nestedPayload(children: readonly FieldMeta[], values: FormValues, overrides: FieldOverrides, encrypt?: (plain: string) => string): FormValues {
  const out: FormValues = {}
  for (const child of children) {
    if (child.readOnly) continue
    const o = overrides[child.name] ?? {}
    // a sub-field the page hides for this row (an account row from a template: no username or secret) is not sent
    if (o.hidden?.(values)) continue
    const field = resolveVariant(child, values)
    const value = fromFormValue(chooseWidget(field, o), field, values[child.name], o.fields ?? {}, encrypt)
    // a write-only sub-value left empty (a storage's secret key) keeps the stored one: not sent, as a secret field
    if (child.writeOnly && (value === '' || value === null || value === undefined)) continue
    // a secret sub-value (an account's secret given with its asset) is encrypted as a secret field is
    out[child.name] = encrypt && SECRET_FIELDS.has(child.name) && typeof value === 'string' ? encrypt(value) : value
  }
  return out
}

export interface PayloadOptions {
  /** fields currently shown (hidden ones are not sent) */
  visible: (name: string) => boolean
  /** encrypts a secret value (contract §6) */
  encrypt: (plain: string) => string
}

/**
 * The body to send: every writable, visible field, converted back; secret fields (SECRET_FIELDS) encrypted,
 * and left out when empty (an empty password on update means "unchanged").
 */
export function buildPayload(fields: readonly FieldMeta[], overrides: FieldOverrides, values: FormValues, opts: PayloadOptions): FormValues {
  const out: FormValues = {}
  for (const field of fields) {
    if (field.readOnly || !opts.visible(field.name)) continue
    const o = overrides[field.name] ?? {}
    const widget = chooseWidget(field, o)
    if (widget === 'readonly') continue
    const value = fromFormValue(widget, field, values[field.name], o.fields ?? {}, opts.encrypt)
    if (SECRET_FIELDS.has(field.name)) {
      if (typeof value !== 'string' || value === '') continue
      out[field.name] = opts.encrypt(value)
      continue
    }
    // An empty optional JSON field is left out: the server keeps its default (or the stored value) instead of
    // being sent a null it may refuse.
    if (widget === 'json' && value === null && !field.required) continue
    out[field.name] = value
  }
  return out
}

export interface FieldGroup {
  title?: MessageDescriptor
  names: string[]
}

/**
 * The groups to render, from the layout: names and `[title, names]` tuples in order; `'__all__'` (or no layout)
 * is every field that is not read-only. Names the metadata does not have are dropped (fields removed by the
 * server for this user, e.g. roles without the role-binding permission).
 */
export function layoutGroups(fields: readonly FieldMeta[], layout: FieldLayout | undefined): FieldGroup[] {
  const known = new Set(fields.map((f) => f.name))
  if (!layout || layout === '__all__') return [{ names: fields.filter((f) => !f.readOnly).map((f) => f.name) }]
  const groups: FieldGroup[] = []
  let loose: string[] = []
  for (const entry of layout) {
    if (typeof entry === 'string') {
      if (known.has(entry)) loose.push(entry)
      continue
    }
    if (loose.length) groups.push({ names: loose })
    loose = []
    const [title, names] = entry as readonly [MessageDescriptor, readonly string[]]
    const present = names.filter((n) => known.has(n))
    if (present.length) groups.push({ title, names: present })
  }
  if (loose.length) groups.push({ names: loose })
  return groups
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
}

export type { RowId }
