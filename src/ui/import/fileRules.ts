/** Which files the import accepts (spec 000 §5): one file, `.csv` or `.xlsx`, at most the server's 10 MiB. */
import { MAX_IMPORT_BYTES } from '../../api/transfer.ts'

export const ACCEPTED_EXTENSIONS = ['.csv', '.xlsx'] as const

export type FileProblem = 'count' | 'type' | 'size' | 'empty'

export type FileCheck = { ok: true; file: File } | { ok: false; problem: FileProblem }

export function checkImportFiles(files: readonly File[]): FileCheck {
  if (files.length !== 1) return { ok: false, problem: 'count' }
  const file = files[0]!
  const name = file.name.toLowerCase()
  if (!ACCEPTED_EXTENSIONS.some((ext) => name.endsWith(ext))) return { ok: false, problem: 'type' }
  if (file.size > MAX_IMPORT_BYTES) return { ok: false, problem: 'size' }
  if (file.size === 0) return { ok: false, problem: 'empty' }
  return { ok: true, file }
}
