/** Types of the importTask machine (spec §4.3, contract §2.5). */

/** `pending`, `ok`, or the row's error lines ("Column: message", flattened by the API layer). */
export type RowStatus = 'pending' | 'ok' | { error: readonly string[] }

export interface ImportRow {
  /** Row key in the preview table. */
  id: string
  /** The row object as rendered by `render-to-json` (secret fields already encrypted). */
  data: Readonly<Record<string, unknown>>
  status: RowStatus
}

export type ImportMode = 'create' | 'update'
export type ImportTaskStatus = 'pending' | 'started' | 'stopped' | 'done'

export interface ImportTaskInput {
  rows: readonly ImportRow[]
  mode: ImportMode
  /** Restored after a page reload (from `persist`): starts in `stopped` (or `done` when nothing is left to do). */
  resumed?: boolean
  /** Preview page size; default 10 (spec §4.3). */
  pageSize?: number
}

/** Payload of `persist`: enough to rebuild the task after a reload. */
export interface PersistedImportTask {
  rows: readonly ImportRow[]
  mode: ImportMode
  status: ImportTaskStatus
}

/** Input of `uploadRow`: POST the row (create) or PUT `<url><id>/` (update). */
export interface UploadRowInput {
  row: ImportRow
  mode: ImportMode
}

export interface ImportTaskContext {
  rows: readonly ImportRow[]
  mode: ImportMode
  pageSize: number
  /** 1-based preview page; follows the row being uploaded. */
  page: number
  currentRowId: string | null
  /** STOP arrived while a row was uploading: stop once it has finished (no half-done row is re-sent). */
  stopRequested: boolean
  /** The task was restored from `persist` after a reload. */
  resumed: boolean
}

export type ImportTaskEvent =
  | { type: 'IMPORT' }
  | { type: 'STOP' }
  | { type: 'CONTINUE' }
  | { type: 'EDIT_CELL'; rowId: string; field: string; value: unknown }
  | { type: 'SET_PAGE'; page: number }

export type ImportTaskEmitted = { type: 'finishedWithFailures'; failed: number; total: number }

export interface ImportProgress {
  total: number
  ok: number
  failed: number
  pending: number
}

export const IMPORT_PAGE_SIZE = 10
export const IMPORT_ROW_DELAY_MS = 100
