/**
 * A DRF 400 body → errors the form can show (spec §5, contract §1.9): each field's messages joined and put on
 * that field; nested errors flattened into text on their top-level field (`protocols[1].port: …`);
 * `non_field_errors`, `detail`/`error`/`msg` and bare arrays at the top. Bulk answers (an array aligned with
 * the items) join each field's messages with "; ".
 */

export interface FormErrors {
  /** top-level field name → message */
  fields: Record<string, string>
  /** messages that belong to no field */
  top: string[]
  /** messages of nested objects' sub-fields, by `field.sub` */
  nested?: Record<string, string>
  /** messages inside the rows of a list of nested objects, by path: `protocols.1.setting.sftp_home`, `accounts.0.username` */
  rows?: Record<string, string>
}

/** Every message under a value by its dotted path (row indexes as path parts). */
function leafMessages(value: unknown, path: string, out: Record<string, string>): void {
  if (typeof value === 'string') {
    if (value) out[path] = out[path] ? `${out[path]} ${value}` : value
  } else if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) leafMessages((value as string[]).filter(Boolean).join(' '), path, out)
    else value.forEach((item, i) => leafMessages(item, `${path}.${i}`, out))
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) if (k !== 'code') leafMessages(v, `${path}.${k}`, out)
  }
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

const TOP_KEYS = new Set(['non_field_errors', 'detail', 'error', 'msg'])

/** Every message under a value, as `path: message` lines (path relative to `prefix`). */
function messages(value: unknown, prefix: string): string[] {
  if (value === null || value === undefined) return []
  if (typeof value === 'string') return value ? [prefix ? `${prefix}: ${value}` : value] : []
  if (typeof value === 'number' || typeof value === 'boolean') return [prefix ? `${prefix}: ${value}` : String(value)]
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) {
      const text = (value as string[]).filter(Boolean).join(' ')
      return text ? [prefix ? `${prefix}: ${text}` : text] : []
    }
    return value.flatMap((item, i) => messages(item, `${prefix}[${i}]`))
  }
  if (isObject(value)) {
    return Object.entries(value).flatMap(([k, v]) => {
      if (k === 'code') return []
      return messages(v, prefix ? `${prefix}.${k}` : k)
    })
  }
  return []
}

function fieldMessage(name: string, value: unknown): string {
  // A direct list of strings reads as it is; anything nested keeps its path from the field's name.
  if (typeof value === 'string') return value
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(' ')
  // `{"protocols": {"protocols": "…"}}`: a dict error repeating the field's own name carries no path.
  if (isObject(value) && Object.keys(value).length === 1 && name in value) return fieldMessage(name, value[name])
  return messages(value, name).join('; ')
}

export function flattenServerErrors(data: unknown): FormErrors {
  const out: FormErrors = { fields: {}, top: [] }
  if (typeof data === 'string') {
    if (data.trim() && !data.trim().startsWith('<')) out.top.push(data.trim())
    return out
  }
  if (Array.isArray(data)) {
    out.top.push(...messages(data, ''))
    return out
  }
  if (!isObject(data)) return out
  for (const [key, value] of Object.entries(data)) {
    if (key === 'code') continue
    if (TOP_KEYS.has(key)) {
      out.top.push(...messages(value, ''))
      continue
    }
    const text = fieldMessage(key, value)
    if (text) out.fields[key] = text
    // a list of nested objects' errors by row and sub-field (DRF aligns one object per row), for forms that render rows
    if (Array.isArray(value) && value.some((v) => !(typeof v === 'string'))) leafMessages(value, key, (out.rows ??= {}))
    // a nested object's errors by sub-field as well (`custom_info.owner`), for forms that render its children
    if (isObject(value) && !(Object.keys(value).length === 1 && key in value)) {
      for (const [sub, v] of Object.entries(value)) {
        const m = fieldMessage(sub, v)
        if (m) (out.nested ??= {})[`${key}.${sub}`] = m
      }
    }
  }
  return out
}

/** Bulk (array) answers: per field, the items' messages joined with "; ", each prefixed with its item's name. */
export function flattenBulkErrors(data: unknown, itemName: (index: number) => string): FormErrors {
  if (!Array.isArray(data)) return flattenServerErrors(data)
  const fields: Record<string, string[]> = {}
  const top: string[] = []
  data.forEach((item, i) => {
    const one = flattenServerErrors(item)
    for (const [k, v] of Object.entries(one.fields)) (fields[k] ??= []).push(`${itemName(i)}: ${v}`)
    top.push(...one.top.map((m) => `${itemName(i)}: ${m}`))
  })
  return { fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.join('; ')])), top: top.length ? [top.join('; ')] : [] }
}

/** What of the form the server's errors are mapped onto: the rendered fields, nested sub-fields, labels. */
export interface FormShape {
  /** rendered field names, in order */
  order: readonly string[]
  /** a nested object's field → the sub-fields the form renders (only fields shown as nested objects) */
  nested: Readonly<Record<string, readonly string[]>>
  /** field name → label (for messages of fields the form does not render) */
  labels: Readonly<Record<string, string>>
  /** lists of nested objects the form renders as rows (their messages go to the row's sub-field) */
  lists?: readonly string[]
}

/** A failed save as the form's machine receives it: the 400 answer's body (if any) and a sentence for the rest. */
export interface SaveFailure {
  /** the DRF error body of a 400 answer */
  data?: unknown
  /** the error in words (shown when nothing maps onto the form) */
  message: string
}

/**
 * A failed save → errors on the form's fields and above it: each rendered field's message on the field, a nested
 * object's messages on the sub-fields it renders (the rest on the field itself), messages of fields the form does
 * not render above it with their label, and the failure's sentence when nothing else says anything.
 */
export function formErrorsOf(failure: SaveFailure, shape: FormShape): { errors: Record<string, string>; topErrors: string[] } {
  if (failure.data === undefined) return { errors: {}, topErrors: [failure.message] }
  const mapped = flattenServerErrors(failure.data)
  const rendered = new Set(shape.order)
  const errors: Record<string, string> = {}
  const elsewhere: string[] = [...mapped.top]
  for (const [field, message] of Object.entries(mapped.fields)) {
    const subs = Object.entries(mapped.nested ?? {}).filter(([path]) => path.startsWith(`${field}.`))
    const shown = shape.nested[field]
    const rows = Object.entries(mapped.rows ?? {}).filter(([path]) => path.startsWith(`${field}.`))
    if (rendered.has(field) && shape.lists?.includes(field) && rows.length) {
      for (const [path, m] of rows) errors[path] = m
    } else if (rendered.has(field) && shown && subs.length) {
      const on = new Set(shown)
      const rest: string[] = []
      for (const [path, m] of subs) {
        const sub = path.slice(field.length + 1)
        if (on.has(sub)) errors[path] = m
        else rest.push(`${sub}: ${m}`)
      }
      if (rest.length) errors[field] = rest.join('; ')
    } else if (rendered.has(field)) errors[field] = message
    else elsewhere.push(`${shape.labels[field] ?? field}: ${message}`)
  }
  return { errors, topErrors: elsewhere.length || Object.keys(errors).length ? elsewhere : [failure.message] }
}
