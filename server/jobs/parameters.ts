/**
 * Job parameters (docs/jobs.md "Parameters"; JumpServer 3.2's `Job.parameters_define` and
 * `JobExecution.parameters`): a saved job names its parameters `{name: {label, type, default, options}}`; each run
 * gives their values, checked here, recorded on the execution, then
 * - in an adhoc command, every `{{ name }}` (spaces inside the braces allowed) is replaced by the value quoted as
 *   one shell word (JumpServer 3.2 lets Ansible template the value in as it is: `; rm -rf ~` in a value runs);
 * - in a playbook, the values are extra variables marked `!unsafe` (Ansible never templates them on the server:
 *   a value `{{ lookup('pipe', 'id') }}` stays text).
 */
import type { Lang } from '../http/request-context.ts'
import { addMessages, tr } from '../i18n.ts'

export const PARAMETER_TYPES = ['text', 'select'] as const
export type ParameterType = (typeof PARAMETER_TYPES)[number]

export interface ParameterDefine {
  label: string
  type: ParameterType
  default: string
  /** For `select`: the values offered (their labels shown). */
  options?: Array<{ label: string; value: string }>
}
export type ParametersDefine = Record<string, ParameterDefine>

const MAX_PARAMETERS = 20
const MAX_VALUE = 1024
const MAX_OPTIONS = 50
/** An Ansible variable name that is not one of ours (`jms_…`) or Ansible's (`ansible_…`). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
const RESERVED = /^(jms_|ansible_)/i

addMessages({
  'Expected a JSON object of parameters.': ['应为参数的 JSON 对象。', 'パラメーターの JSON オブジェクトが必要です。'],
  'At most {n} parameters.': ['最多 {n} 个参数。', 'パラメーターは {n} 個までです。'],
  'Parameter "{name}": the name must be letters, digits and _, not starting with a digit.': ['参数“{name}”：名称只能包含字母、数字和 _，且不能以数字开头。', 'パラメーター「{name}」: 名前は英字・数字・_ のみで、数字で始めることはできません。'],
  'Parameter "{name}": names starting with jms_ or ansible_ are reserved.': ['参数“{name}”：以 jms_ 或 ansible_ 开头的名称为保留名称。', 'パラメーター「{name}」: jms_ または ansible_ で始まる名前は予約されています。'],
  'Parameter "{name}": "{value}" is not a valid type.': ['参数“{name}”：“{value}” 不是合法的类型。', 'パラメーター「{name}」: 「{value}」は有効な種類ではありません。'],
  'Parameter "{name}": the label, default and options must be text of at most {n} characters.': ['参数“{name}”：标签、默认值和选项必须是不超过 {n} 个字符的文本。', 'パラメーター「{name}」: ラベル・既定値・選択肢は {n} 文字以内のテキストにしてください。'],
  'Parameter "{name}": a choice needs between 1 and {n} options.': ['参数“{name}”：选择类型需要 1 到 {n} 个选项。', 'パラメーター「{name}」: 選択式には 1〜{n} 個の選択肢が必要です。'],
  'Parameter "{name}": the default must be one of its options.': ['参数“{name}”：默认值必须是其选项之一。', 'パラメーター「{name}」: 既定値は選択肢のいずれかにしてください。'],
  'Expected an object of parameter values.': ['应为参数值的对象。', 'パラメーター値のオブジェクトが必要です。'],
  'Unknown parameter.': ['未知的参数。', '不明なパラメーターです。'],
  'This field may not be blank.': ['该字段不能为空。', 'この項目は空にできません。'],
  'Not a valid string.': ['不是有效的字符串。', '有効な文字列ではありません。'],
})

/** A JSON text or the value itself (lina sends `parameters_define` and `parameters` as JSON text). */
function fromJson(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw
  if (!raw.trim()) return {}
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (v: unknown, dflt = ''): string | undefined => (v === undefined || v === null ? dflt : typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)

/** Checks a job's parameter definitions: the clean definitions, or the error messages (one per problem). */
export function parseParametersDefine(raw: unknown, lang: Lang): { define: ParametersDefine } | { errors: string[] } {
  const v = fromJson(raw ?? {})
  if (!isObject(v)) return { errors: [tr(lang, 'Expected a JSON object of parameters.')] }
  const names = Object.keys(v)
  if (names.length > MAX_PARAMETERS) return { errors: [tr(lang, 'At most {n} parameters.', { n: MAX_PARAMETERS })] }
  const errors: string[] = []
  const define: ParametersDefine = {}
  for (const name of names) {
    const d = v[name]
    if (!NAME.test(name)) { errors.push(tr(lang, 'Parameter "{name}": the name must be letters, digits and _, not starting with a digit.', { name: name.slice(0, 64) })); continue }
    if (RESERVED.test(name)) { errors.push(tr(lang, 'Parameter "{name}": names starting with jms_ or ansible_ are reserved.', { name })); continue }
    if (!isObject(d)) { errors.push(tr(lang, 'Expected a JSON object of parameters.')); continue }
    const type = d.type === undefined || d.type === '' ? 'text' : d.type
    if (!(PARAMETER_TYPES as readonly unknown[]).includes(type)) { errors.push(tr(lang, 'Parameter "{name}": "{value}" is not a valid type.', { name, value: String(type).slice(0, 32) })); continue }
    const label = text(d.label, name)
    const dflt = text(d.default, '')
    const tooLong = (s: string | undefined) => s === undefined || s.length > MAX_VALUE || s.includes('\u0000')
    if (tooLong(label) || tooLong(dflt)) { errors.push(tr(lang, 'Parameter "{name}": the label, default and options must be text of at most {n} characters.', { name, n: MAX_VALUE })); continue }
    const p: ParameterDefine = { label: label!.trim() || name, type: type as ParameterType, default: dflt! }
    if (type === 'select') {
      const raw = Array.isArray(d.options) ? d.options : []
      if (!raw.length || raw.length > MAX_OPTIONS) { errors.push(tr(lang, 'Parameter "{name}": a choice needs between 1 and {n} options.', { name, n: MAX_OPTIONS })); continue }
      const options: Array<{ label: string; value: string }> = []
      let bad = false
      for (const o of raw) {
        const value = isObject(o) ? text(o.value) : text(o)
        const olabel = isObject(o) ? text(o.label, value ?? '') : value
        if (tooLong(value) || tooLong(olabel) || value === '') { bad = true; break }
        if (!options.some((x) => x.value === value)) options.push({ label: olabel || value!, value: value! })
      }
      if (bad) { errors.push(tr(lang, 'Parameter "{name}": the label, default and options must be text of at most {n} characters.', { name, n: MAX_VALUE })); continue }
      if (p.default && !options.some((o) => o.value === p.default)) { errors.push(tr(lang, 'Parameter "{name}": the default must be one of its options.', { name })); continue }
      p.options = options
    }
    define[name] = p
  }
  return errors.length ? { errors } : { define }
}

/**
 * The values of one run: each parameter's given value, else its default; every value is required, a choice must be
 * one of its options. Field errors are per parameter name (`{name: [message]}`), or `['…']` for the whole value.
 */
export function checkParameterValues(define: ParametersDefine, raw: unknown, lang: Lang): { values: Record<string, string> } | { errors: Record<string, string[]> | string[] } {
  const v = fromJson(raw ?? {})
  if (!isObject(v)) return { errors: [tr(lang, 'Expected an object of parameter values.')] }
  const errors: Record<string, string[]> = {}
  for (const k of Object.keys(v)) if (!(k in define)) errors[k.slice(0, 64)] = [tr(lang, 'Unknown parameter.')]
  const values: Record<string, string> = {}
  for (const [name, d] of Object.entries(define)) {
    const given = v[name]
    const value = given === undefined || given === null ? d.default : text(given)
    if (value === undefined) errors[name] = [tr(lang, 'Not a valid string.')]
    else if (!value.trim()) errors[name] = [tr(lang, 'This field may not be blank.')]
    else if (value.length > MAX_VALUE) errors[name] = [tr(lang, 'Ensure this field has no more than {n} characters.', { n: MAX_VALUE })]
    else if (value.includes('\u0000')) errors[name] = [tr(lang, 'Not a valid string.')]
    else if (d.type === 'select' && !d.options?.some((o) => o.value === value)) errors[name] = [tr(lang, '"{value}" is not a valid choice.', { value: value.slice(0, 64) })]
    else values[name] = value
  }
  return Object.keys(errors).length ? { errors } : { values }
}

/** One shell word whatever the text holds (POSIX sh single quotes). */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * An adhoc command with `{{ name }}` replaced by the value of each defined parameter, quoted as one shell word (the
 * replacement is not read again: a value holding `{{ other }}` stays as it is). Other `{{ … }}` are left as written.
 */
export function substituteParameters(command: string, values: Record<string, string>, quote: (s: string) => string = shellQuote): string {
  return command.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (all, name: string) => (Object.hasOwn(values, name) ? quote(values[name]!) : all))
}

/**
 * Ansible extra variables as YAML (`-e @file`): every value a double-quoted scalar tagged `!unsafe`, so that Ansible
 * never templates it (JSON string escapes are YAML double-quoted escapes).
 */
export function unsafeExtraVars(values: Record<string, string>): string {
  return Object.entries(values).map(([k, v]) => `${k}: !unsafe ${JSON.stringify(v)}\n`).join('') || '{}\n'
}

/** What a job stores, from a row's column (jsonb object; older rows `{}`). */
export function defineOf(v: unknown): ParametersDefine {
  const parsed = fromJson(v)
  return isObject(parsed) ? (parsed as ParametersDefine) : {}
}
