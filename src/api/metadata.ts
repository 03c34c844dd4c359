/**
 * OPTIONS metadata (contract §2) parsed into typed field descriptors, cached per URL.
 *
 * The cache key holds the organization and the language as well as the URL, so a change of either one
 * never serves stale labels or fields (the reference console cached per URL for the page's lifetime and
 * never invalidated). `invalidateMetadata()` drops everything, e.g. after a save that changes choices.
 */
import { i18n } from '@lingui/core'
import { invalidate } from './cache.ts'
import { http } from './client.ts'

export type FieldType =
  | 'string' | 'email' | 'url' | 'slug' | 'regex'
  | 'integer' | 'float' | 'decimal' | 'boolean' | 'date' | 'time' | 'datetime'
  | 'choice' | 'multiple choice' | 'labeled_choice'
  | 'object_related_field' | 'm2m_related_field' | 'nested object'
  | 'field' | 'list' | 'json' | 'tree' | 'file upload' | 'image upload'
  | 'unknown'

const KNOWN_TYPES: ReadonlySet<string> = new Set<FieldType>([
  'string', 'email', 'url', 'slug', 'regex', 'integer', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime',
  'choice', 'multiple choice', 'labeled_choice', 'object_related_field', 'm2m_related_field', 'nested object',
  'field', 'list', 'json', 'tree', 'file upload', 'image upload',
])

export type ChoiceValue = string | number | boolean
export interface Choice {
  value: ChoiceValue
  label: string
}

export interface TreeNode {
  value: string
  label: string
  children?: TreeNode[]
}

export interface FieldMeta {
  name: string
  type: FieldType
  label: string
  helpText?: string
  required: boolean
  readOnly: boolean
  writeOnly: boolean
  maxLength?: number
  minLength?: number
  minValue?: number
  maxValue?: number
  /** Present only when the server declares one (contract §2.2). */
  default?: unknown
  hasDefault: boolean
  choices?: Choice[]
  /** Element info of lists and many-nested fields. */
  child?: FieldMeta
  /** Sub-fields of a single nested object, in server order. */
  children?: FieldMeta[]
  tree?: TreeNode[]
  /** GET only: usable as an exact filter. */
  filter: boolean
  /** GET only: usable in `order`. */
  order: boolean
  /**
   * Sub-fields that depend on another field's value (our server's hint `children_from`): the form re-reads the
   * metadata with `?<field>=<value>` and takes this field's children from it.
   */
  childrenFrom?: string
  /**
   * Sub-fields per value of a sibling (our server's `variants` beside `children_from`: a platform protocol's
   * `setting`, whose keys depend on the row's protocol name): the form picks the children of the row's value.
   */
  variants?: Record<string, FieldMeta[]>
  /**
   * The default depends on another field's value (our server's hint `default_from`, e.g. an asset's protocols on
   * its platform): the form re-reads the metadata with `?<field>=<value>` and shows that default on a new object.
   */
  defaultFrom?: string
  /** Related fields (our server only): the target model, its list URL and label field. */
  related?: { model?: string; url: string; label?: string }
}

export type MetaMethod = 'GET' | 'POST' | 'PUT' | 'PATCH'

export interface ResourceMeta {
  name: string
  description: string
  actions: Partial<Record<MetaMethod, FieldMeta[]>>
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

function parseChoices(raw: unknown): Choice[] | undefined {
  if (!Array.isArray(raw)) return undefined
  const out: Choice[] = []
  for (const item of raw) {
    if (!isObject(item)) continue
    const value = item.value
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue
    out.push({ value, label: str(item.label) ?? (str(item.display_name) ?? String(value)) })
  }
  return out
}

function parseTree(raw: unknown): TreeNode[] | undefined {
  if (!Array.isArray(raw)) return undefined
  return raw.filter(isObject).map((node) => {
    const value = String(node.value ?? node.label ?? '')
    const children = parseTree(node.children)
    return { value, label: str(node.label) ?? value, ...(children && children.length > 0 ? { children } : {}) }
  })
}

/** One field's info → a `FieldMeta`; unknown types become `unknown` (rendered as text input / plain text). */
export function parseField(name: string, raw: unknown): FieldMeta {
  const info = isObject(raw) ? raw : {}
  const type = str(info.type) ?? 'unknown'
  const field: FieldMeta = {
    name,
    type: (KNOWN_TYPES.has(type) ? type : 'unknown') as FieldType,
    label: str(info.label) ?? name,
    required: info.required === true,
    readOnly: info.read_only === true,
    writeOnly: info.write_only === true,
    hasDefault: 'default' in info,
    filter: info.filter === true,
    order: info.order === true,
  }
  const helpText = str(info.help_text)
  if (helpText) field.helpText = helpText
  const maxLength = num(info.max_length)
  if (maxLength !== undefined) field.maxLength = maxLength
  const minLength = num(info.min_length)
  if (minLength !== undefined) field.minLength = minLength
  const minValue = num(info.min_value)
  if (minValue !== undefined) field.minValue = minValue
  const maxValue = num(info.max_value)
  if (maxValue !== undefined) field.maxValue = maxValue
  if ('default' in info) field.default = info.default
  const choices = parseChoices(info.choices)
  if (choices) field.choices = choices
  if (isObject(info.child)) field.child = parseField('', info.child)
  if (isObject(info.children)) field.children = Object.entries(info.children).map(([k, v]) => parseField(k, v))
  if (typeof info.children_from === 'string' && info.children_from) field.childrenFrom = info.children_from
  if (typeof info.default_from === 'string' && info.default_from) field.defaultFrom = info.default_from
  if (isObject(info.variants)) {
    field.variants = Object.fromEntries(Object.entries(info.variants).filter(([, v]) => isObject(v))
      .map(([k, v]) => [k, Object.entries(v as Json).map(([name, sub]) => parseField(name, sub))]))
  }
  const tree = parseTree(info.tree)
  if (tree) field.tree = tree
  if (isObject(info.related) && typeof info.related.url === 'string' && info.related.url.startsWith('/')) {
    const { model, url, label } = info.related
    field.related = { url, ...(typeof model === 'string' ? { model } : {}), ...(typeof label === 'string' && label ? { label } : {}) }
  }
  return field
}

/** The whole OPTIONS answer → `ResourceMeta`. Field order is the server's (serializer order). */
export function parseMetadata(raw: unknown): ResourceMeta {
  const body = isObject(raw) ? raw : {}
  const actions: ResourceMeta['actions'] = {}
  if (isObject(body.actions)) {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH'] as const) {
      const fields = body.actions[method]
      if (isObject(fields)) actions[method] = Object.entries(fields).map(([name, info]) => parseField(name, info))
    }
  }
  return { name: str(body.name) ?? '', description: str(body.description) ?? '', actions }
}

/** Fields of one method, or `[]`. */
export function fieldsOf(meta: ResourceMeta | undefined, method: MetaMethod): FieldMeta[] {
  return meta?.actions[method] ?? []
}

/** The first method present, in order: what a form uses (POST for create, PUT then PATCH for update). */
export function formFields(meta: ResourceMeta | undefined, methods: readonly MetaMethod[]): FieldMeta[] {
  for (const m of methods) {
    const fields = meta?.actions[m]
    if (fields) return fields
  }
  return []
}

// ---------------------------------------------------------------------------------------------- loading

const cache = new Map<string, Promise<ResourceMeta>>()

export function metadataKey(url: string, orgId: string | undefined): string {
  return `${orgId ?? ''}|${i18n.locale ?? ''}|${url}`
}

/**
 * `OPTIONS <url>` parsed and cached. `orgId` is the organization the request runs in (part of the key;
 * the header itself is added by the http client). A failed load is not cached.
 */
export function loadMetadata(url: string, orgId?: string): Promise<ResourceMeta> {
  const key = metadataKey(url, orgId)
  const hit = cache.get(key)
  if (hit) return hit
  const pending = http(url, { method: 'OPTIONS', context: { silent: true } })
    .json<unknown>()
    .then(parseMetadata)
  cache.set(key, pending)
  pending.catch(() => {
    if (cache.get(key) === pending) cache.delete(key)
  })
  return pending
}

/** Drops cached metadata: all of it, or the entries of one URL. */
export function invalidateMetadata(url?: string): void {
  if (url === undefined) cache.clear()
  else for (const key of [...cache.keys()]) if (key.endsWith(`|${url}`)) cache.delete(key)
  invalidate((key) => key.startsWith('meta|') && (url === undefined || key.endsWith(`|${url}`)))
}
