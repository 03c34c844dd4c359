/**
 * The export-flow machine wired to the list: the confirmation runs the confirm machine with its HTTP actors,
 * and the download fetches the file through the client (progress reported), then saves it under the server's
 * file name. "Selected" rows travel as an spm (contract §4.6).
 */
import { fromPromise } from 'xstate'
import { exportFlowMachine } from '../../../machines/export-flow/export-flow.machine.ts'
import type { DownloadInput } from '../../../machines/export-flow/export-flow.types.ts'
import { cacheResources, withQuery, type RowId } from '../../api/resources.ts'
import { downloadFile, exportUrl } from '../../api/transfer.ts'
import { confirmLogic } from '../confirm/confirmLogic.ts'
import { saveBlob } from './saveBlob.ts'
import { exportQuery, type ListQuery } from './scope.ts'

export interface ExportSetup {
  /** the list URL (the export is `GET <url>?…&format=`) */
  url: string
  query: ListQuery
  selectedIds: readonly RowId[]
  /** called with the saved file's name */
  onSaved?: (filename: string) => void
}

/** The URL the confirmation checks: one row of the list (a protected list answers 400 `{code}`). */
export function confirmCheckUrl(url: string): string {
  return withQuery(url, { limit: 1 })
}

export function exportLogic(setup: ExportSetup) {
  return exportFlowMachine.provide({
    actors: {
      confirm: confirmLogic,
      download: fromPromise<unknown, DownloadInput>(async ({ input, signal }) => {
        const spm = input.scope === 'selected' ? await cacheResources(setup.selectedIds) : undefined
        const url = exportUrl(setup.url, exportQuery(input.scope, setup.query, spm), input.format)
        const file = await downloadFile(url, input.format, { onProgress: input.onProgress, signal })
        saveBlob(file.blob, file.filename)
        setup.onSaved?.(file.filename)
        return file.filename
      }),
    },
  })
}
