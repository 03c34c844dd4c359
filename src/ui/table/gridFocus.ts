/**
 * Keyboard focus in a data grid (WAI-ARIA grid pattern), kept in the DOM rather than in React state: the grid is
 * one stop of the Tab sequence, and the arrow keys move between its focus stops. A cell's stops are its widgets
 * (links, buttons, checkboxes, fields), each reachable by the arrow keys without an "enter the cell" mode, or the
 * cell itself when it holds none. Exactly one stop has `tabindex="0"`: the last one focused (the first of the
 * grid until then), so Tab leaves the grid and Shift+Tab comes back to where the user was.
 *
 * Works on any element with `role="grid"` whose rows (`role="row"`) hold `gridcell` / `columnheader` cells; knows
 * nothing of what the rows are.
 */

const CELL = '[role="gridcell"], [role="columnheader"]'
const WIDGET = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])'
/** Widgets that use the arrow keys themselves while focused. */
const OWNS_ARROWS = 'input:not([type="checkbox"]):not([type="radio"]), select, textarea, [contenteditable="true"]'
/** Rows moved by Page Up / Page Down. */
const PAGE_ROWS = 10

function rowsOf(grid: HTMLElement): HTMLElement[] {
  return [...grid.querySelectorAll<HTMLElement>('[role="row"]')].filter((row) => row.closest('[role="grid"]') === grid)
}

function cellsOf(row: HTMLElement): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>(CELL)].filter((cell) => cell.closest('[role="row"]') === row)
}

function stopsOfCell(cell: HTMLElement): HTMLElement[] {
  const widgets = [...cell.querySelectorAll<HTMLElement>(WIDGET)]
  return widgets.length ? widgets : [cell]
}

function stopsOfRow(row: HTMLElement): HTMLElement[] {
  return cellsOf(row).flatMap(stopsOfCell)
}

/** The cell of a stop, when the stop belongs to this grid. */
function cellOf(grid: HTMLElement, stop: Element): HTMLElement | undefined {
  const cell = stop.closest<HTMLElement>(CELL)
  return cell && cell.closest('[role="grid"]') === grid ? cell : undefined
}

function isStop(grid: HTMLElement, element: Element): element is HTMLElement {
  const cell = cellOf(grid, element)
  return !!cell && stopsOfCell(cell).includes(element as HTMLElement)
}

/**
 * Makes every stop of the grid leave the Tab sequence but `current` (when it is still one of the grid's stops),
 * else the grid's first stop; returns the stop that keeps `tabindex="0"`. Run after every render that may have
 * added or removed rows or widgets.
 */
export function syncTabStops(grid: HTMLElement, current: HTMLElement | null): HTMLElement | null {
  let keep: HTMLElement | null = current && grid.contains(current) && isStop(grid, current) ? current : null
  for (const row of rowsOf(grid)) {
    for (const cell of cellsOf(row)) {
      const stops = stopsOfCell(cell)
      if (stops[0] !== cell) cell.removeAttribute('tabindex')
      for (const stop of stops) {
        keep ??= stop
        stop.tabIndex = stop === keep ? 0 : -1
      }
    }
  }
  return keep
}

/** Moves the single Tab stop to `stop` (a focus that arrived by pointer or by script). */
export function adoptTabStop(grid: HTMLElement, previous: HTMLElement | null, stop: Element): HTMLElement | null {
  if (!isStop(grid, stop)) return previous
  if (previous && previous !== stop) previous.tabIndex = -1
  stop.tabIndex = 0
  return stop
}

export interface GridKeyResult {
  /** the stop to focus, when the key moved */
  focus?: HTMLElement
  /** Space on a body row's cell: that row (the caller toggles its selection) */
  toggleRow?: HTMLElement
  /** Shift+Arrow on a column header: that header and the change of width (px) */
  resize?: { header: HTMLElement; by: number }
}

/** Resize step of Shift+Arrow on a column header (px). */
export const RESIZE_STEP = 10

/**
 * What a key pressed on `target` inside `grid` does, or undefined when the grid leaves it alone (a key it does
 * not use, a field that uses the arrows itself, a target outside its cells).
 */
export function gridKey(grid: HTMLElement, target: HTMLElement, key: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): GridKeyResult | undefined {
  const cell = cellOf(grid, target)
  if (!cell || key.altKey) return undefined
  const row = cell.closest<HTMLElement>('[role="row"]')!
  if (key.shiftKey) {
    if (cell.getAttribute('role') !== 'columnheader' || !cell.querySelector('[data-resize-handle]')) return undefined
    if (key.key === 'ArrowLeft') return { resize: { header: cell, by: -RESIZE_STEP } }
    if (key.key === 'ArrowRight') return { resize: { header: cell, by: RESIZE_STEP } }
    return undefined
  }
  if (target !== cell && target.matches(OWNS_ARROWS)) return undefined
  if (key.key === ' ' && target === cell) return cell.getAttribute('role') === 'gridcell' ? { toggleRow: row } : undefined
  const rows = rowsOf(grid)
  const r = rows.indexOf(row)
  const rowStops = stopsOfRow(row)
  const at = rowStops.indexOf(target)
  const ctrl = key.ctrlKey || key.metaKey
  // Up and down keep the column, and the position among the cell's widgets where the other cell has as many.
  const sameColumnIn = (other: HTMLElement | undefined): HTMLElement | undefined => {
    if (!other) return undefined
    const cells = cellsOf(other)
    const to = cells[Math.min(cellsOf(row).indexOf(cell), cells.length - 1)]
    if (!to) return undefined
    const stops = stopsOfCell(to)
    return stops[Math.min(Math.max(0, stopsOfCell(cell).indexOf(target)), stops.length - 1)]
  }
  let focus: HTMLElement | undefined
  switch (key.key) {
    case 'ArrowRight': focus = rowStops[at + 1]; break
    case 'ArrowLeft': focus = at > 0 ? rowStops[at - 1] : undefined; break
    case 'ArrowDown': focus = sameColumnIn(rows[r + 1]); break
    case 'ArrowUp': focus = sameColumnIn(rows[r - 1]); break
    case 'PageDown': focus = sameColumnIn(rows[Math.min(rows.length - 1, r + PAGE_ROWS)]); break
    case 'PageUp': focus = sameColumnIn(rows[Math.max(0, r - PAGE_ROWS)]); break
    case 'Home': focus = ctrl ? stopsOfRow(rows[0]!)[0] : rowStops[0]; break
    case 'End': focus = ctrl ? stopsOfRow(rows[rows.length - 1]!).at(-1) : rowStops.at(-1); break
    default: return undefined
  }
  return focus && focus !== target ? { focus } : {}
}
