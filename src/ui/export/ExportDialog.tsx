/**
 * Export dialog (spec 000 §4.4, §5; console-behaviour §2.6), driven by the export-flow machine: the
 * confirmation first when the list asks for it, then scope and format, then the download with its progress;
 * a failure is shown with Retry. Mount it to open it; `onClose` gets the flow's output.
 */
import { useEffect, useMemo, type ReactElement } from 'react'
import { t } from '@lingui/core/macro'
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  ProgressBar,
  Radio,
  RadioGroup,
  Spinner,
  tokens,
} from '@fluentui/react-components'
import { useActorRef, useSelector } from '@xstate/react'
import { inspectActors } from '../inspector/registry.ts'
import type { SnapshotFrom } from 'xstate'
import { isScopeEnabled, type exportFlowMachine } from '../../../machines/export-flow/export-flow.machine.ts'
import type { ExportFlowOutput, ExportFormat, ExportProgress, ExportScope } from '../../../machines/export-flow/export-flow.types.ts'
import type { Row } from '../../api/resources.ts'
import { UserConfirmDialogView } from '../confirm/UserConfirmDialog.tsx'
import { describeError } from '../common/errors.ts'
import { confirmCheckUrl, exportLogic } from './exportLogic.ts'
import { hasFilters, type ListQuery } from './scope.ts'

type Snapshot = SnapshotFrom<typeof exportFlowMachine>

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
})

const selectPhase = (s: Snapshot) =>
  s.status === 'done' ? 'final' : s.matches('confirming') ? 'confirming' : s.matches('starting') ? 'starting' : 'dialog'
const selectConfirm = (s: Snapshot) => s.children.confirm
const selectScope = (s: Snapshot) => s.context.scope
const selectFormat = (s: Snapshot) => s.context.format
const selectDownloading = (s: Snapshot) => s.matches('downloading')
const selectProgress = (s: Snapshot) => s.context.progress
const selectFailed = (s: Snapshot) => s.matches('error')
const selectError = (s: Snapshot) => s.context.error

/** "12.3 KB" */
export function formatBytes(bytes: number, locale?: string): string {
  const units = ['B', 'KB', 'MB', 'GB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`
}

function progressText(progress: ExportProgress | null): string {
  if (!progress || progress.loaded === 0) return t`Preparing the file…`
  const loaded = formatBytes(progress.loaded)
  return progress.total ? t`Downloading: ${loaded} of ${formatBytes(progress.total)}` : t`Downloading: ${loaded}`
}

export interface ExportDialogProps {
  url: string
  /** the list's query (its filters, search, order and date range) */
  query: ListQuery
  selection: readonly Row[]
  /** confirm the user first (e.g. exports holding secrets) */
  needsConfirm: boolean
  /** the protected URL the confirmation checks; default one row of the list */
  confirmUrl?: string
  onSaved?: (filename: string) => void
  onClose: (output: ExportFlowOutput) => void
}

export function ExportDialog(props: ExportDialogProps): ReactElement | null {
  const styles = useStyles()
  const logic = useMemo(
    () => exportLogic({ url: props.url, query: props.query, selectedIds: props.selection.map((r) => r.id), onSaved: props.onSaved }),
    // one flow per mount
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  )
  const filters = hasFilters(props.query)
  const actor = useActorRef(logic, {
    inspect: inspectActors,
    input: {
      needsConfirm: props.needsConfirm,
      confirmUrl: props.confirmUrl ?? confirmCheckUrl(props.url),
      selectedCount: props.selection.length,
      hasFilters: filters,
    },
  })
  useEffect(() => {
    const sub = actor.subscribe((s) => {
      if (s.status === 'done') props.onClose(s.output)
    })
    return () => sub.unsubscribe()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actor])

  const phase = useSelector(actor, selectPhase)
  const confirm = useSelector(actor, selectConfirm)
  const scope = useSelector(actor, selectScope)
  const format = useSelector(actor, selectFormat)
  const downloading = useSelector(actor, selectDownloading)
  const progress = useSelector(actor, selectProgress)
  const failed = useSelector(actor, selectFailed)
  const error = useSelector(actor, selectError)

  if (phase === 'confirming') return confirm ? <UserConfirmDialogView actor={confirm} /> : null
  if (phase !== 'dialog') return null
  const table = { selectedCount: props.selection.length, hasFilters: filters }
  const count = props.selection.length
  const scopes: { value: ExportScope; label: string }[] = [
    { value: 'all', label: t`All` },
    { value: 'selected', label: t`Selected rows (${count})` },
    { value: 'filtered', label: t`Filtered results` },
  ]
  return (
    <Dialog open modalType="modal" onOpenChange={(_, data) => !data.open && actor.send({ type: 'CANCEL' })}>
      <DialogSurface>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            actor.send({ type: 'SUBMIT' })
          }}
        >
          <DialogBody>
            <DialogTitle>{t`Export`}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field label={t`Range`} hint={filters ? t`Clear the filters of the list to export all of it.` : undefined}>
                <RadioGroup value={scope} disabled={downloading} onChange={(_, data) => actor.send({ type: 'SET_SCOPE', scope: data.value as ExportScope })}>
                  {scopes.map((s) => (
                    <Radio key={s.value} value={s.value} label={s.label} disabled={downloading || !isScopeEnabled(s.value, table)} />
                  ))}
                </RadioGroup>
              </Field>
              <Field label={t`Format`}>
                <RadioGroup layout="horizontal" value={format} disabled={downloading} onChange={(_, data) => actor.send({ type: 'SET_FORMAT', format: data.value as ExportFormat })}>
                  <Radio value="csv" label={t`CSV`} />
                  <Radio value="xlsx" label={t`Excel`} />
                </RadioGroup>
              </Field>
              {downloading && (
                <Field label={t`Download`} hint={progressText(progress)}>
                  <ProgressBar value={progress?.total ? progress.loaded / progress.total : undefined} thickness="large" />
                </Field>
              )}
              {failed && (
                <MessageBar intent="error" layout="multiline">
                  <MessageBarBody>{t`The export failed: ${describeError(error)}`}</MessageBarBody>
                  <MessageBarActions>
                    <Button onClick={() => actor.send({ type: 'RETRY' })}>{t`Retry`}</Button>
                  </MessageBarActions>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions>
              <Button onClick={() => actor.send({ type: 'CANCEL' })}>{t`Cancel`}</Button>
              <Button type="submit" appearance="primary" disabled={downloading || failed} icon={downloading ? <Spinner size="tiny" /> : undefined}>
                {t`Export`}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}
