/**
 * Search-box filters from the GET metadata (spec §3 "filter option"): fields marked `filter`, each with the
 * values it offers — its choices, Yes/No for booleans, or free text. Pure.
 */
import type { FieldMeta } from '../../api/metadata.ts'

export interface FilterOption {
  name: string
  label: string
  /** undefined: free text */
  values?: { value: string; label: string }[]
}

export function filterOptions(fields: readonly FieldMeta[], labels: { yes: string; no: string }, exclude: readonly string[] = []): FilterOption[] {
  const out: FilterOption[] = []
  for (const f of fields) {
    if (!f.filter || exclude.includes(f.name)) continue
    if (f.type === 'boolean') out.push({ name: f.name, label: f.label, values: [{ value: 'true', label: labels.yes }, { value: 'false', label: labels.no }] })
    else if (f.choices && f.choices.length > 0) out.push({ name: f.name, label: f.label, values: f.choices.map((c) => ({ value: String(c.value), label: c.label })) })
    else out.push({ name: f.name, label: f.label })
  }
  return out
}

/** "Label: value label" for a filter tag; unknown filters show their raw key and value. */
export function filterTagText(options: readonly FilterOption[], name: string, value: string): string {
  const option = options.find((o) => o.name === name)
  const valueLabel = option?.values?.find((v) => v.value === value)?.label ?? value
  return `${option?.label ?? name}: ${valueLabel}`
}
