/**
 * Import dialog (spec 000 §4.3, §5; console-behaviour §2.5). First the mode (create wins when both are
 * permitted), the templates and the file; the file is read by the server (`render-to-json`) into a preview;
 * then the import runs row by row (ImportRun). An unfinished import of this list is offered for resumption.
 * Mount it to open it: each opening starts fresh (and looks for an unfinished import again).
 */
import { useCallback, useRef, useState, type ReactElement } from 'react'
import { t } from '@lingui/core/macro'
import { Dialog, DialogBody, DialogSurface, DialogTitle, makeStyles } from '@fluentui/react-components'
import type { ImportMode, ImportRow } from '../../../machines/import-task/import-task.types.ts'
import type { Row } from '../../api/resources.ts'
import { useConfirm } from '../common/ConfirmDialog.tsx'
import { ImportChoose } from './ImportChoose.tsx'
import { ImportRun } from './ImportRun.tsx'
import { clearImport, importStorageKey, loadImport, resumedTask, type SavedImport } from './persist.ts'
import type { Preview } from './preview.ts'

const useStyles = makeStyles({
  wide: { maxWidth: 'min(1200px, 96vw)', width: '96vw' },
  narrow: { maxWidth: 'min(720px, 96vw)', width: '96vw' },
})

export interface ImportDialogProps {
  listUrl: string
  orgId: string | undefined
  canCreate: boolean
  canUpdate: boolean
  /** the list's selected rows: the update template is filled with them */
  selection: readonly Row[]
  /** `imported`: at least one row was created or updated (the list reloads) */
  onClose: (imported: boolean) => void
}

interface Run {
  id: number
  fileName: string
  preview: Pick<Preview, 'columns' | 'fileColumns'>
  rows: ImportRow[]
  mode: ImportMode
  resumed: boolean
}

/** An unfinished saved import: something is left to do. */
function resumable(saved: SavedImport | null): SavedImport | null {
  return saved && saved.task.rows.some((row) => row.status !== 'ok') ? saved : null
}

export function ImportDialog(props: ImportDialogProps): ReactElement {
  const styles = useStyles()
  const storageKey = importStorageKey(props.listUrl, props.orgId)
  const [run, setRun] = useState<Run | null>(null)
  const [saved, setSaved] = useState<SavedImport | null>(() => resumable(loadImport(storageKey)))
  const runs = useRef(0)
  const imported = useRef(false)
  const unsent = useRef(0)
  const [confirmElement, ask] = useConfirm()

  const start = (fileName: string, preview: Preview, mode: ImportMode) => {
    runs.current += 1
    const rows = preview.rows.map((data, i) => ({ id: `r${i}`, data, status: 'pending' as const }))
    setSaved(null)
    setRun({ id: runs.current, fileName, preview, rows, mode, resumed: false })
  }
  const resume = (s: SavedImport) => {
    runs.current += 1
    setSaved(null)
    const task = resumedTask(s, t`The page was left while this row was being imported: it may have been imported already.`)
    setRun({ id: runs.current, fileName: s.fileName, preview: s, rows: [...task.rows], mode: task.mode, resumed: true })
  }
  const discard = () => {
    clearImport(storageKey)
    setSaved(null)
  }
  const close = (finished: boolean) => {
    if (finished) clearImport(storageKey)
    setRun(null)
    const any = imported.current
    imported.current = false
    props.onClose(any)
  }
  const onImported = useCallback(() => {
    imported.current = true
  }, [])
  const onUnsent = useCallback((count: number) => {
    unsent.current = count
  }, [])
  /** Closing with rows not imported yet asks first (the import stays saved and can be resumed). */
  const requestClose = () => {
    const left = run ? unsent.current : 0
    if (left === 0) return close(false)
    ask({
      title: t`Close the import?`,
      body: t`${left} rows have not been imported yet. You can resume this import later from the Import button.`,
      confirmLabel: t`Close`,
      onConfirm: () => close(false),
    })
  }

  return (
    <Dialog open modalType="modal" onOpenChange={(_, data) => !data.open && requestClose()}>
      <DialogSurface className={run ? styles.wide : styles.narrow}>
        <DialogBody>
          <DialogTitle>{t`Import`}</DialogTitle>
          {run ? (
            <ImportRun
              key={run.id}
              listUrl={props.listUrl}
              storageKey={storageKey}
              fileName={run.fileName}
              columns={run.preview.columns}
              fileColumns={run.preview.fileColumns}
              rows={run.rows}
              mode={run.mode}
              resumed={run.resumed}
              onChooseFile={() => {
                clearImport(storageKey)
                setRun(null)
              }}
              onClose={(finished) => (finished ? close(true) : requestClose())}
              onImported={onImported}
              onUnsent={onUnsent}
            />
          ) : (
            <ImportChoose
              listUrl={props.listUrl}
              canCreate={props.canCreate}
              canUpdate={props.canUpdate}
              selection={props.selection}
              saved={saved}
              onResume={resume}
              onDiscard={discard}
              onPreview={start}
              onCancel={() => close(false)}
            />
          )}
          {confirmElement}
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
