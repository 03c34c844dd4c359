/**
 * The first step of the import: resume offer, mode, templates and the file (one .csv or .xlsx of at most
 * 10 MB; otherwise the help text turns into the error). A chosen file is sent to `render-to-json` and its
 * rows become the preview, secret fields encrypted once.
 */
import { useId, useRef, useState, type DragEvent, type ReactElement } from 'react'
import { t } from '@lingui/core/macro'
import {
  Button,
  DialogActions,
  DialogContent,
  Field,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Radio,
  RadioGroup,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components'
import { ArrowDownloadRegular, DocumentArrowUpRegular } from '@fluentui/react-icons'
import type { ImportMode } from '../../../machines/import-task/import-task.types.ts'
import { cacheResources, type Row } from '../../api/resources.ts'
import { downloadFile, encryptImportSecrets, renderToJson, templateUrl, type FileFormat } from '../../api/transfer.ts'
import { describeError } from '../common/errors.ts'
import { saveBlob } from '../export/saveBlob.ts'
import { checkImportFiles, type FileProblem } from './fileRules.ts'
import type { SavedImport } from './persist.ts'
import { buildPreview, type Preview } from './preview.ts'

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  drop: {
    display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalXXL, borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorNeutralStroke1}`,
  },
  dropActive: { border: `${tokens.strokeWidthThick} dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  help: { color: tokens.colorNeutralForeground3 },
  helpError: { color: tokens.colorPaletteRedForeground1 },
  hidden: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
})

function problemText(problem: FileProblem): string {
  switch (problem) {
    case 'count':
      return t`Choose one file only.`
    case 'type':
      return t`Only .csv and .xlsx files can be imported.`
    case 'size':
      return t`The file is larger than 10 MB.`
    case 'empty':
      return t`The file is empty.`
    default:
      return problem satisfies never
  }
}

export interface ImportChooseProps {
  listUrl: string
  canCreate: boolean
  canUpdate: boolean
  selection: readonly Row[]
  saved: SavedImport | null
  onResume: (saved: SavedImport) => void
  onDiscard: () => void
  onPreview: (fileName: string, preview: Preview, mode: ImportMode) => void
  onCancel: () => void
}

export function ImportChoose(props: ImportChooseProps): ReactElement {
  const styles = useStyles()
  const ids = useId()
  const input = useRef<HTMLInputElement>(null)
  const [mode, setMode] = useState<ImportMode>(props.canCreate ? 'create' : 'update')
  const [reading, setReading] = useState<string | null>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const [templateBusy, setTemplateBusy] = useState<FileFormat | null>(null)
  const [templateError, setTemplateError] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const modes: ImportMode[] = [...(props.canCreate ? ['create' as const] : []), ...(props.canUpdate ? ['update' as const] : [])]
  const { saved } = props

  const downloadTemplate = async (format: FileFormat) => {
    setTemplateBusy(format)
    setTemplateError(null)
    try {
      const ids = mode === 'update' && props.selection.length > 0 ? props.selection.map((r) => r.id) : []
      const spm = ids.length > 0 ? await cacheResources(ids) : undefined
      const file = await downloadFile(templateUrl(props.listUrl, format, mode === 'create' ? 'import' : 'update', spm), format)
      saveBlob(file.blob, file.filename)
    } catch (e) {
      setTemplateError(describeError(e))
    } finally {
      setTemplateBusy(null)
    }
  }

  const read = async (files: readonly File[]) => {
    const check = checkImportFiles(files)
    if (!check.ok) {
      setFileError(problemText(check.problem))
      return
    }
    setFileError(null)
    setReading(check.file.name)
    try {
      const rendered = await renderToJson(props.listUrl, check.file)
      if (rendered.data.length === 0) throw new Error('empty')
      const preview = buildPreview(rendered, (row) => encryptImportSecrets(row))
      props.onPreview(check.file.name, preview, mode)
    } catch (e) {
      setFileError(e instanceof Error && e.message === 'empty' ? t`The file has no rows to import.` : describeError(e))
      setReading(null)
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setDragging(false)
    if (!reading) void read([...e.dataTransfer.files])
  }

  return (
    <>
      <DialogContent className={styles.content}>
        {saved && (
          <MessageBar intent="info" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>{t`Unfinished import`}</MessageBarTitle>
              {t`${saved.fileName}: ${saved.task.rows.filter((r) => r.status === 'ok').length} of ${saved.task.rows.length} rows were imported.`}
            </MessageBarBody>
            <MessageBarActions>
              <Button appearance="primary" onClick={() => props.onResume(saved)}>{t`Resume`}</Button>
              <Button onClick={props.onDiscard}>{t`Discard`}</Button>
            </MessageBarActions>
          </MessageBar>
        )}
        {modes.length > 1 ? (
          <Field label={t`Import mode`}>
            <RadioGroup layout="horizontal" value={mode} onChange={(_, data) => setMode(data.value as ImportMode)}>
              <Radio value="create" label={t`Create`} />
              <Radio value="update" label={t`Update`} />
            </RadioGroup>
          </Field>
        ) : (
          <Text>{mode === 'create' ? t`Import mode: create` : t`Import mode: update`}</Text>
        )}
        <Field
          label={t`Template`}
          hint={mode === 'update'
            ? props.selection.length > 0 ? t`The update template holds the ${props.selection.length} selected rows.` : t`Select rows in the list to get them in the update template.`
            : t`Fill in the template, then upload it below.`}
          validationMessage={templateError ?? undefined}
        >
          <div className={styles.row}>
            {(['csv', 'xlsx'] as const).map((format) => (
              <Button
                key={format}
                icon={templateBusy === format ? <Spinner size="tiny" /> : <ArrowDownloadRegular />}
                disabled={templateBusy !== null}
                onClick={() => void downloadTemplate(format)}
              >
                {format === 'csv' ? t`CSV template` : t`Excel template`}
              </Button>
            ))}
          </div>
        </Field>
        <div
          className={mergeClasses(styles.drop, dragging && styles.dropActive)}
          onDragOver={(e) => {
            e.preventDefault()
            setDragging(true)
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <DocumentArrowUpRegular fontSize={32} aria-hidden />
          <input
            ref={input}
            id={`${ids}-file`}
            className={styles.hidden}
            type="file"
            accept=".csv,.xlsx"
            aria-label={t`File to import`}
            aria-describedby={`${ids}-help`}
            tabIndex={-1}
            onChange={(e) => {
              const files = [...(e.target.files ?? [])]
              e.target.value = ''
              void read(files)
            }}
          />
          <Button appearance="primary" disabled={reading !== null} icon={reading ? <Spinner size="tiny" /> : undefined} onClick={() => input.current?.click()}>
            {reading ? t`Reading ${reading}…` : t`Choose a file`}
          </Button>
          <Text>{t`or drop it here`}</Text>
          <Text id={`${ids}-help`} className={fileError ? styles.helpError : styles.help}>
            {t`One .csv or .xlsx file, at most 10 MB.`}
          </Text>
          {fileError && <Text role="alert" className={styles.helpError}>{fileError}</Text>}
        </div>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{t`Cancel`}</Button>
      </DialogActions>
    </>
  )
}
