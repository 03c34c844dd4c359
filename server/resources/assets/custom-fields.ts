/**
 * Custom fields of custom platforms (contract §5.2: `custom_fields [{name, label, type, default, help_text,
 * choices[]}]`) and the `custom_info` of custom assets they describe: the platform declares typed fields, the
 * asset's values are checked and completed against them (unknown keys, wrong types, missing required values
 * and choices not offered are field errors under `custom_info`).
 */
import type { Lang } from '../../http/request-context.ts'
import type { FieldDef } from '../../engine/types.ts'
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
  '{label}: this field is required.': ['{label}：该字段是必填项。', '{label}：この項目は必須です。'],
  '{label}: a whole number is required.': ['{label}：请输入整数。', '{label}：整数を入力してください。'],
  '{label}: true or false is required.': ['{label}：请输入 true 或 false。', '{label}：true か false を入力してください。'],
  '{label}: text is required.': ['{label}：请输入文本。', '{label}：テキストを入力してください。'],
  '{label}: "{value}" is not a valid choice.': ['{label}：“{value}” 不是有效的选项。', '{label}：「{value}」は有効な選択肢ではありません。'],
  'Expected a dictionary of items.': ['应为字典。', '辞書が必要です。'],
})

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

/** A platform's `custom_fields` as given → the cleaned list, or the problems (one line per bad field). */
export function cleanCustomFields(raw: unknown, lang: Lang): { fields?: CustomField[]; errors?: string[] } {
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
    if (f.default !== undefined && f.default !== null && f.default !== '') {
      const v = typedValue(field, f.default, lang)
      if ('error' in v) return problem(v.error)
      field.default = v.value
    }
    fields.push(field)
  })
  return errors.length ? { errors } : { fields }
}

/**
 * One value of a field, typed. Errors name the field (`{label}: …`) where they stand alone (a platform's default),
 * and are the plain DRF messages where they sit under the field's own key (a custom asset's `custom_info`).
 */
function typedValue(f: CustomField, v: unknown, lang: Lang, named = true): { value: unknown } | { error: string } {
  const label = f.label
  const error = (withLabel: string, plain: string, args: Record<string, string | number> = {}) =>
    ({ error: named ? tr(lang, withLabel, { label, ...args }) : tr(lang, plain, args) })
  switch (f.type) {
    case 'int': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : NaN
      return Number.isSafeInteger(n) ? { value: n } : error('{label}: a whole number is required.', 'A valid integer is required.')
    }
    case 'bool':
      if (typeof v === 'boolean') return { value: v }
      if (v === 'true' || v === 'false') return { value: v === 'true' }
      return error('{label}: true or false is required.', 'Must be a valid boolean.')
    case 'choice':
      return f.choices.some((c) => c.value === String(v)) ? { value: String(v) } : named
        ? error('{label}: "{value}" is not a valid choice.', '', { value: String(v) })
        : error('', '"{input}" is not a valid choice.', { input: String(v) })
    default:
      if (typeof v !== 'string' && typeof v !== 'number') return error('{label}: text is required.', 'Not a valid string.')
      return { value: String(v).slice(0, f.type === 'str' ? 1024 : 65536) }
  }
}

/**
 * A custom asset's `custom_info` against its platform's fields: typed values with defaults, or the problems as
 * DRF gives a nested serializer's (`{owner: ['This field is required.']}`), so a form shows each on its sub-field.
 */
export function cleanCustomInfo(fields: CustomField[], raw: unknown, lang: Lang): { value?: Record<string, unknown>; errors?: string[] | Record<string, string[]> } {
  if (raw === undefined || raw === null) raw = {}
  if (typeof raw !== 'object' || Array.isArray(raw)) return { errors: [tr(lang, 'Expected a dictionary of items.')] }
  const given = raw as Record<string, unknown>
  const errors: Record<string, string[]> = {}
  const out: Record<string, unknown> = {}
  for (const name of Object.keys(given)) if (!fields.some((f) => f.name === name)) errors[name] = [tr(lang, 'Unknown field: {name}', { name })]
  for (const f of fields) {
    const v = given[f.name]
    if (v === undefined || v === null || v === '') {
      if (f.default !== undefined) out[f.name] = f.default
      else if (f.required) errors[f.name] = [tr(lang, 'This field is required.')]
      continue
    }
    const t = typedValue(f, v, lang, false)
    if ('error' in t) errors[f.name] = [t.error]
    else out[f.name] = t.value
  }
  return Object.keys(errors).length ? { errors } : { value: out }
}

/**
 * The fields as OPTIONS describes a nested serializer's children (contract §2.2): str a string of at most 1,024,
 * text a string without a limit (a text area), int an integer, bool a boolean, choice a choice.
 */
export function customFieldDefs(fields: CustomField[]): FieldDef[] {
  return fields.map((f) => ({
    name: f.name, label: f.label, required: f.required && f.default === undefined,
    ...(f.help_text ? { help_text: f.help_text } : {}),
    ...(f.default !== undefined ? { default: f.default } : {}),
    ...(f.type === 'str' ? { type: 'string', max_length: 1024 } as const
      : f.type === 'text' ? { type: 'text' } as const
      : f.type === 'int' ? { type: 'integer' } as const
      : f.type === 'bool' ? { type: 'boolean' } as const
      : { type: 'choice', choices: f.choices } as const),
  }))
}

/** The stored fields of a platform row (cleaned on write, so they are read as they are). */
export const platformCustomFields = (platform: { custom_fields?: unknown }): CustomField[] =>
  (Array.isArray(platform.custom_fields) ? platform.custom_fields : []) as CustomField[]
