/**
 * List state held in the URL (search, filters, sort, page, page size, date range), so refresh, back and a
 * shared link restore the list. `validateListSearch` cleans TanStack's parsed search object (called by the list hook and the route loader);
 * `decodeListState`/`encodeListState` convert between the URL and the page's state; `toApiQuery` builds the
 * list call's query (contract §1.3–1.4).
 *
 * URL keys: `page`, `size`, `search` (terms comma-joined), `order`, `date_from`, `date_to`; every other key
 * except the reserved ones is an exact field filter, sent to the API as it is.
 */
import type { Query } from '../../api/resources.ts'

/** `activeTab` and `tab` name the tab of the page the list is on (settings → terminal, sessions): kept, never filters. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['page', 'size', 'search', 'order', 'date_from', 'date_to', 'activeTab', 'tab', 'oid', 'clone_from'])

export type ListSearch = Record<string, string | number | undefined>

function positiveInt(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN
  return Number.isInteger(n) && n > 0 ? n : undefined
}

/** Keeps strings and finite numbers (TanStack parses `?x=1` as a number, `?x=true` as a boolean). */
export function validateListSearch(raw: Record<string, unknown>): ListSearch {
  const out: ListSearch = {}
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'page' || key === 'size') {
      const n = positiveInt(value)
      if (n !== undefined) out[key] = n
    } else if (typeof value === 'string') {
      if (value !== '') out[key] = value
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      out[key] = String(value)
    } else if (typeof value === 'boolean') {
      out[key] = String(value)
    }
  }
  return out
}

export interface ListState {
  page: number
  size: number
  /** free-text terms, comma-joined */
  search: string
  order?: string
  filters: Record<string, string>
  dateFrom?: string
  dateTo?: string
}

export interface ListDefaults {
  size: number
  order?: string
  /** when set, the range used when the URL has none (e.g. the last 7 days) */
  dateRange?: { from: string; to: string }
}

export function decodeListState(search: ListSearch, defaults: ListDefaults): ListState {
  const filters: Record<string, string> = {}
  for (const [key, value] of Object.entries(search)) {
    if (!RESERVED_KEYS.has(key) && value !== undefined && value !== '') filters[key] = String(value)
  }
  const state: ListState = {
    page: positiveInt(search.page) ?? 1,
    size: positiveInt(search.size) ?? defaults.size,
    search: typeof search.search === 'string' ? search.search : '',
    filters,
  }
  const order = typeof search.order === 'string' && search.order ? search.order : defaults.order
  if (order) state.order = order
  const from = typeof search.date_from === 'string' ? search.date_from : defaults.dateRange?.from
  const to = typeof search.date_to === 'string' ? search.date_to : defaults.dateRange?.to
  if (from) state.dateFrom = from
  if (to) state.dateTo = to
  return state
}

/**
 * How a filter value is put in the URL: `true`/`false` and plain numbers as JSON values, so the router writes
 * `?is_active=false` rather than `?is_active="false"`; `validateListSearch` turns them back into strings.
 */
export function urlValue(value: string): string | number | boolean {
  if (value === 'true' || value === 'false') return value === 'true'
  if (/^(0|-?[1-9]\d{0,14})$/.test(value)) return Number(value)
  return value
}

export type UrlSearch = Record<string, string | number | boolean | undefined>

/** The URL form of a state; values equal to the defaults are left out so links stay short. */
export function encodeListState(state: ListState, defaults: ListDefaults, keep: ListSearch = {}): UrlSearch {
  const out: UrlSearch = {}
  for (const key of ['activeTab', 'tab', 'oid'] as const) if (keep[key] !== undefined) out[key] = keep[key]
  for (const [k, v] of Object.entries(state.filters)) if (v !== '') out[k] = urlValue(v)
  if (state.search) out.search = state.search
  if (state.order && state.order !== defaults.order) out.order = state.order
  if (state.page > 1) out.page = state.page
  if (state.size !== defaults.size) out.size = state.size
  const range = defaults.dateRange
  if (state.dateFrom && state.dateFrom !== range?.from) out.date_from = state.dateFrom
  if (state.dateTo && state.dateTo !== range?.to) out.date_to = state.dateTo
  return out
}

export function toApiQuery(state: ListState): Query {
  return {
    ...state.filters,
    search: state.search || undefined,
    order: state.order,
    date_from: state.dateFrom,
    date_to: state.dateTo,
    limit: state.size,
    offset: (state.page - 1) * state.size,
  }
}

/** Search terms of the free-text box (comma-joined in the URL and the API). */
export function searchTerms(search: string): string[] {
  return search.split(',').map((s) => s.trim()).filter(Boolean)
}

export function joinTerms(terms: readonly string[]): string {
  return [...new Set(terms.map((s) => s.trim()).filter(Boolean))].join(',')
}

/** Anything that changes the result set starts again on page 1. */
export function withChange(state: ListState, change: Partial<Omit<ListState, 'page'>>): ListState {
  return { ...state, ...change, page: 1 }
}

/** The last page that exists for `count` rows (at least 1). */
export function lastPage(count: number, size: number): number {
  return Math.max(1, Math.ceil(count / size))
}

// ---------------------------------------------------------------------------------------------- dates

export type RangeShortcut = 'day' | 'week' | 'month' | 'quarter'
const SHORTCUT_DAYS: Record<RangeShortcut, number> = { day: 1, week: 7, month: 30, quarter: 90 }

function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate(), 0, 0, 1)
}
function endOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate(), 23, 59, 59)
}

/**
 * The spec's date shortcuts (§9): 24 hours (exactly), week, month (30 d), 3 months (90 d); the longer ones
 * run from 00:00:01 N days ago to 23:59:59 today. ISO strings, as the console sends them.
 */
export function rangeFor(shortcut: RangeShortcut, now: Date = new Date()): { from: string; to: string } {
  if (shortcut === 'day') return { from: new Date(now.getTime() - 86_400_000).toISOString(), to: now.toISOString() }
  const from = new Date(now)
  from.setDate(from.getDate() - SHORTCUT_DAYS[shortcut])
  return { from: startOfDay(from).toISOString(), to: endOfDay(now).toISOString() }
}

/** The default range: the last 7 days. */
export function defaultRange(now: Date = new Date()): { from: string; to: string } {
  return rangeFor('week', now)
}

/**
 * URL filters a page fixes rather than the user: its `hiddenFilters` and the keys it adds to every link
 * (`linkSearch`, e.g. the roles list's `scope`), which come back on the list after a create or an edit and must
 * not show up as removable search tags (issue 17).
 */
export function pageFixedFilters(config: { hiddenFilters?: readonly string[]; linkSearch?: Readonly<Record<string, string>> }): string[] {
  return [...new Set([...(config.hiddenFilters ?? []), ...Object.keys(config.linkSearch ?? {})])]
}
