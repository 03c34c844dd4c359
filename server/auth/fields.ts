/**
 * Small DRF-style body readers for the hand-written endpoints of auth/ and startup/: every problem is
 * collected as a translated field error, and `done()` throws one 400 with all of them.
 */
import type { FastifyRequest } from 'fastify'
import { ApiError } from '../http/errors.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { AUTH_MESSAGES } from './messages.ts'

export type Body = Record<string, unknown>

/** The request body as an object; `{}` when empty; 400 `non_field_errors` for arrays and scalars. */
export function bodyOf(req: FastifyRequest): Body {
  const b = req.body
  if (b === undefined || b === null || b === '') return {}
  if (typeof b === 'object' && !Array.isArray(b) && !Buffer.isBuffer(b)) return b as Body
  const type = Array.isArray(b) ? 'list' : typeof b
  throw new ApiError(400, { non_field_errors: [tr(req.ctx.lang, AUTH_MESSAGES.notObject, { type })] })
}

export interface StringRule {
  required?: boolean
  /** Blank strings allowed (DRF `allow_blank`). */
  blank?: boolean
  maxLength?: number
  /** Strip surrounding whitespace (DRF default); off for secrets. */
  trim?: boolean
}

export class FieldReader {
  readonly errors: Record<string, string[]> = {}
  constructor(readonly body: Body, readonly lang: Lang) {}

  has(field: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.body, field)
  }

  error(field: string, text: string, vars?: Record<string, string | number>): void {
    ;(this.errors[field] ??= []).push(tr(this.lang, text, vars))
  }

  /** A string field; undefined when absent (and not required) or invalid. */
  string(field: string, rule: StringRule = {}): string | undefined {
    const raw = this.body[field]
    if (raw === undefined) {
      if (rule.required) this.error(field, 'This field is required.')
      return undefined
    }
    if (raw === null) {
      this.error(field, 'This field may not be null.')
      return undefined
    }
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      this.error(field, AUTH_MESSAGES.notString)
      return undefined
    }
    const value = rule.trim === false ? String(raw) : String(raw).trim()
    if (value.includes('\u0000')) {
      this.error(field, 'Null characters are not allowed.')
      return undefined
    }
    if (value === '' && !rule.blank) {
      this.error(field, 'This field may not be blank.')
      return undefined
    }
    if (rule.maxLength !== undefined && [...value].length > rule.maxLength) {
      this.error(field, 'Ensure this field has no more than {n} characters.', { n: rule.maxLength })
      return undefined
    }
    return value
  }

  /** A choice field: the bare value or a labeled-choice object `{value}`. */
  choice<T extends string | number>(field: string, choices: readonly T[], rule: { required?: boolean } = {}): T | undefined {
    let raw = this.body[field]
    if (raw === undefined) {
      if (rule.required) this.error(field, 'This field is required.')
      return undefined
    }
    if (raw && typeof raw === 'object' && 'value' in raw) raw = (raw as { value: unknown }).value
    const found = choices.find((c) => String(c) === String(raw))
    if (found === undefined) this.error(field, AUTH_MESSAGES.invalidChoice, { value: String(raw) })
    return found
  }

  /** DRF BooleanField parsing. */
  boolean(field: string): boolean | undefined {
    const raw = this.body[field]
    if (raw === undefined) return undefined
    const s = String(raw).toLowerCase()
    if (['true', '1', 'yes', 'on'].includes(s)) return true
    if (['false', '0', 'no', 'off'].includes(s)) return false
    this.error(field, AUTH_MESSAGES.notBoolean)
    return undefined
  }

  get ok(): boolean {
    return Object.keys(this.errors).length === 0
  }

  /** Throws 400 with every collected field error. */
  done(): void {
    if (!this.ok) throw new ApiError(400, this.errors)
  }
}

export function fieldsOf(req: FastifyRequest): FieldReader {
  return new FieldReader(bodyOf(req), req.ctx.lang)
}
