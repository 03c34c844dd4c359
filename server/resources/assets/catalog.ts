/**
 * The asset catalogue as the assets module uses it, derived from the one source of categories, types and
 * constraints (server/startup/categories-data.ts, served by server/startup/categories.ts): which protocols a type
 * offers, the automation defaults of a platform and the automation methods.
 */
import { CATEGORIES as CATEGORY_DEFS, AUTOMATION_ITEMS, PROTOCOLS as PROTOCOL_DEFS, type AutomationItem, type CategoryDef, type TypeDef } from '../../startup/categories-data.ts'
import { constraintsOf } from '../../startup/categories.ts'
import type { Lang } from '../../http/request-context.ts'
import { tr } from '../../i18n.ts'

export type Category = 'host' | 'device' | 'database' | 'cloud' | 'web' | 'custom'
export { AUTOMATION_ITEMS, type AutomationItem }

export const CATEGORIES = CATEGORY_DEFS.map((c) => c.value as Category)
export const CATEGORY_LABELS = Object.fromEntries(CATEGORY_DEFS.map((c) => [c.value, c.label])) as Record<Category, string>

/** Every built-in type (custom types are whatever custom platforms name; `custom` is the usual one). */
export const TYPES: Array<{ value: string; label: string; category: Category }> = [
  ...CATEGORY_DEFS.flatMap((c) => c.types.map((t) => ({ value: t.value, label: t.label, category: c.value as Category }))),
  { value: 'custom', label: 'Custom', category: 'custom' },
]

export interface TypeSpec {
  category: Category
  type: string
  /** Protocol names the type offers (custom: any). */
  protocols: string[] | 'any'
  /** The type's protocols must be set (databases, k8s, web). */
  required: boolean
  su_methods: string[]
  constraints: Record<string, unknown>
}

export const PROTOCOLS = PROTOCOL_DEFS

export function typeSpec(category: string, type: string, lang: Lang = 'en'): TypeSpec | undefined {
  const cat = CATEGORY_DEFS.find((c) => c.value === category)
  if (!cat) return undefined
  const def: TypeDef | undefined = category === 'custom' ? (type ? { value: type, label: type, protocols: [] } : undefined) : cat.types.find((t) => t.value === type)
  if (!def) return undefined
  const constraints = constraintsOf(cat, def, lang)
  return {
    category: category as Category, type, protocols: category === 'custom' ? 'any' : def.protocols, required: !!def.required,
    su_methods: (constraints.su_methods as string[]) ?? [], constraints,
  }
}

/** The automation a new platform of a type starts with: each item's switch and first method. */
export function automationDefaults(category: string, type: string): Record<string, unknown> {
  const spec = typeSpec(category, type)
  const a = (spec?.constraints.automation ?? {}) as Record<string, unknown>
  const out: Record<string, unknown> = { ansible_enabled: !!a.ansible_enabled, ansible_config: a.ansible_config ?? {} }
  for (const item of AUTOMATION_ITEMS) {
    const on = !!a[`${item}_enabled`]
    out[`${item}_enabled`] = on
    out[`${item}_method`] = on ? ((a[`${item}_methods`] as Array<{ id: string }> | undefined)?.[0]?.id ?? null) : null
    out[`${item}_params`] = {}
  }
  return out
}

export interface AutomationMethod { id: string; name: string; method: AutomationItem; category: Category[]; type: string[] }

/** Every automation method (`/assets/platform-automation-methods/`), names translated. */
export function automationMethods(lang: Lang = 'en'): AutomationMethod[] {
  const out = new Map<string, AutomationMethod>()
  for (const cat of CATEGORY_DEFS as readonly CategoryDef[]) {
    for (const t of cat.types) {
      const a = constraintsOf(cat, t, lang).automation as Record<string, unknown>
      for (const item of AUTOMATION_ITEMS) {
        for (const m of (a[`${item}_methods`] as Array<{ id: string; name: string }> | undefined) ?? []) {
          const entry = out.get(m.id) ?? { id: m.id, name: m.name, method: item, category: [], type: [] }
          if (!entry.category.includes(cat.value as Category)) entry.category.push(cat.value as Category)
          if (!entry.type.includes(t.value)) entry.type.push(t.value)
          out.set(m.id, entry)
        }
      }
    }
  }
  return [...out.values()]
}

export const categoryLabel = (lang: Lang, c: string) => tr(lang, CATEGORY_LABELS[c as Category] ?? c)
