/**
 * One page of the import preview: a status column, then the file's columns as editable cells (committed on
 * blur or Enter; Escape restores). Secret cells never show their value: typing replaces it. A failed row shows
 * its "Column: message" lines under the status, with the full text in a tooltip.
 */
import { memo, useState, type KeyboardEvent, type ReactElement } from 'react'
import { t } from '@lingui/core/macro'
import {
  Input, makeStyles, mergeClasses, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens,
} from '@fluentui/react-components'
import { Tooltip } from '../common/overlays.tsx'
import { CheckmarkCircleFilled, CircleRegular, ErrorCircleFilled } from '@fluentui/react-icons'
import { toEditText } from './cells.ts'
import type { PreviewColumn, RowFields } from './preview.ts'

export type RowState = 'pending' | 'running' | 'ok' | 'error'

export interface PreviewRowView {
  /** index in the whole import (0-based) */
  index: number
  fields: RowFields
  state: RowState
  errors: readonly string[]
}

export interface PreviewTableProps {
  columns: readonly PreviewColumn[]
  rows: readonly PreviewRowView[]
  editable: boolean
  onEdit: (index: number, field: string, text: string) => void
}

const STATUS_WIDTH = 220

const useStyles = makeStyles({
  wrap: { overflowX: 'auto', maxHeight: '52vh', overflowY: 'auto', border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  table: { tableLayout: 'fixed' },
  head: { position: 'sticky', top: 0, zIndex: 1, backgroundColor: tokens.colorNeutralBackground1 },
  status: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'flex-start', paddingBlock: tokens.spacingVerticalXS, lineHeight: tokens.lineHeightBase300 },
  icon: { flexShrink: 0, fontSize: '16px', marginTop: '2px' },
  statusText: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  errorLine: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200, overflowWrap: 'anywhere' },
  ok: { color: tokens.colorPaletteGreenForeground1 },
  bad: { color: tokens.colorPaletteRedForeground1 },
  input: { width: '100%', minWidth: 0 },
  rowError: { backgroundColor: tokens.colorPaletteRedBackground1 },
})

function StatusCell({ row }: { row: PreviewRowView }): ReactElement {
  const styles = useStyles()
  if (row.state === 'running') {
    return <div className={styles.status}><Spinner size="extra-tiny" /><span>{t`Importing…`}</span></div>
  }
  if (row.state === 'ok') {
    return <div className={styles.status}><CheckmarkCircleFilled className={mergeClasses(styles.icon, styles.ok)} aria-hidden /><span>{t`Success`}</span></div>
  }
  if (row.state === 'error') {
    const lines = row.errors.length > 0 ? row.errors : [t`Failed`]
    return (
      <Tooltip content={<div>{lines.map((line, i) => <div key={i}>{line}</div>)}</div>} relationship="description" withArrow>
        <div className={styles.status} tabIndex={0}>
          <ErrorCircleFilled className={mergeClasses(styles.icon, styles.bad)} aria-hidden />
          <div className={styles.statusText}>
            <span>{t`Failed`}</span>
            {lines.map((line, i) => <span key={i} className={styles.errorLine}>{line}</span>)}
          </div>
        </div>
      </Tooltip>
    )
  }
  return <div className={styles.status}><CircleRegular className={styles.icon} aria-hidden /><span>{t`Pending`}</span></div>
}

interface CellProps {
  column: PreviewColumn
  value: unknown
  rowNumber: number
  editable: boolean
  onCommit: (text: string) => void
}

const EditableCell = memo(function EditableCell({ column, value, rowNumber, editable, onCommit }: CellProps): ReactElement {
  const styles = useStyles()
  const original = column.secret ? '' : toEditText(value)
  const [draft, setDraft] = useState(original)
  const [prevOriginal, setPrevOriginal] = useState(original)
  if (prevOriginal !== original) {
    setPrevOriginal(original)
    setDraft(original)
  }
  const commit = () => {
    if (draft !== original && !(column.secret && draft === '')) onCommit(draft)
    if (column.secret) setDraft('')
  }
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commit()
    if (e.key === 'Escape' && draft !== original) {
      e.stopPropagation()
      setDraft(original)
    }
  }
  const hasSecret = column.secret && typeof value === 'string' && value !== ''
  return (
    <Input
      className={styles.input}
      appearance="underline"
      size="small"
      type={column.secret ? 'password' : 'text'}
      autoComplete="off"
      aria-label={t`${column.label}, row ${rowNumber}`}
      placeholder={hasSecret ? t`(hidden)` : undefined}
      value={draft}
      readOnly={!editable}
      onChange={(_, data) => setDraft(data.value)}
      onBlur={commit}
      onKeyDown={onKeyDown}
    />
  )
})

export function PreviewTable({ columns, rows, editable, onEdit }: PreviewTableProps): ReactElement {
  const styles = useStyles()
  const width = STATUS_WIDTH + columns.reduce((sum, c) => sum + c.width, 0)
  return (
    <div className={styles.wrap}>
      <Table className={styles.table} size="small" aria-label={t`Rows to import`} style={{ width: `${width}px` }}>
        <TableHeader className={styles.head}>
          <TableRow>
            <TableHeaderCell style={{ width: `${STATUS_WIDTH}px` }}>{t`Status`}</TableHeaderCell>
            {columns.map((c) => (
              <TableHeaderCell key={c.field} style={{ width: `${c.width}px` }}>{c.label}</TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.index} className={mergeClasses(row.state === 'error' && styles.rowError)} data-row={row.index + 1} data-state={row.state}>
              <TableCell><StatusCell row={row} /></TableCell>
              {columns.map((c) => (
                <TableCell key={c.field}>
                  <EditableCell
                    column={c}
                    value={row.fields[c.field]}
                    rowNumber={row.index + 1}
                    editable={editable}
                    onCommit={(text) => onEdit(row.index, c.field, text)}
                  />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}
