/**
 * The import-task machine wired to the list: each row is uploaded with `importRow` (POST, or PUT `<list><id>/`)
 * and a failure becomes "Column: message" lines; the task is saved for a reload after every change.
 */
import { useMemo } from 'react'
import { fromPromise } from 'xstate'
import { useActorRef } from '@xstate/react'
import { inspectActors } from '../inspector/registry.ts'
import { importTaskMachine } from '../../../machines/import-task/import-task.machine.ts'
import type { ImportMode, ImportRow, UploadRowInput } from '../../../machines/import-task/import-task.types.ts'
import { ApiError } from '../../api/client.ts'
import { importRow } from '../../api/transfer.ts'
import { describeError } from '../common/errors.ts'
import { markInflight, saveImport } from './persist.ts'
import { plainLabel, type PreviewColumn } from './preview.ts'
import { errorLines } from './rowErrors.ts'

export interface ImportTaskSetup {
  listUrl: string
  storageKey: string
  fileName: string
  columns: readonly PreviewColumn[]
  fileColumns: readonly PreviewColumn[]
  rows: readonly ImportRow[]
  mode: ImportMode
  resumed: boolean
}

/**
 * Set while the page goes away: the upload in flight is then aborted by the browser, which is not the row's
 * failure, so nothing more is saved and the resume offer finds the row still marked in flight.
 */
let leaving = false
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    leaving = true
  })
  window.addEventListener('pageshow', () => {
    leaving = false
  })
}

/** The error lines of a failed upload. */
export function uploadErrorLines(error: unknown, fileColumns: readonly PreviewColumn[]): string[] {
  if (error instanceof ApiError) {
    const labels = new Map(fileColumns.map((c) => [c.field, plainLabel(c.label)]))
    const lines = errorLines(error.data, (field) => labels.get(field) ?? field)
    return lines.length > 0 ? lines : [error.message]
  }
  return [describeError(error)]
}

/** The machine with its upload and persistence, for one run. */
export function importTaskLogic(setup: ImportTaskSetup) {
  return importTaskMachine.provide({
    actors: {
      uploadRow: fromPromise<unknown, UploadRowInput>(async ({ input, signal }) => {
        try {
          markInflight(setup.storageKey, input.row.id)
          await importRow(setup.listUrl, input.mode, input.row.data, signal)
          return null
        } catch (e) {
          throw { errors: uploadErrorLines(e, setup.fileColumns) }
        }
      }),
    },
    actions: {
      persist: (_, task) => {
        if (leaving) return
        saveImport(setup.storageKey, {
          version: 1,
          fileName: setup.fileName,
          columns: [...setup.columns],
          fileColumns: [...setup.fileColumns],
          task,
          savedAt: Date.now(),
        })
      },
    },
  })
}

export function useImportTask(setup: ImportTaskSetup) {
  // the task is created once per run (the caller keys the component by run)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const logic = useMemo(() => importTaskLogic(setup), [])
  return useActorRef(logic, { input: { rows: setup.rows, mode: setup.mode, resumed: setup.resumed }, inspect: inspectActors })
}
