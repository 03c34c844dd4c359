/**
 * The generic data grid: server-side sort (the grid keeps the server's order), resizable columns whose widths are
 * reported for saving, multi-selection kept across pages by the caller, a loading bar that keeps the current rows
 * in place, and an empty/error state.
 *
 * Written on plain elements with the WAI-ARIA grid roles rather than Fluent's DataGrid: on the first visit the
 * DataGrid rendered its rows three times as it mounted (its column sizing measures the container in a layout
 * effect, forcing a layout of the whole page mid-commit), and it brought Fluent's focus manager (tabster, 66 KB)
 * and the table package (28 KB) into the first screen's code. Here the widths are CSS variables on the grid, every
 * row a CSS grid of the same tracks; keyboard focus follows the grid pattern (gridFocus.ts). It looks as Fluent's
 * medium DataGrid does.
 */
import { Checkbox, makeStyles, mergeClasses, ProgressBar, tokens } from '@fluentui/react-components'
import { ArrowDownRegular, ArrowUpRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { memo, useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react'
import type { Row, RowId } from '../../api/resources.ts'
import { CELL_PADDING, SELECTION_WIDTH } from './columnFit.ts'
import { adoptTabStop, gridKey, syncTabStops } from './gridFocus.ts'

export interface DataColumn {
  id: string
  label: string
  sortable?: boolean
  render: (row: Row) => ReactNode
  /** px */
  minWidth?: number
  defaultWidth?: number
  /** stays in view at the right edge when the table scrolls sideways (the actions column) */
  sticky?: boolean
  /** 1 = a key column; larger numbers are given up first when the default columns do not fit (columnFit.ts) */
  priority?: number
}

export type SortDirection = 'ascending' | 'descending'

export interface DataTableProps {
  label: string
  columns: readonly DataColumn[]
  rows: readonly Row[]
  loading?: boolean
  /** shown instead of rows when set (rows are cleared by the caller) */
  emptyText: string
  selectable?: boolean
  selected?: ReadonlySet<RowId>
  onSelectionChange?: (next: Set<RowId>) => void
  sort?: { column: string; direction: SortDirection }
  onSortChange?: (column: string, direction: SortDirection) => void
  widths?: Readonly<Record<string, number>>
  onColumnResize?: (column: string, width: number) => void
  rowLabel?: (row: Row) => string
}

const DEFAULT_WIDTH = 150
const DEFAULT_MIN_WIDTH = 60
/**
 * A column's width is its content's, as Fluent's DataGrid counted it (the widths saved by earlier versions are
 * such): its track adds the cell's padding (2 × spacingHorizontalS). The fit of columns to the width counts the same.
 */
/** Column headers resize with these (gridFocus.ts). */
const RESIZE_KEYS = 'Shift+ArrowLeft Shift+ArrowRight'
/** Keyboard resizing reports many widths in a row: the last one is saved this long after the last key. */
const SAVE_AFTER_MS = 250

const useStyles = makeStyles({
  wrap: { position: 'relative', overflowX: 'auto', minHeight: '120px' },
  bar: { position: 'absolute', top: 0, left: 0, right: 0, zIndex: 2 },
  busy: { opacity: 0.6, transitionProperty: 'opacity', transitionDuration: tokens.durationFast },
  grid: { display: 'block', minWidth: '100%', width: 'max-content', color: tokens.colorNeutralForeground1, fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  row: {
    display: 'grid', minWidth: '100%', boxSizing: 'border-box', alignItems: 'stretch',
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  bodyRow: {
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
    ':active': { backgroundColor: tokens.colorSubtleBackgroundPressed },
  },
  selectedRow: { backgroundColor: tokens.colorSubtleBackgroundSelected },
  cell: {
    display: 'flex', alignItems: 'center', minHeight: '44px', minWidth: 0, overflow: 'hidden', boxSizing: 'border-box',
    paddingInline: tokens.spacingHorizontalS, position: 'relative',
    ':focus-visible': { outlineStyle: 'solid', outlineWidth: '2px', outlineColor: tokens.colorStrokeFocus2, outlineOffset: '-2px', borderRadius: tokens.borderRadiusMedium },
  },
  header: { fontWeight: tokens.fontWeightRegular, overflow: 'visible', minHeight: '32px' },
  selection: { justifyContent: 'center', paddingInline: 0 },
  sortButton: {
    display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, alignSelf: 'stretch', flexGrow: 1, minWidth: 0,
    padding: 0, border: 'none', backgroundColor: 'transparent', color: 'inherit', font: 'inherit', textAlign: 'start', cursor: 'pointer',
    ':hover': { color: tokens.colorNeutralForeground1Hover },
    ':focus-visible': { outlineStyle: 'solid', outlineWidth: '2px', outlineColor: tokens.colorStrokeFocus2, borderRadius: tokens.borderRadiusMedium },
  },
  headerLabel: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  sortIcon: { display: 'flex', flexShrink: 0, fontSize: '12px' },
  handle: {
    position: 'absolute', right: 0, top: 0, bottom: 0, width: '16px', margin: '0 -8px', cursor: 'col-resize', zIndex: 1,
    opacity: 0, transitionProperty: 'opacity', transitionDuration: '.2s', touchAction: 'none',
    ':hover': { opacity: 1 },
    '::after': { content: '" "', display: 'block', width: '1px', position: 'absolute', left: '50%', top: 0, bottom: 0, backgroundColor: tokens.colorNeutralStroke1 },
  },
  handleActive: { opacity: 1 },
  // the last column's handle stays inside the grid (reaching past it, it made the grid scroll by its overhang)
  handleLast: { marginRight: 0 },
  empty: {
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  sticky: {
    position: 'sticky', right: 0, zIndex: 1, backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: `-6px 0 6px -6px ${tokens.colorNeutralShadowAmbient}`,
  },
})

/** The CSS variable that holds a column's width on the grid element. */
const widthVar = (index: number) => `--bastion-col-${index}`

/**
 * A cell's content, rendered again only when its row or its column's render changes: the cells' content — links,
 * badges, the row's action buttons — is most of a row's work, and a resize or a selection change renders the rows.
 */
const CellContent = memo(function CellContent({ render, row }: { render: (row: Row) => ReactNode; row: Row }) {
  return render(row)
})

/** A column's content width: the saved one, else its default, never below its minimum. */
export function columnWidth(c: Pick<DataColumn, 'id' | 'minWidth' | 'defaultWidth'>, saved: Readonly<Record<string, number>> | undefined): number {
  return Math.max(c.minWidth ?? DEFAULT_MIN_WIDTH, saved?.[c.id] ?? c.defaultWidth ?? DEFAULT_WIDTH)
}

function widthsOf(columns: readonly DataColumn[], saved: Readonly<Record<string, number>> | undefined): number[] {
  return columns.map((c) => columnWidth(c, saved))
}

function DataTableImpl(props: DataTableProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const { columns, rows, selected, onSelectionChange, onColumnResize, widths: savedWidths, selectable } = props

  // Widths live in state (a resize is this grid's until saved) and start again from the saved ones when the
  // columns or the saved widths change.
  const initial = useMemo(() => widthsOf(columns, savedWidths), [columns, savedWidths])
  const [widths, setWidths] = useState(initial)
  const [widthsOfInitial, setWidthsOfInitial] = useState(initial)
  if (widthsOfInitial !== initial) {
    setWidthsOfInitial(initial)
    setWidths(initial)
  }
  const gridRef = useRef<HTMLDivElement>(null)

  const template = [selectable ? `${SELECTION_WIDTH}px` : '', ...columns.map((_, i) => `var(${widthVar(i)})`), 'minmax(0, 1fr)'].join(' ').trim()
  const gridStyle = useMemo(() => Object.fromEntries(widths.map((w, i) => [widthVar(i), `${w + CELL_PADDING}px`])) as CSSProperties, [widths])

  // Keyboard resizing saves its last width shortly after the last key.
  const pending = useRef(new Map<string, number>())
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const saveSoon = (column: string, width: number) => {
    pending.current.set(column, width)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      for (const [id, w] of pending.current) onColumnResize?.(id, w)
      pending.current.clear()
    }, SAVE_AFTER_MS)
  }
  const resizeTo = (index: number, width: number): number => {
    const column = columns[index]!
    const w = Math.round(Math.max(column.minWidth ?? DEFAULT_MIN_WIDTH, width))
    setWidths((list) => list.map((old, i) => (i === index ? w : old)))
    return w
  }

  // A drag sets the column's variable on the grid directly (no render per pointer move); the width is kept and
  // reported when the pointer is released.
  const [dragging, setDragging] = useState<number | null>(null)
  const drag = useRef<{ index: number; startX: number; startWidth: number; width: number } | null>(null)
  const onHandleDown = (index: number) => (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return
    e.preventDefault()
    e.currentTarget.setPointerCapture(e.pointerId)
    drag.current = { index, startX: e.clientX, startWidth: widths[index]!, width: widths[index]! }
    setDragging(index)
  }
  const onHandleMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current
    if (!d) return
    const column = columns[d.index]!
    d.width = Math.round(Math.max(column.minWidth ?? DEFAULT_MIN_WIDTH, d.startWidth + e.clientX - d.startX))
    gridRef.current?.style.setProperty(widthVar(d.index), `${d.width + CELL_PADDING}px`)
  }
  const onHandleUp = () => {
    const d = drag.current
    if (!d) return
    drag.current = null
    setDragging(null)
    if (d.width === d.startWidth) return
    resizeTo(d.index, d.width)
    onColumnResize?.(columns[d.index]!.id, d.width)
  }

  // One Tab stop for the whole grid, where the user last was (gridFocus.ts), kept as rows come and go and as cells
  // replace their widgets (a menu's trigger becomes Fluent's when its code arrives).
  const tabStop = useRef<HTMLElement | null>(null)
  useEffect(() => {
    const grid = gridRef.current
    if (!grid) return undefined
    const sync = () => {
      tabStop.current = syncTabStops(grid, tabStop.current)
    }
    sync()
    const observer = new MutationObserver(sync)
    observer.observe(grid, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [])

  const pageIds = useMemo(() => rows.map((r) => r.id), [rows])
  const selectedHere = pageIds.filter((id) => selected?.has(id))
  const setSelected = (ids: readonly RowId[], on: boolean) => {
    // The grid only knows this page: the other pages' selection stays as it is.
    const next = new Set<RowId>(selected ?? [])
    for (const id of ids) {
      if (on) next.add(id)
      else next.delete(id)
    }
    onSelectionChange?.(next)
  }
  const allState = selectedHere.length === 0 ? false : selectedHere.length === pageIds.length ? true : 'mixed'

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const grid = gridRef.current
    if (!grid || e.defaultPrevented || !(e.target instanceof HTMLElement)) return
    const result = gridKey(grid, e.target, e)
    if (!result) return
    e.preventDefault()
    if (result.focus) result.focus.focus()
    if (result.toggleRow && selectable) {
      const id = pageIds.find((rowId) => String(rowId) === result.toggleRow!.dataset.rowId)
      if (id !== undefined) setSelected([id], !selected?.has(id))
    }
    if (result.resize) {
      const index = columns.findIndex((c) => c.id === result.resize!.header.dataset.column)
      if (index >= 0) saveSoon(columns[index]!.id, resizeTo(index, widths[index]! + result.resize.by))
    }
  }

  const sortOf = (id: string) => (props.sort?.column === id ? props.sort.direction : undefined)
  const stickyClass = (c: DataColumn) => (c.sticky ? styles.sticky : undefined)

  return (
    <div className={styles.wrap} aria-busy={props.loading ? true : undefined}>
      {props.loading && <ProgressBar className={styles.bar} thickness="medium" aria-label={t`Loading`} />}
      <div
        ref={gridRef}
        role="grid"
        aria-label={props.label}
        aria-multiselectable={selectable ? true : undefined}
        className={mergeClasses(styles.grid, props.loading && styles.busy)}
        style={gridStyle}
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          if (gridRef.current) tabStop.current = adoptTabStop(gridRef.current, tabStop.current, e.target)
        }}
      >
        <div role="rowgroup">
          <div role="row" className={styles.row} style={{ gridTemplateColumns: template }}>
            {selectable && (
              <div role="columnheader" className={mergeClasses(styles.cell, styles.header, styles.selection)}>
                <Checkbox
                  checked={allState}
                  disabled={pageIds.length === 0}
                  onChange={() => setSelected(pageIds, allState !== true)}
                  aria-label={t`Select all rows on this page`}
                />
              </div>
            )}
            {columns.map((c, i) => {
              const direction = sortOf(c.id)
              const next: SortDirection = direction === 'ascending' ? 'descending' : 'ascending'
              const onSort = props.onSortChange
              return (
                <div
                  key={c.id}
                  role="columnheader"
                  data-column={c.id}
                  aria-sort={direction}
                  aria-keyshortcuts={c.sortable && props.onSortChange ? undefined : RESIZE_KEYS}
                  className={mergeClasses(styles.cell, styles.header, stickyClass(c))}
                >
                  {c.sortable && onSort ? (
                    <button type="button" className={styles.sortButton} onClick={() => onSort(c.id, next)} aria-keyshortcuts={RESIZE_KEYS}>
                      <span className={styles.headerLabel}>{c.label}</span>
                      {direction && <span className={styles.sortIcon}>{direction === 'ascending' ? <ArrowUpRegular /> : <ArrowDownRegular />}</span>}
                    </button>
                  ) : (
                    <span className={styles.headerLabel}>{c.label}</span>
                  )}
                  {/* pointer only: the keyboard resizes with Shift+Arrow on the header (gridFocus.ts) */}
                  <div
                    aria-hidden="true"
                    data-resize-handle=""
                    className={mergeClasses(styles.handle, i === columns.length - 1 && styles.handleLast, dragging === i && styles.handleActive)}
                    onPointerDown={onHandleDown(i)}
                    onPointerMove={onHandleMove}
                    onPointerUp={onHandleUp}
                    onPointerCancel={onHandleUp}
                  />
                </div>
              )
            })}
          </div>
        </div>
        <div role="rowgroup">
          {rows.map((row) => {
            const isSelected = selectable ? !!selected?.has(row.id) : undefined
            return (
              <div
                key={String(row.id)}
                role="row"
                data-row-id={String(row.id)}
                aria-selected={isSelected}
                className={mergeClasses(styles.row, styles.bodyRow, isSelected && styles.selectedRow)}
                style={{ gridTemplateColumns: template }}
              >
                {selectable && (
                  <div role="gridcell" className={mergeClasses(styles.cell, styles.selection)}>
                    <Checkbox
                      checked={!!isSelected}
                      onChange={(_, data) => setSelected([row.id], data.checked === true)}
                      aria-label={t`Select ${props.rowLabel?.(row) ?? String(row.id)}`}
                    />
                  </div>
                )}
                {columns.map((c) => (
                  <div key={c.id} role="gridcell" data-column={c.id} className={mergeClasses(styles.cell, stickyClass(c))}>
                    <CellContent render={c.render} row={row} />
                  </div>
                ))}
              </div>
            )
          })}
        </div>
      </div>
      {rows.length === 0 && <div className={styles.empty} role="status">{props.emptyText}</div>}
    </div>
  )
}

export const DataTable = memo(DataTableImpl)
