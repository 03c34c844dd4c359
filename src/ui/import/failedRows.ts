/**
 * The failed rows as a CSV the user can fix and import again: the file's headers as written plus an error
 * column, one line per failed row with its values in the file's notation. Secret cells are left empty: only
 * their ciphertext exists in the browser, and it is not for the user to read or to re-upload.
 * UTF-8 with a BOM, like the server's own CSV files (contract §4.7), so spreadsheet programs read it right.
 */
import Papa from 'papaparse'
import type { PreviewColumn, RowFields } from './preview.ts'
import { toEditText } from './cells.ts'

export interface FailedRow {
  fields: RowFields
  errors: readonly string[]
}

export function failedRowsCsv(columns: readonly PreviewColumn[], rows: readonly FailedRow[], errorHeader: string): string {
  const header = [...columns.map((c) => c.label), errorHeader]
  const data = rows.map((row) => [
    ...columns.map((c) => (c.secret ? '' : toEditText(row.fields[c.field]))),
    row.errors.join('\n'),
  ])
  return `\ufeff${Papa.unparse({ fields: header, data }, { newline: '\r\n' })}`
}

/** `users_2026-11-22_01-02-03` style base name for a download made in the browser. */
export function timestampedName(base: string, ext: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0')
  const stamp = `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}_${p(now.getHours())}-${p(now.getMinutes())}-${p(now.getSeconds())}`
  return `${base}_${stamp}.${ext}`
}
