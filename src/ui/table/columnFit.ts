/**
 * Which of a list's default columns fit its width (issue 35): every column has a priority (1 = key, shown whenever
 * anything is; larger = given up first), declared per resource or guessed from the field; the list starts from its
 * default set and drops the least important columns until the row fits, so the table does not scroll sideways and
 * the sticky actions column never covers a column. What does not fit stays in the column settings, unticked; a
 * user's own choice of columns is shown as chosen (the table then scrolls inside itself). Pure.
 */

/** A column as the fit sees it: its id, its content width (px, without the cell's padding) and its priority. */
export interface FitColumn {
  id: string
  width: number
  priority: number
}

/** The key columns of a list: always among the defaults shown, at any width (a narrow table scrolls inside itself). */
export const KEY_PRIORITY = 1
/** A column nothing says anything about. */
export const DEFAULT_PRIORITY = 3
/** Dates of record keeping, authors, organisation columns: useful, not first. */
export const LOW_PRIORITY = 5
/** A raw identifier (a UUID) or a free comment: the first to go. */
export const LAST_PRIORITY = 8

/** A cell's horizontal padding (DataTable's 2 × spacingHorizontalS): a column takes its width plus this. */
export const CELL_PADDING = 16
/** The selection checkbox column's track. */
export const SELECTION_WIDTH = 44

/** A row's state (status, load, connectivity, on/off): what a list is read for, kept before other columns. */
export const STATE_PRIORITY = 2
const STATE_NAMES = new Set(['status', 'state', 'load', 'is_alive', 'connectivity', 'enabled', 'is_valid'])
const LOW_NAMES = new Set(['date_created', 'date_updated', 'created_by', 'updated_by', 'org_id', 'org_name', 'date_joined', 'date_expired', 'date_start', 'date_finished'])

/**
 * The priority of a column no declaration names: its name and formatter say something. `name` (the detail link)
 * is key; an `id` or a comment is the first to go; record-keeping dates and authors come after the rest.
 */
export function guessPriority(id: string, kind?: string): number {
  if (kind === 'detailLink') return KEY_PRIORITY
  if (id === 'id' || id === 'comment' || kind === 'longText') return LAST_PRIORITY
  if (LOW_NAMES.has(id)) return LOW_PRIORITY
  if (STATE_NAMES.has(id)) return STATE_PRIORITY
  return DEFAULT_PRIORITY
}

/** The width a row of these columns takes in the grid (content widths, paddings and the selection column). */
export function rowWidth(columns: readonly Pick<FitColumn, 'width'>[], selectable: boolean): number {
  return (selectable ? SELECTION_WIDTH : 0) + columns.reduce((sum, c) => sum + c.width + CELL_PADDING, 0)
}

/**
 * The ids of `columns` (in their order) that fit in `available` px: key columns and those of the `keep` set are
 * never dropped; the others go, the largest priority number first and, among equals, the right-most first, until
 * the row fits or only kept columns remain (a row of those alone may still be wider: the table scrolls then).
 */
export function fitColumns(columns: readonly FitColumn[], available: number, opts: { keep?: ReadonlySet<string> | readonly string[]; selectable?: boolean } = {}): string[] {
  const keep = new Set(opts.keep ?? [])
  const shown = [...columns]
  let width = rowWidth(shown, opts.selectable ?? false)
  while (width > available) {
    let drop = -1
    for (let i = 0; i < shown.length; i++) {
      const c = shown[i]!
      if (keep.has(c.id) || c.priority <= KEY_PRIORITY) continue
      if (drop < 0 || c.priority >= shown[drop]!.priority) drop = i
    }
    if (drop < 0) break
    width -= shown[drop]!.width + CELL_PADDING
    shown.splice(drop, 1)
  }
  return shown.map((c) => c.id)
}
