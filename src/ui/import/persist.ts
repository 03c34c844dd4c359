/**
 * An import survives a page reload: the preview (columns, rows with their statuses, mode) is kept in
 * sessionStorage under the list URL and the organization, saved after every row by the machine's `persist`
 * action. Secret cells are stored as the ciphertext the preview holds, never in clear. Storage failures
 * (quota, private mode) only lose the resume offer.
 */
import type { ImportRow, PersistedImportTask } from '../../../machines/import-task/import-task.types.ts'
import type { PreviewColumn } from './preview.ts'

export interface SavedImport {
  version: 1
  fileName: string
  columns: PreviewColumn[]
  fileColumns: PreviewColumn[]
  task: PersistedImportTask
  savedAt: number
  /** the row being uploaded when this was saved: the page may have gone before its answer came */
  inflight?: string
}

export function importStorageKey(listUrl: string, orgId: string | undefined): string {
  return `import-task:${orgId ?? '-'}:${listUrl}`
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function isColumn(v: unknown): v is PreviewColumn {
  return isObject(v) && typeof v.field === 'string' && typeof v.label === 'string' && typeof v.width === 'number' && typeof v.secret === 'boolean'
}

function isRow(v: unknown): v is ImportRow {
  if (!isObject(v) || typeof v.id !== 'string' || !isObject(v.data)) return false
  const s = v.status
  return s === 'pending' || s === 'ok' || (isObject(s) && Array.isArray(s.error))
}

function parse(text: string): SavedImport | null {
  const v: unknown = JSON.parse(text)
  if (!isObject(v) || v.version !== 1 || typeof v.fileName !== 'string' || typeof v.savedAt !== 'number') return null
  if (!Array.isArray(v.columns) || !v.columns.every(isColumn) || !Array.isArray(v.fileColumns) || !v.fileColumns.every(isColumn)) return null
  const task = v.task
  if (!isObject(task) || (task.mode !== 'create' && task.mode !== 'update') || !Array.isArray(task.rows) || !task.rows.every(isRow)) return null
  if (!['pending', 'started', 'stopped', 'done'].includes(String(task.status))) return null
  return v as unknown as SavedImport
}

export function loadImport(key: string, storage: Storage = sessionStorage): SavedImport | null {
  try {
    const text = storage.getItem(key)
    if (!text) return null
    const saved = parse(text)
    if (!saved) storage.removeItem(key)
    const inflight = storage.getItem(inflightKey(key))
    return saved && inflight ? { ...saved, inflight } : saved
  } catch {
    return null
  }
}

export function saveImport(key: string, saved: SavedImport, storage: Storage = sessionStorage): boolean {
  try {
    const { inflight: _, ...rest } = saved
    storage.setItem(key, JSON.stringify(rest))
    storage.removeItem(inflightKey(key))
    return true
  } catch {
    return false
  }
}

const inflightKey = (key: string) => `${key}:inflight`

/** Notes the row about to be uploaded, under its own small key (cleared by the next save). */
export function markInflight(key: string, rowId: string, storage: Storage = sessionStorage): void {
  try {
    storage.setItem(inflightKey(key), rowId)
  } catch {
    // only the interruption notice is lost
  }
}

/**
 * A saved import as it is resumed: a row that was in flight when the page went away may or may not have been
 * imported, so it is marked failed with `message` (Continue sends it again; the user can check first).
 */
export function resumedTask(saved: SavedImport, message: string): SavedImport['task'] {
  const { inflight } = saved
  if (!inflight) return saved.task
  return {
    ...saved.task,
    rows: saved.task.rows.map((row) => (row.id === inflight && row.status === 'pending' ? { ...row, status: { error: [message] } } : row)),
  }
}

export function clearImport(key: string, storage: Storage = sessionStorage): void {
  try {
    storage.removeItem(key)
    storage.removeItem(inflightKey(key))
  } catch {
    // nothing to clear
  }
}
