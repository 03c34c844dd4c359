/**
 * Where a related field's picker takes its options: the page's override (a custom label), else the resource's
 * declared source (the console manifest's field → model, mapped to a list URL; needed anyway for a real
 * JumpServer, whose OPTIONS say nothing, and more precise where a relation is a subset of its model, e.g. system
 * roles among all roles), else our server's OPTIONS hint (`related: {model, url, label}`; forms over URLs with no
 * manifest entry; its URL is taken over the declared one when it names the same list narrowed by a query). A related
 * field with none of these is reported, never silently a text box.
 */
import type { FieldMeta } from '../../api/metadata.ts'
import type { Row } from '../../api/resources.ts'
import type { RelatedRef, ResourceDef } from '../common/resource.ts'
import type { FieldOverride, FieldOverrides, RelatedSource } from './types.ts'
import { chooseWidget } from './widgets.ts'

/**
 * A declared or hinted source as a picker source: rows labelled by their label field when there is one, or by a
 * template of fields (`{name}:{value}`, a label's name and value: several labels share a name).
 */
export function sourceFromRef(ref: RelatedRef): RelatedSource {
  const field = ref.label
  if (!field) return { url: ref.url }
  if (field.includes('{')) {
    return { url: ref.url, label: (row: Row) => field.replace(/\{(\w+)\}/g, (_, name: string) => String(row[name] ?? '')) }
  }
  return { url: ref.url, label: (row: Row) => String(row[field] ?? row.name ?? row.id) }
}

export function isRelatedWidget(field: FieldMeta, override: FieldOverride | undefined): boolean {
  const widget = chooseWidget(field, override)
  return widget === 'related' || widget === 'relatedMulti'
}

/** The picker source of one field, or undefined when nothing names one. */
export function relatedSourceFor(field: FieldMeta, override: FieldOverride | undefined, declared: ResourceDef['related']): RelatedSource | undefined {
  if (override?.related) return override.related
  const ref = narrower(declared?.[field.name], field.related)
  return ref ? sourceFromRef(ref) : undefined
}

/**
 * The declared source, unless the server's hint names the same list with a query (a subset the server chose for
 * this form: a custom asset's platforms are the custom ones, `platforms/?category=custom`): then the hint's URL.
 */
function narrower(declared: RelatedRef | undefined, hint: RelatedRef | undefined): RelatedRef | undefined {
  if (!declared || !hint) return declared ?? hint
  const [path, query] = hint.url.split('?')
  return query && path === declared.url.split('?')[0] ? { ...declared, url: hint.url } : declared
}

/** The overrides with every related field's source filled in, and the names of related fields that have none. */
export function withRelatedSources(fields: readonly FieldMeta[], overrides: FieldOverrides, declared: ResourceDef['related']): { overrides: FieldOverrides; missing: string[] } {
  const out: Record<string, FieldOverride> = { ...overrides }
  const missing: string[] = []
  for (const field of fields) {
    const override = overrides[field.name]
    // sub-fields of nested objects and list rows (an asset's account rows' template): their OPTIONS hints
    const children = field.children ?? field.child?.children
    if (!field.readOnly && !override?.render && children?.length) {
      const inner = withRelatedSources(children, override?.fields ?? {}, undefined)
      out[field.name] = { ...override, fields: inner.overrides }
      missing.push(...inner.missing.map((n) => `${field.name}.${n}`))
      continue
    }
    if (field.readOnly || override?.render || !isRelatedWidget(field, override)) continue
    const source = relatedSourceFor(field, override, declared)
    if (source) {
      if (!override?.related) out[field.name] = { ...override, related: source }
    } else {
      missing.push(field.name)
    }
  }
  return { overrides: out, missing }
}

const reported = new Set<string>()

/** Says loudly (once per form and field) that a related field has no picker source. */
export function reportMissingSources(url: string, missing: readonly string[]): void {
  for (const name of missing) {
    const key = `${url}|${name}`
    if (reported.has(key)) continue
    reported.add(key)
    console.error(`Related field "${name}" of ${url} has no picker source: declare its model in the console manifest (src/views/manifest.ts)`)
  }
}
