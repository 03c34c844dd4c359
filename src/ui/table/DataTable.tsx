/**
 * The generic data grid: Fluent DataGrid with server-side sort (the grid keeps the server's order), resizable
 * columns whose widths are reported for saving, multi-selection kept across pages by the caller, a loading
 * bar that keeps the current rows in place, and an empty/error state.
 */
import {
  createTableColumn, DataGrid, DataGridBody, DataGridCell, DataGridHeader, DataGridHeaderCell, DataGridRow, makeStyles, mergeClasses,
  ProgressBar, tokens, type DataGridProps, type TableColumnDefinition, type TableColumnSizingOptions, type TableRowId,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { memo, useEffect, useMemo, useRef, type ReactNode } from 'react'
import type { Row, RowId } from '../../api/resources.ts'

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

const useStyles = makeStyles({
  wrap: { position: 'relative', overflowX: 'auto', minHeight: '120px' },
  bar: { position: 'absolute', top: 0, left: 0, right: 0, zIndex: 1 },
  busy: { opacity: 0.6, transitionProperty: 'opacity', transitionDuration: tokens.durationFast },
  empty: {
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  cell: { minWidth: 0 },
  sticky: {
    position: 'sticky', right: 0, zIndex: 1, backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: `-6px 0 6px -6px ${tokens.colorNeutralShadowAmbient}`,
  },
})

const keepOrder = (_a: Row, _b: Row) => 0

/**
 * A cell's content, rendered again only when its row or its column's render changes: Fluent's grid renders all its
 * rows three times as it mounts (its column sizing measures the container and settles its state in layout
 * effects), and the cells' content — links, badges, the row's action buttons — is most of a row's work.
 */
const CellContent = memo(function CellContent({ render, row }: { render: (row: Row) => ReactNode; row: Row }) {
  return render(row)
})

function DataTableImpl(props: DataTableProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const { columns, rows, selected, onSelectionChange, onColumnResize, widths } = props

  const definitions = useMemo<TableColumnDefinition<Row>[]>(
    () => columns.map((c) => createTableColumn<Row>({
      columnId: c.id,
      ...(c.sortable ? { compare: keepOrder } : {}),
      renderHeaderCell: () => c.label,
      renderCell: (row: Row) => <CellContent render={c.render} row={row} />,
    })),
    [columns],
  )

  const sizing = useMemo<TableColumnSizingOptions>(() => {
    const out: TableColumnSizingOptions = {}
    for (const c of columns) {
      const saved = widths?.[c.id]
      const ideal = saved ?? c.defaultWidth ?? 150
      out[c.id] = { minWidth: c.minWidth ?? 60, idealWidth: ideal, defaultWidth: ideal }
    }
    return out
  }, [columns, widths])

  // Resizing reports many widths per drag: save the last one shortly after the drag stops.
  const pending = useRef(new Map<string, number>())
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const onResize: DataGridProps['onColumnResize'] = (_e, data) => {
    pending.current.set(String(data.columnId), Math.round(data.width))
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      for (const [id, w] of pending.current) onColumnResize?.(id, w)
      pending.current.clear()
    }, 250)
  }

  const stickyIds = useMemo(() => new Set(columns.filter((c) => c.sticky).map((c) => c.id)), [columns])
  const pageIds = useMemo(() => rows.map((r) => r.id), [rows])
  const selectedHere = useMemo(() => new Set<TableRowId>(pageIds.filter((id) => selected?.has(id))), [pageIds, selected])

  const onSelect: DataGridProps['onSelectionChange'] = (e, data) => {
    // A click selects only through the checkboxes: the grid toggles on any click in a row (a cell, a link, the "…"
    // button), which silently changed what bulk actions act on. Space on a focused row still toggles it.
    if (e.type === 'click' && !(e.target instanceof Element && e.target.closest('.fui-TableSelectionCell'))) return
    // The grid only knows this page: keep the other pages' selection as it is.
    const next = new Set<RowId>([...(selected ?? [])].filter((id) => !pageIds.includes(id)))
    for (const id of data.selectedItems) next.add(id as RowId)
    onSelectionChange?.(next)
  }

  const sortState = props.sort ? { sortColumn: props.sort.column, sortDirection: props.sort.direction } : undefined

  return (
    <div className={styles.wrap} aria-busy={props.loading ? true : undefined}>
      {props.loading && <ProgressBar className={styles.bar} thickness="medium" aria-label={t`Loading`} />}
      <DataGrid
        className={props.loading ? styles.busy : undefined}
        aria-label={props.label}
        items={rows as Row[]}
        columns={definitions}
        getRowId={(row: Row) => row.id}
        focusMode="composite"
        sortable={!!props.onSortChange}
        sortState={sortState ?? { sortColumn: undefined, sortDirection: 'ascending' }}
        onSortChange={(_e, s) => s.sortColumn !== undefined && props.onSortChange?.(String(s.sortColumn), s.sortDirection)}
        selectionMode={props.selectable ? 'multiselect' : undefined}
        selectedItems={selectedHere}
        onSelectionChange={onSelect}
        resizableColumns
        // Widening a column scrolls the table sideways instead of squeezing its neighbours.
        resizableColumnsOptions={{ autoFitColumns: false }}
        columnSizingOptions={sizing}
        onColumnResize={onResize}
      >
        <DataGridHeader>
          <DataGridRow selectionCell={props.selectable ? { checkboxIndicator: { 'aria-label': t`Select all rows on this page` } } : undefined}>
            {({ renderHeaderCell, columnId }) => (
              <DataGridHeaderCell data-column={String(columnId)} className={stickyIds.has(String(columnId)) ? styles.sticky : undefined}>{renderHeaderCell()}</DataGridHeaderCell>
            )}
          </DataGridRow>
        </DataGridHeader>
        <DataGridBody<Row>>
          {({ item, rowId }) => (
            <DataGridRow<Row>
              key={rowId}
              data-row-id={String(rowId)}
              selectionCell={props.selectable ? { checkboxIndicator: { 'aria-label': t`Select ${props.rowLabel?.(item) ?? String(rowId)}` } } : undefined}
            >
              {({ renderCell, columnId }) => (
                <DataGridCell className={stickyIds.has(String(columnId)) ? mergeClasses(styles.cell, styles.sticky) : styles.cell} data-column={String(columnId)}>{renderCell(item)}</DataGridCell>
              )}
            </DataGridRow>
          )}
        </DataGridBody>
      </DataGrid>
      {rows.length === 0 && <div className={styles.empty} role="status">{props.emptyText}</div>}
    </div>
  )
}

export const DataTable = memo(DataTableImpl)
