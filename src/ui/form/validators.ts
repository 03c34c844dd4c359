/**
 * Field validators (spec §5), written correctly where the reference was not: the emoji check detects emoji
 * (`\p{Extended_Pictographic}`, flags, keycaps) and allows "[", and the username-mapping check requires a
 * `username` KEY (the reference looked among the values). Each returns an error message or undefined; an
 * empty value passes every rule but `required`.
 */
import { t } from '@lingui/core/macro'

export type FormValues = Record<string, unknown>
export type Validator = (value: unknown, values: FormValues) => string | undefined

export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true
  if (typeof value === 'string') return value.trim() === ''
  if (Array.isArray(value)) return value.length === 0
  return false
}

export const required: Validator = (value) => (isBlank(value) ? t`This field is required` : undefined)

const asText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined)

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const email: Validator = (value) => {
  const v = asText(value)
  return v === undefined || EMAIL.test(v) ? undefined : t`Enter a valid email address`
}

/** Letters, digits and `: / . ? = & # _ -` only (after trimming). */
const IP_OR_URL = /^[A-Za-z0-9:/.?=&#_-]+$/
export const ipOrUrl: Validator = (value) => {
  const v = asText(value)
  return v === undefined || IP_OR_URL.test(v) ? undefined : t`The format is not correct`
}

/** Pictographic emoji, flag halves and keycap sequences. */
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u
export function hasEmoji(text: string): boolean {
  return EMOJI.test(text)
}
export const noEmoji: Validator = (value) => (typeof value === 'string' && hasEmoji(value) ? t`Emoji are not allowed` : undefined)

const ALNUM_UNDERSCORE = /^[A-Za-z0-9_]+$/
export const alphanumericUnderscore: Validator = (value) => {
  const v = asText(value)
  return v === undefined || ALNUM_UNDERSCORE.test(v) ? undefined : t`Only letters, digits and underscores are allowed`
}

function parseJson(value: unknown): { ok: true; value: unknown } | { ok: false } | undefined {
  if (typeof value !== 'string') return value === undefined || value === null ? undefined : { ok: true, value }
  if (value.trim() === '') return undefined
  try {
    return { ok: true, value: JSON.parse(value) as unknown }
  } catch {
    return { ok: false }
  }
}

export const json: Validator = (value) => {
  const parsed = parseJson(value)
  return parsed && !parsed.ok ? t`Invalid JSON` : undefined
}

/** A user attribute mapping: a JSON object with a `username` key, e.g. `{"username": "uid"}`. */
export const usernameMappingJson: Validator = (value) => {
  const parsed = parseJson(value)
  if (!parsed) return undefined
  if (!parsed.ok) return t`Invalid JSON`
  const v = parsed.value
  if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, 'username')) {
    return t`The mapping must have a "username" key`
  }
  return undefined
}

export function lengthRule(min?: number, max?: number): Validator {
  return (value) => {
    if (typeof value !== 'string' || value === '') return undefined
    if (max !== undefined && value.length > max) return t`Ensure this field has no more than ${max} characters`
    if (min !== undefined && value.length < min) return t`Ensure this field has at least ${min} characters`
    return undefined
  }
}

export function rangeRule(min?: number, max?: number): Validator {
  return (value) => {
    if (value === '' || value === undefined || value === null) return undefined
    const n = typeof value === 'number' ? value : Number(value)
    if (Number.isNaN(n)) return t`Enter a number`
    if (min !== undefined && n < min) return t`Ensure this value is greater than or equal to ${min}`
    if (max !== undefined && n > max) return t`Ensure this value is less than or equal to ${max}`
    return undefined
  }
}

/** The first message of a list of rules. */
export function runRules(rules: readonly Validator[], value: unknown, values: FormValues): string | undefined {
  for (const rule of rules) {
    const message = rule(value, values)
    if (message) return message
  }
  return undefined
}
