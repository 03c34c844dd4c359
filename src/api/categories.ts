import { request } from './client.ts'

/** Asset categories and their types (contract §4.4). */
export interface AssetType {
  value: string
  label: string
  category: string
  constraints: Record<string, unknown>
}
export interface AssetCategory {
  value: string
  label: string
  types: AssetType[]
}

export const CATEGORIES_URL = '/api/v1/assets/categories/'

export function parseCategories(raw: unknown): AssetCategory[] {
  if (!Array.isArray(raw)) return []
  return raw.flatMap((c) => {
    const o = (c ?? {}) as Record<string, unknown>
    if (typeof o.value !== 'string') return []
    const types = (Array.isArray(o.types) ? o.types : []).flatMap((t) => {
      const x = (t ?? {}) as Record<string, unknown>
      if (typeof x.value !== 'string') return []
      return [{
        value: x.value,
        label: typeof x.label === 'string' ? x.label : x.value,
        category: typeof x.category === 'string' ? x.category : o.value as string,
        constraints: x.constraints && typeof x.constraints === 'object' ? (x.constraints as Record<string, unknown>) : {},
      }]
    })
    return [{ value: o.value, label: typeof o.label === 'string' ? o.label : o.value, types }]
  })
}

export async function fetchCategories(signal?: AbortSignal): Promise<AssetCategory[]> {
  return parseCategories(await request('get', CATEGORIES_URL, { signal }))
}

/** Cascader options: category → types (spec 000 §3). */
export function categoryCascader(categories: readonly AssetCategory[]) {
  return categories.map((c) => ({ value: c.value, label: c.label, children: c.types.map((t) => ({ value: t.value, label: t.label })) }))
}

/** Grouped dropdown entries: one per type, with its category (spec 000 §3: name, title, category). */
export function categoryDropdown(categories: readonly AssetCategory[]) {
  return categories.flatMap((c) => c.types.map((t) => ({ name: t.value, title: t.label, category: c.value, categoryLabel: c.label })))
}
