/**
 * Custom fields of custom platforms (contract §5.2: `custom_fields [{name, label, type, default, help_text,
 * choices[]}]`) and the `custom_info` of custom assets they describe: the platform declares typed fields, which
 * become engine field declarations (customFieldDefs); the asset's values are checked and completed by the
 * engine's own parsing against them (unknown keys, wrong types, missing required values and choices not offered
 * are field errors under `custom_info`), as are a field's default on the platform.
 */
import { parseValue } from '../../engine/parse.ts'
import type { Ctx, FieldDef } from '../../engine/types.ts'
import { addMessages, tr } from '../../i18n.ts'

export const CUSTOM_FIELD_TYPES = ['str', 'text', 'int', 'bool', 'choice'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]

export interface CustomField {
  name: string
  label: string
  type: CustomFieldType
  required: boolean
  default?: unknown
  help_text: string
  choices: Array<{ value: string; label: string }>
}

addMessages({
  'Field {i}: {problem}': ['第 {i} 个字段：{problem}', 'フィールド {i}：{problem}'],
  'the name must be a letter followed by letters, digits or "_" (at most 64)': ['名称须以字母开头，由字母、数字或 "_" 组成（最多 64 个）', '名前は英字で始まり、英字・数字・"_" のみ（64 文字まで）にしてください'],
  'the name "{name}" is used twice': ['名称 "{name}" 重复', '名前 "{name}" が重複しています'],
  'the type must be one of {types}': ['类型必须是 {types} 之一', '型は {types} のいずれかにしてください'],
  'a choice field needs choices': ['选项类型的字段需要选项', '選択型のフィールドには選択肢が必要です'],
  'Unknown field: {name}': ['未知字段：{name}', '不明なフィールド：{name}'],
  '{label}: {error}': ['{label}：{error}', '{label}：{error}'],
})

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

/** A platform's `custom_fields` as given → the cleaned list, or the problems (one line per bad field). */
export function cleanCustomFields(raw: unknown, ctx: Ctx): { fields?: CustomField[]; errors?: string[] } {
  const lang = ctx.lang
  if (!Array.isArray(raw)) return { errors: [tr(lang, 'Expected a list of items but got type "{type}".', { type: typeof raw })] }
  const errors: string[] = []
  const fields: CustomField[] = []
  const seen = new Set<string>()
  raw.forEach((item, idx) => {
    const f = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>
    const problem = (p: string) => errors.push(tr(lang, 'Field {i}: {problem}', { i: idx + 1, problem: p }))
    const name = typeof f.name === 'string' ? f.name.trim() : ''
    if (!NAME.test(name)) return problem(tr(lang, 'the name must be a letter followed by letters, digits or "_" (at most 64)'))
    if (seen.has(name)) return problem(tr(lang, 'the name "{name}" is used twice', { name }))
    seen.add(name)
    const type = (f.type ?? 'str') as CustomFieldType
    if (!CUSTOM_FIELD_TYPES.includes(type)) return problem(tr(lang, 'the type must be one of {types}', { types: CUSTOM_FIELD_TYPES.join(', ') }))
    const choices = (Array.isArray(f.choices) ? f.choices : []).map((c) => (c && typeof c === 'object'
      ? { value: String((c as Record<string, unknown>).value ?? ''), label: String((c as Record<string, unknown>).label ?? (c as Record<string, unknown>).value ?? '') }
      : { value: String(c), label: String(c) })).filter((c) => c.value !== '')
    if (type === 'choice' && !choices.length) return problem(tr(lang, 'a choice field needs choices'))
    const field: CustomField = {
      name, type, label: typeof f.label === 'string' && f.label.trim() ? f.label.trim().slice(0, 128) : name,
      required: f.required === true, help_text: typeof f.help_text === 'string' ? f.help_text.slice(0, 1024) : '', choices,
    }
    if (!absent(f.default)) {
      const [def] = customFieldDefs([field])
      const v = parseValue(def!, f.default, ctx)
      if (!v.ok) return problem(tr(lang, '{label}: {error}', { label: field.label, error: [v.error].flat().map(String).join(' ') }))
      field.default = v.value
    }
    fields.push(field)
  })
  return errors.length ? { errors } : { fields }
}

/**
 * The fields as engine field declarations, so the engine's own parsing checks a custom asset's values and OPTIONS
 * describes them as a nested serializer's children (contract §2.2): str a string of at most 1,024, text a longer
 * string (a text area), int an integer, bool a boolean, choice a choice.
 */
export function customFieldDefs(fields: CustomField[]): FieldDef[] {
  return fields.map((f) => ({
    name: f.name, label: f.label, required: f.required && f.default === undefined,
    ...(f.help_text ? { help_text: f.help_text } : {}),
    ...(f.default !== undefined ? { default: f.default } : {}),
    ...(f.type === 'str' ? { type: 'string', max_length: 1024 } as const
      : f.type === 'text' ? { type: 'text', max_length: 65536 } as const
      : f.type === 'int' ? { type: 'integer' } as const
      : f.type === 'bool' ? { type: 'boolean' } as const
      : { type: 'choice', choices: f.choices } as const),
  }))
}

const absent = (v: unknown) => v === undefined || v === null || v === ''

/**
 * A custom asset's `custom_info` against its platform's fields, parsed by the engine as a nested object of those
 * fields (an empty value counts as not given, so the default fills it): typed values with defaults, or the problems
 * as DRF gives a nested serializer's (`{owner: ['This field is required.']}`), so a form shows each on its sub-field.
 */
export function cleanCustomInfo(fields: CustomField[], raw: unknown, ctx: Ctx): { value?: Record<string, unknown>; errors?: unknown } {
  const defs = customFieldDefs(fields)
  if (absent(raw)) raw = {}
  const given = raw && typeof raw === 'object' && !Array.isArray(raw)
    ? Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter(([, v]) => !absent(v)))
    : raw
  const r = parseValue({ name: 'custom_info', type: 'nested', children: defs }, given, ctx)
  const errors: Record<string, unknown> = r.ok ? {} : Array.isArray(r.error) ? { '': r.error } : { ...(r.error as Record<string, unknown>) }
  if ('' in errors) return { errors: errors[''] }
  for (const name of Object.keys(raw as Record<string, unknown>)) {
    if (!fields.some((f) => f.name === name)) errors[name] = [tr(ctx.lang, 'Unknown field: {name}', { name })]
  }
  return Object.keys(errors).length ? { errors } : { value: (r as { value: Record<string, unknown> }).value }
}

/** The stored fields of a platform row (cleaned on write, so they are read as they are). */
export const platformCustomFields = (platform: { custom_fields?: unknown }): CustomField[] =>
  (Array.isArray(platform.custom_fields) ? platform.custom_fields : []) as CustomField[]
