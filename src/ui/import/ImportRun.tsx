/**
 * The preview and the run of an import (spec 000 §4.3): progress with counts, one page of editable rows, the
 * pager, and the action button reading Import / Stop / Finished / Continue. After a run with failures a summary
 * says so, and the failed rows can be downloaded with their errors.
 */
import { useEffect, useState, type ReactElement } from 'react'
import { t } from '@lingui/core/macro'
import {
  Badge,
  Button,
  DialogActions,
  DialogContent,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Text,
  tokens,
} from '@fluentui/react-components'
import { ArrowDownloadRegular, ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons'
import Cookies from 'js-cookie'
import { useSelector } from '@xstate/react'
import {
  buttonLabelKind,
  importProgress,
  isStopping,
  pageCount,
  pageRows,
  type ImportTaskSnapshot,
} from '../../../machines/import-task/import-task.machine.ts'
import type { ImportRow } from '../../../machines/import-task/import-task.types.ts'
import { encryptSecret } from '../../api/crypto.ts'
import { describeError } from '../common/errors.ts'
import { saveBlob } from '../export/saveBlob.ts'
import { fromEditText } from './cells.ts'
import { failedRowsCsv, timestampedName } from './failedRows.ts'
import { PreviewTable, type PreviewRowView } from './PreviewTable.tsx'
import { useImportTask, type ImportTaskSetup } from './useImportTask.ts'

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  counts: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  pager: { display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
  spacer: { flexGrow: 1 },
})

const selectRows = (s: ImportTaskSnapshot) => s.context.rows
const selectPage = (s: ImportTaskSnapshot) => s.context.page
const selectPageSize = (s: ImportTaskSnapshot) => s.context.pageSize
const selectCurrent = (s: ImportTaskSnapshot) => (s.matches({ started: 'uploading' }) ? s.context.currentRowId : null)
const selectButton = (s: ImportTaskSnapshot) => buttonLabelKind(s)
const selectStopping = (s: ImportTaskSnapshot) => isStopping(s)
const selectRunning = (s: ImportTaskSnapshot) => s.matches('started')
const selectDone = (s: ImportTaskSnapshot) => s.matches('done')

function rowView(row: ImportRow, index: number, current: string | null): PreviewRowView {
  const s = row.status
  if (s === 'ok') return { index, fields: row.data, state: 'ok', errors: [] }
  if (s === 'pending') return { index, fields: row.data, state: row.id === current ? 'running' : 'pending', errors: [] }
  return { index, fields: row.data, state: 'error', errors: s.error }
}

export interface ImportRunProps extends ImportTaskSetup {
  onChooseFile: () => void
  /** `finished`: every row was imported */
  onClose: (finished: boolean) => void
  /** called when a row is imported (the list refreshes on close) */
  onImported: () => void
  /** the number of rows not imported yet (pending or failed), after every change: closing then asks first */
  onUnsent?: (count: number) => void
}

export function ImportRun(props: ImportRunProps): ReactElement {
  const styles = useStyles()
  const actor = useImportTask(props)
  const rows = useSelector(actor, selectRows)
  const page = useSelector(actor, selectPage)
  const pageSize = useSelector(actor, selectPageSize)
  const current = useSelector(actor, selectCurrent)
  const button = useSelector(actor, selectButton)
  const stopping = useSelector(actor, selectStopping)
  const running = useSelector(actor, selectRunning)
  const done = useSelector(actor, selectDone)
  const [summary, setSummary] = useState<{ failed: number; total: number } | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const progress = importProgress(rows)
  const pages = pageCount({ rows, pageSize })

  useEffect(() => {
    const sub = actor.on('finishedWithFailures', (e) => setSummary({ failed: e.failed, total: e.total }))
    return () => sub.unsubscribe()
  }, [actor])
  const { onImported, onUnsent } = props
  useEffect(() => {
    if (progress.ok > 0) onImported()
  }, [progress.ok, onImported])
  const unsent = progress.pending + progress.failed
  useEffect(() => {
    onUnsent?.(unsent)
  }, [unsent, onUnsent])

  const view = pageRows({ rows, pageSize, page }).map((row, i) => rowView(row, (page - 1) * pageSize + i, current))
  const columnOf = new Map(props.columns.map((c) => [c.field, c]))

  const edit = (index: number, field: string, text: string) => {
    const row = rows[index]
    if (!row) return
    setProblem(null)
    let value: unknown
    try {
      value = columnOf.get(field)?.secret ? encryptSecret(text, Cookies.get('jms_public_key')) : fromEditText(text, row.data[field])
    } catch (e) {
      setProblem(describeError(e))
      return
    }
    actor.send({ type: 'EDIT_CELL', rowId: row.id, field, value })
  }

  const act = () => {
    // A cell still being edited is committed first (its blur sends EDIT_CELL at once), so one press of Continue
    // imports the row just fixed (issue 17, defect 3).
    const editing = document.activeElement
    if (editing instanceof HTMLElement && editing.closest('[data-import-preview]')) editing.blur()
    setSummary(null)
    if (button === 'import') actor.send({ type: 'IMPORT' })
    else if (button === 'stop') actor.send({ type: 'STOP' })
    else if (button === 'continue') actor.send({ type: 'CONTINUE' })
    else props.onClose(true)
  }

  const downloadFailed = () => {
    const failed = rows.flatMap((row) => (typeof row.status === 'object' ? [{ fields: row.data, errors: row.status.error }] : []))
    const csv = failedRowsCsv(props.fileColumns, failed, t`Error`)
    const base = props.fileName.replace(/\.(csv|xlsx)$/i, '')
    saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), timestampedName(`${base}_failed`, 'csv'))
  }

  const label = { import: t`Import`, stop: t`Stop`, finished: t`Finished`, continue: t`Continue` }[button]
  const handled = progress.ok + progress.failed
  return (
    <>
      <DialogContent className={styles.content}>
        <Text>
          {props.mode === 'create' ? t`Create from ${props.fileName}` : t`Update from ${props.fileName}`}
        </Text>
        <Field label={t`Progress`} hint={t`${handled} of ${progress.total} rows processed`}>
          <ProgressBar value={progress.total ? handled / progress.total : 0} thickness="large" color={progress.failed > 0 ? 'warning' : 'brand'} />
        </Field>
        <div className={styles.counts} aria-live="polite" data-testid="import-counts">
          <Badge appearance="outline" color="informative">{t`Total ${progress.total}`}</Badge>
          <Badge appearance="filled" color="success">{t`Succeeded ${progress.ok}`}</Badge>
          <Badge appearance="filled" color="danger">{t`Failed ${progress.failed}`}</Badge>
          <Badge appearance="tint" color="subtle">{t`Pending ${progress.pending}`}</Badge>
        </div>
        {summary && (
          <MessageBar intent="warning" role="alert">
            <MessageBarBody>
              {t`${summary.failed} of ${summary.total} rows failed. Fix them in the table and press Continue, or download them with their errors.`}
            </MessageBarBody>
          </MessageBar>
        )}
        {done && progress.failed === 0 && progress.pending === 0 && (
          <MessageBar intent="success">
            <MessageBarBody>{t`All ${progress.total} rows were imported.`}</MessageBarBody>
          </MessageBar>
        )}
        {problem && (
          <MessageBar intent="error">
            <MessageBarBody>{problem}</MessageBarBody>
          </MessageBar>
        )}
        <div data-import-preview>
          <PreviewTable columns={props.columns} rows={view} editable={!running} onEdit={edit} />
        </div>
        <nav className={styles.pager} aria-label={t`Preview pages`}>
          <Button
            appearance="subtle"
            icon={<ChevronLeftRegular />}
            aria-label={t`Previous page`}
            disabled={page <= 1}
            onClick={() => actor.send({ type: 'SET_PAGE', page: page - 1 })}
          />
          <Text>{t`Page ${page} of ${pages}`}</Text>
          <Button
            appearance="subtle"
            icon={<ChevronRightRegular />}
            aria-label={t`Next page`}
            disabled={page >= pages}
            onClick={() => actor.send({ type: 'SET_PAGE', page: page + 1 })}
          />
        </nav>
      </DialogContent>
      <DialogActions fluid>
        <Button disabled={running} onClick={props.onChooseFile}>{t`Choose another file`}</Button>
        {progress.failed > 0 && (
          <Button icon={<ArrowDownloadRegular />} disabled={running} onClick={downloadFailed}>
            {t`Download failed rows`}
          </Button>
        )}
        <span className={styles.spacer} />
        <Button onClick={() => props.onClose(false)}>{t`Close`}</Button>
        <Button
          appearance="primary"
          disabled={stopping}
          // The press keeps the focus where it is until act() commits the cell being edited: a blur on press would
          // commit it, re-render the preview and could move the button away from under the pointer before the click.
          onMouseDown={(e) => e.preventDefault()}
          onClick={act}
          data-import-action={button}
        >
          {label}
        </Button>
      </DialogActions>
    </>
  )
}
