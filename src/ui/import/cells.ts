/**
 * Cell values of the import preview. `render-to-json` answers parsed values (contract §4.8): strings, numbers,
 * booleans, null, related objects `{pk, name}`, labeled choices `{value, label}`, lists and JSON objects.
 * A cell is edited as the text the file would hold (`name(id)`, JSON for lists), and parsed back to the shape
 * of the value it replaces, so an edited row goes to the server like an unedited one.
 */

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function isRelated(v: unknown): v is { pk: unknown; name: unknown } {
  return isObject(v) && 'pk' in v && 'name' in v
}

function isLabeled(v: unknown): v is { value: unknown; label: unknown } {
  return isObject(v) && 'value' in v && 'label' in v
}

/** The editable text of a value, the way a file would hold it. */
export function toEditText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (isRelated(value)) return `${String(value.name)}(${String(value.pk)})`
  if (isLabeled(value)) return String(value.value)
  if (Array.isArray(value)) return JSON.stringify(value.map((item) => (isRelated(item) || isLabeled(item) ? toEditText(item) : item)))
  return JSON.stringify(value)
}

/** Short text shown in a cell: related objects by name, lists comma-joined. */
export function toDisplayText(value: unknown): string {
  if (isRelated(value)) return String(value.name)
  if (isLabeled(value)) return String(value.label)
  if (Array.isArray(value)) return value.map(toDisplayText).join(', ')
  return toEditText(value)
}

const RELATED = /^(.*)\(([^()]+)\)$/

function parseRelated(text: string, like: { pk: unknown }): unknown {
  const m = RELATED.exec(text.trim())
  if (!m) return text
  const pk = typeof like.pk === 'number' && /^\d+$/.test(m[2]!) ? Number(m[2]) : m[2]!
  return { pk, name: m[1]! }
}

/** Parses `text` back to the shape of `previous` (the value being replaced). */
export function fromEditText(text: string, previous: unknown): unknown {
  if (previous === null || previous === undefined) {
    if (text === '') return previous
    return parseLoose(text)
  }
  if (typeof previous === 'string') return text
  if (typeof previous === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text
  if (typeof previous === 'boolean') return /^(true|1|yes)$/i.test(text.trim())
  if (text.trim() === '') return Array.isArray(previous) ? [] : null
  if (isRelated(previous)) return parseRelated(text, previous)
  if (isLabeled(previous)) return text.trim()
  if (Array.isArray(previous)) {
    const parsed = parseJson(text)
    if (!Array.isArray(parsed)) return text
    const sample = previous[0]
    return isRelated(sample) ? parsed.map((item) => (typeof item === 'string' ? parseRelated(item, sample) : item)) : parsed
  }
  const parsed = parseJson(text)
  return parsed === undefined ? text : parsed
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** A value without a known shape: JSON lists/objects are parsed (as the server does for files), else text. */
function parseLoose(text: string): unknown {
  const t = text.trim()
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}'))) {
    const parsed = parseJson(t)
    if (parsed !== undefined) return parsed
  }
  return text
}

/** True when a value carries nothing: null, '', [] or {}. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  if (isObject(value)) return Object.keys(value).length === 0
  return false
}
