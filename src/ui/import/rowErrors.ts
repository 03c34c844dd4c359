/**
 * A failed row's answer as "Column label: message" lines (spec 000 §8): DRF field errors keyed by field name,
 * nested serializer errors flattened, plain messages (`detail`, `error`, `non_field_errors`, bare lists) as is.
 */

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const PLAIN_KEYS = new Set(['detail', 'error', 'msg', 'non_field_errors'])

/** The messages of one field's error value, nested parts as "field: message". */
function messages(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value !== 'object') return String(value)
  if (Array.isArray(value)) return value.map(messages).filter(Boolean).join(' ')
  return Object.entries(value)
    .map(([key, inner]) => {
      const text = messages(inner)
      return text ? `${key}: ${text}` : ''
    })
    .filter(Boolean)
    .join('; ')
}

export function errorLines(body: unknown, labelOf: (field: string) => string): string[] {
  if (typeof body === 'string') return body.trim() && !body.trim().startsWith('<') ? [body.trim()] : []
  if (Array.isArray(body)) return body.flatMap((item) => errorLines(item, labelOf))
  if (!isObject(body)) return []
  const lines: string[] = []
  for (const [key, value] of Object.entries(body)) {
    if (key === 'code') continue
    const text = messages(value)
    if (!text) continue
    lines.push(PLAIN_KEYS.has(key) ? text : `${labelOf(key)}: ${text}`)
  }
  return lines
}
