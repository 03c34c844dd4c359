/**
 * Export scope rules (spec 000 §4.4, §5; console-behaviour §2.6):
 * - the list's filters are its query minus paging, the date range, ordering and the reference's
 *   `draw`/`display` markers (the reference also counts `order` as a filter, so sorting a list disabled
 *   "all" — fixed);
 * - "all" is offered only when no filter is active, "selected" needs a selected row, "filtered" needs a filter
 *   (the export-flow machine's `isScopeEnabled`);
 * - the query sent: "all" drops the filters and the date range; "filtered" keeps the list query (date range
 *   included: the file holds what the list shows); "selected" sends the rows' spm (and the ordering).
 *   Paging (`limit`, `offset`) is never sent.
 */

import type { ExportScope } from '../../../machines/export-flow/export-flow.types.ts'

export type ListQuery = Readonly<Record<string, string | number | boolean | null | undefined>>

const NOT_FILTERS = new Set(['limit', 'offset', 'date_from', 'date_to', 'order', 'draw', 'display'])
const PAGING = new Set(['limit', 'offset', 'draw', 'display'])

const present = (value: unknown) => value !== undefined && value !== null && value !== ''

/** The active filters of a list query. */
export function listFilters(query: ListQuery): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(query)) {
    if (!NOT_FILTERS.has(key) && present(value)) out[key] = String(value)
  }
  return out
}

/** The list has active filters (the export flow's `hasFilters`). */
export function hasFilters(query: ListQuery): boolean {
  return Object.keys(listFilters(query)).length > 0
}

/** The export query of a scope (without `format`); `spm` is required for "selected". */
export function exportQuery(scope: ExportScope, query: ListQuery, spm?: string): Record<string, string> {
  const order: Record<string, string> = present(query.order) ? { order: String(query.order) } : {}
  if (scope === 'all') return order
  if (scope === 'selected') return spm ? { ...order, spm } : order
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(query)) {
    if (!PAGING.has(key) && present(value)) out[key] = String(value)
  }
  return out
}
