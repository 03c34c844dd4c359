import { tr } from '../i18n.ts'
import type { Lang } from '../http/request-context.ts'

/** DRF-style field validation for the site-message bodies (contract §1.9): field → list of messages. */

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export type Errors = Record<string, unknown>

/** `has_read` filter: true/false/1/0 (any case); empty means no filter; anything else is an error. */
export function parseHasRead(raw: unknown, lang: Lang, errors: Errors): boolean | undefined {
  if (raw === undefined || raw === '') return undefined
  const v = String(raw).toLowerCase()
  if (v === 'true' || v === '1') return true
  if (v === 'false' || v === '0') return false
  errors.has_read = [tr(lang, 'Select a valid choice. {value} is not one of the available choices.', { value: String(raw) })]
  return undefined
}

/** A list of UUIDs. Item errors are keyed by index, as DRF's ListField reports them. */
export function parseIdList(raw: unknown, field: string, lang: Lang, errors: Errors, opts: { required: boolean }): string[] {
  if (raw === undefined || raw === null) {
    if (opts.required) errors[field] = [tr(lang, 'This field is required.')]
    return []
  }
  if (!Array.isArray(raw)) {
    errors[field] = [tr(lang, 'Expected a list of items but got type "{type}".', { type: typeof raw === 'string' ? 'str' : typeof raw })]
    return []
  }
  const itemErrors: Record<string, string[]> = {}
  raw.forEach((v, i) => {
    if (typeof v !== 'string' || !UUID_RE.test(v)) itemErrors[String(i)] = [tr(lang, 'Must be a valid UUID.')]
  })
  if (Object.keys(itemErrors).length) {
    errors[field] = itemErrors
    return []
  }
  return (raw as string[]).map((v) => v.toLowerCase())
}

/** A required, non-blank string of at most `max` characters (surrounding white space trimmed). */
export function parseText(raw: unknown, field: string, lang: Lang, errors: Errors, max: number): string {
  if (raw === undefined || raw === null) {
    errors[field] = [tr(lang, raw === null ? 'This field may not be null.' : 'This field is required.')]
    return ''
  }
  if (typeof raw !== 'string') {
    errors[field] = [tr(lang, 'Not a valid string.')]
    return ''
  }
  const text = raw.trim()
  if (!text) errors[field] = [tr(lang, 'This field may not be blank.')]
  else if (text.length > max) errors[field] = [tr(lang, 'Ensure this field has no more than {n} characters.', { n: max })]
  return text
}

/** DRF BooleanField input: true/false, 1/0, "true"/"false" and friends; missing → the default. */
export function parseBool(raw: unknown, field: string, lang: Lang, errors: Errors, dflt: boolean): boolean {
  if (raw === undefined) return dflt
  if (raw === true || raw === false) return raw
  const v = String(raw).toLowerCase()
  if (['true', '1', 'yes', 'on'].includes(v)) return true
  if (['false', '0', 'no', 'off'].includes(v)) return false
  errors[field] = [tr(lang, 'Must be a valid boolean.')]
  return dflt
}
