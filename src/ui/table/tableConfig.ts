/**
 * Per-table settings in localStorage (console-behaviour §2.3): `tableConfig` holds one object keyed by table,
 * each `{showColumns, columnWidths}`; the page size is the global `paginationSize` (mirrored into
 * `tableConfig.paginationSize` as the reference does).
 */

export const TABLE_CONFIG_KEY = 'tableConfig'
export const PAGE_SIZE_KEY = 'paginationSize'
export const PAGE_SIZES = [15, 30, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 15

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/** `<routeName>_<API path with UUIDs as *>` (query dropped), e.g. `UserList_/api/v1/users/users/`. */
export function tableKey(routeName: string, apiUrl: string): string {
  const path = (apiUrl.split('?')[0] ?? '').replace(/^https?:\/\/[^/]+/, '')
  return `${routeName}_${path.replace(UUID, '*')}`
}

export interface TableSettings {
  showColumns?: string[]
  columnWidths?: Record<string, number>
}

type Store = Record<string, unknown>

function readStore(): Store {
  try {
    const raw = localStorage.getItem(TABLE_CONFIG_KEY)
    const parsed: unknown = raw ? JSON.parse(raw) : {}
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Store) : {}
  } catch {
    return {}
  }
}

function writeStore(store: Store): void {
  try {
    localStorage.setItem(TABLE_CONFIG_KEY, JSON.stringify(store))
  } catch {
    // storage full or disabled: settings simply are not remembered
  }
}

export function readTableSettings(key: string): TableSettings {
  const entry = readStore()[key]
  if (typeof entry !== 'object' || entry === null) return {}
  const { showColumns, columnWidths } = entry as TableSettings
  const out: TableSettings = {}
  if (Array.isArray(showColumns) && showColumns.every((c) => typeof c === 'string')) out.showColumns = showColumns
  if (columnWidths && typeof columnWidths === 'object') {
    out.columnWidths = Object.fromEntries(Object.entries(columnWidths).filter(([, w]) => typeof w === 'number' && w > 0))
  }
  return out
}

/** Merges into the table's entry; a `null` value removes that setting (restore default). */
export function writeTableSettings(key: string, patch: { [K in keyof TableSettings]?: TableSettings[K] | null }): void {
  const store = readStore()
  const entry = { ...((store[key] as TableSettings | undefined) ?? {}) } as Record<string, unknown>
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete entry[k]
    else if (v !== undefined) entry[k] = v
  }
  store[key] = entry
  writeStore(store)
}

export function readPageSize(): number {
  try {
    const n = Number(localStorage.getItem(PAGE_SIZE_KEY))
    return (PAGE_SIZES as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE
  } catch {
    return DEFAULT_PAGE_SIZE
  }
}

export function writePageSize(size: number): void {
  try {
    localStorage.setItem(PAGE_SIZE_KEY, String(size))
    const store = readStore()
    store.paginationSize = size
    writeStore(store)
  } catch {
    // not remembered
  }
}

/**
 * Visible columns, in the table's own order: the saved choice (or the default set, or every column), always
 * including the minimum set; names that no longer exist are ignored.
 */
export function visibleColumns(all: readonly string[], opts: { min?: readonly string[]; defaults?: readonly string[]; saved?: readonly string[] }): string[] {
  const min = new Set(opts.min ?? ['actions', 'id'])
  const chosen = new Set(opts.saved ?? opts.defaults ?? all)
  return all.filter((c) => chosen.has(c) || min.has(c))
}
