/**
 * The import preview built from a `render-to-json` answer (console-behaviour §2.5): columns in file order
 * minus those empty in every row, widths of 10 px per character (of the header or the longest of the first
 * rows' values) clamped to 100–180 px, and rows whose secret fields (`password`, `secret`, `private_key`) are
 * encrypted once, here.
 */
import { IMPORT_SECRET_FIELDS, type RenderedFile } from '../../api/transfer.ts'
import { isEmptyValue, toDisplayText } from './cells.ts'

export interface PreviewColumn {
  field: string
  /** the header as written in the file (`*Name`) */
  label: string
  width: number
  /** encrypted before upload; shown masked */
  secret: boolean
}

export type RowFields = Record<string, unknown>

export interface Preview {
  /** every column of the file, for the failed-rows download */
  fileColumns: PreviewColumn[]
  /** the columns shown: file columns with at least one value */
  columns: PreviewColumn[]
  rows: RowFields[]
}

export const MIN_COLUMN_WIDTH = 100
export const MAX_COLUMN_WIDTH = 180

/** Rows looked at for a column's width. */
const WIDTH_SAMPLE = 100

export function columnWidth(label: string, values: readonly string[] = []): number {
  const chars = Math.max(label.length, ...values.map((v) => v.length))
  return Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, chars * 10))
}

/** The header without the required marker: the label used in error lines ("Name: …"). */
export function plainLabel(label: string): string {
  return label.replace(/^\s*\*\s*/, '')
}

export function buildPreview(rendered: RenderedFile, encrypt: (row: RowFields) => RowFields): Preview {
  const seen = new Set<string>()
  const fileColumns: PreviewColumn[] = []
  for (const [label, field] of rendered.title) {
    if (seen.has(field)) continue
    seen.add(field)
    const secret = IMPORT_SECRET_FIELDS.includes(field)
    const sample = secret ? [] : rendered.data.slice(0, WIDTH_SAMPLE).map((row) => toDisplayText(row[field]))
    fileColumns.push({ field, label, width: columnWidth(label, sample), secret })
  }
  const rows = rendered.data.map((row) => encrypt(row))
  const columns = fileColumns.filter((column) => rows.some((row) => !isEmptyValue(row[column.field])))
  return { fileColumns, columns, rows }
}
