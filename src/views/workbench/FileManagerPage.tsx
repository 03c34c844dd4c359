/**
 * Workbench → File manager (issue 31): the user's granted assets as folders — organization, asset, account, then the
 * host's files — browsed, uploaded to (with progress, bounded by the server's limit), downloaded, renamed, deleted,
 * and made folders in. The folder is kept in the URL (`?path=`), so My assets links straight to an asset. The
 * server enforces the permission's upload/download/delete actions and logs each operation; the buttons mirror the
 * account's actions.
 */
import {
  Breadcrumb, BreadcrumbButton, BreadcrumbDivider, BreadcrumbItem, Button, Dialog, DialogActions, DialogBody, DialogContent,
  DialogSurface, DialogTitle, Field, Input, Link, makeStyles, MessageBar, MessageBarBody, ProgressBar, Spinner, Table, TableBody,
  TableCell, TableHeader, TableHeaderCell, TableRow, Text, tokens,
} from '@fluentui/react-components'
import {
  ArrowClockwiseRegular, ArrowDownloadRegular, ArrowUpRegular, ArrowUploadRegular, DeleteRegular, DocumentRegular, FolderAddRegular,
  FolderRegular, RenameRegular,
} from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { Fragment, useCallback, useEffect, useRef, useState } from 'react'
import {
  deleteFile, downloadUrl, joinPath, listFiles, makeFolder, parentPath, renameFile, uploadFile, type FileEntry, type FileListing, type UploadHandle,
} from '../../api/files.ts'
import { useConfirm } from '../../ui/common/ConfirmDialog.tsx'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { formatDateTime } from '../../ui/table/formatters.ts'

const useStyles = makeStyles({
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center', marginBottom: tokens.spacingVerticalM },
  crumbs: { marginBottom: tokens.spacingVerticalS, overflowX: 'auto' },
  table: { minWidth: '0', tableLayout: 'auto' },
  scroll: { overflowX: 'auto' },
  name: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, wordBreak: 'break-all' },
  nowrap: { whiteSpace: 'nowrap' },
  /** Narrow screens keep the name and the actions; the date goes. */
  wide: { whiteSpace: 'nowrap', '@media (max-width: 640px)': { display: 'none' } },
  nameCell: { minWidth: '8em' },
  row: { display: 'flex', gap: tokens.spacingHorizontalXXS },
  progress: { display: 'grid', gap: tokens.spacingVerticalXXS, marginBottom: tokens.spacingVerticalM, maxWidth: '480px' },
  hidden: { display: 'none' },
})

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let v = bytes / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`
}

/** A name asked in a dialog (new folder, rename). */
function NameDialog({ title, label, initial, onSubmit, onClose }: { title: string; label: string; initial: string; onSubmit: (name: string) => Promise<void>; onClose: () => void }) {
  const { t } = useLingui()
  const [name, setName] = useState(initial)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    const v = name.trim()
    if (!v || v.includes('/') || v === '.' || v === '..') return setError(t`Enter a name without "/".`)
    setBusy(true)
    try {
      await onSubmit(v)
      onClose()
    } catch (e) {
      setError(describeError(e))
      setBusy(false)
    }
  }
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface>
        <form onSubmit={(e) => { e.preventDefault(); void submit() }}>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent>
              <Field label={label} validationMessage={error} validationState={error ? 'error' : 'none'}>
                <Input value={name} onChange={(_, d) => { setName(d.value); setError(undefined) }} autoFocus />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose}>{t`Cancel`}</Button>
              <Button appearance="primary" type="submit" disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined}>{t`Save`}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}

export function FileManagerPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const navigate = useNavigate()
  const path = typeof search.path === 'string' && search.path.startsWith('/') ? search.path : '/'
  const [listing, setListing] = useState<FileListing>()
  const [error, setError] = useState<string>()
  const [loading, setLoading] = useState(true)
  const [naming, setNaming] = useState<{ kind: 'mkdir' } | { kind: 'rename'; entry: FileEntry }>()
  const [upload, setUpload] = useState<{ name: string; fraction: number; handle: UploadHandle }>()
  const [confirmDialog, confirm] = useConfirm()
  const fileInput = useRef<HTMLInputElement>(null)
  const seq = useRef(0)

  const load = useCallback(async () => {
    const mine = ++seq.current
    setLoading(true)
    try {
      const l = await listFiles(path)
      if (mine !== seq.current) return
      setListing(l)
      setError(undefined)
    } catch (e) {
      if (mine !== seq.current) return
      setListing(undefined)
      setError(describeError(e))
    } finally {
      if (mine === seq.current) setLoading(false)
    }
  }, [path])
  useEffect(() => void load(), [load])

  const go = (to: string) => void navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, path: to === '/' ? undefined : to }) } as never)
  const actions = listing?.actions
  const remote = listing?.level === 'remote'
  const parts = path.split('/').filter(Boolean)

  const startUpload = (file: File) => {
    if (!listing) return
    if (file.size > listing.upload_max) {
      notify('error', t`The file is larger than the upload limit of ${formatSize(listing.upload_max)}.`)
      return
    }
    const handle = uploadFile(path, file, (fraction) => setUpload((u) => (u ? { ...u, fraction } : u)))
    setUpload({ name: file.name, fraction: 0, handle })
    handle.done.then(() => {
      notify('success', t`Uploaded ${file.name}.`)
      void load()
    }, (e: unknown) => notify('error', t`Upload of ${file.name} failed`, describeError(e))).finally(() => setUpload(undefined))
  }

  const remove = (entry: FileEntry) => confirm({
    title: entry.type === 'dir' ? t`Delete folder` : t`Delete file`,
    body: entry.type === 'dir' ? t`Delete the folder "${entry.name}"? It must be empty.` : t`Delete the file "${entry.name}"?`,
    confirmLabel: t`Delete`,
    danger: true,
    onConfirm: async () => {
      await deleteFile(joinPath(path, entry.name))
      notify('success', t`Deleted ${entry.name}.`)
      await load()
    },
  })

  return (
    <Page title={t`File manager`} back={false}>
      <nav aria-label={t`Current folder`} className={styles.crumbs}>
        <Breadcrumb size="small">
          <BreadcrumbItem>
            <BreadcrumbButton onClick={() => go('/')} current={parts.length === 0}>{t`All assets`}</BreadcrumbButton>
          </BreadcrumbItem>
          {parts.map((p, i) => (
            <Fragment key={i}>
              <BreadcrumbDivider />
              <BreadcrumbItem>
                <BreadcrumbButton onClick={() => go(`/${parts.slice(0, i + 1).join('/')}`)} current={i === parts.length - 1}>{p}</BreadcrumbButton>
              </BreadcrumbItem>
            </Fragment>
          ))}
        </Breadcrumb>
      </nav>
      <div className={styles.toolbar} role="toolbar" aria-label={t`File actions`}>
        <Button icon={<ArrowUpRegular />} disabled={path === '/'} onClick={() => go(parentPath(path))}>{t`Up`}</Button>
        <Button icon={<ArrowClockwiseRegular />} onClick={() => void load()}>{t`Refresh`}</Button>
        {remote && (
          <>
            <Button icon={<FolderAddRegular />} disabled={!actions?.upload} onClick={() => setNaming({ kind: 'mkdir' })}>{t`New folder`}</Button>
            <Button icon={<ArrowUploadRegular />} appearance="primary" disabled={!actions?.upload || !!upload} onClick={() => fileInput.current?.click()}>{t`Upload`}</Button>
            <input
              ref={fileInput} type="file" className={styles.hidden} aria-label={t`File to upload`} tabIndex={-1}
              onChange={(e) => {
                const file = e.target.files?.[0]
                e.target.value = ''
                if (file) startUpload(file)
              }}
            />
          </>
        )}
        {remote && actions && !actions.upload && !actions.download && <Text size={200}>{t`You may browse this account's files but not transfer them.`}</Text>}
      </div>
      {upload && (
        <div className={styles.progress}>
          <Field label={t`Uploading ${upload.name}`} validationMessage={`${Math.round(upload.fraction * 100)}%`} validationState="none">
            <ProgressBar value={upload.fraction} max={1} />
          </Field>
          <div><Button size="small" onClick={() => upload.handle.abort()}>{t`Cancel upload`}</Button></div>
        </div>
      )}
      {error && <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar>}
      {loading && !listing && <Spinner label={t`Loading…`} />}
      {listing && (
        <div className={styles.scroll}>
          {listing.truncated && <MessageBar intent="warning"><MessageBarBody>{t`This folder has more entries than can be shown; only the first ones are listed.`}</MessageBarBody></MessageBar>}
          <Table className={styles.table} size="small" aria-label={t`Files in ${listing.path}`}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t`Name`}</TableHeaderCell>
                {remote && <TableHeaderCell>{t`Size`}</TableHeaderCell>}
                {remote && <TableHeaderCell className={styles.wide}>{t`Modified`}</TableHeaderCell>}
                {remote && <TableHeaderCell>{t`Actions`}</TableHeaderCell>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {listing.entries.length === 0 && (
                <TableRow><TableCell colSpan={remote ? 4 : 1}>{listing.level === 'root' ? t`No asset is granted to you for file transfer.` : t`This folder is empty.`}</TableCell></TableRow>
              )}
              {listing.entries.map((e) => {
                const target = joinPath(path, e.name)
                const isDir = e.type === 'dir' || (!remote)
                return (
                  <TableRow key={e.name}>
                    <TableCell className={styles.nameCell}>
                      <span className={styles.name}>
                        {isDir ? <FolderRegular aria-hidden /> : <DocumentRegular aria-hidden />}
                        {isDir
                          ? <Link as="button" onClick={() => go(target)}>{e.name}</Link>
                          : actions?.download && e.type === 'file'
                            ? <Link href={downloadUrl(target)} download={e.name}>{e.name}</Link>
                            : <span>{e.name}</span>}
                      </span>
                    </TableCell>
                    {remote && <TableCell className={styles.nowrap}>{isDir ? '' : formatSize(e.size)}</TableCell>}
                    {remote && <TableCell className={styles.wide}>{e.mtime ? formatDateTime(new Date(e.mtime * 1000)) : ''}</TableCell>}
                    {remote && (
                      <TableCell>
                        <span className={styles.row}>
                          {e.type === 'file' && actions?.download && (
                            <Button as="a" size="small" appearance="subtle" icon={<ArrowDownloadRegular />} href={downloadUrl(target)} download={e.name} aria-label={t`Download ${e.name}`} title={t`Download`} />
                          )}
                          <Button size="small" appearance="subtle" icon={<RenameRegular />} disabled={!actions?.upload} onClick={() => setNaming({ kind: 'rename', entry: e })} aria-label={t`Rename ${e.name}`} title={t`Rename`} />
                          <Button size="small" appearance="subtle" icon={<DeleteRegular />} disabled={!actions?.delete} onClick={() => remove(e)} aria-label={t`Delete ${e.name}`} title={t`Delete`} />
                        </span>
                      </TableCell>
                    )}
                  </TableRow>
                )
              })}
            </TableBody>
          </Table>
        </div>
      )}
      {naming?.kind === 'mkdir' && (
        <NameDialog title={t`New folder`} label={t`Folder name`} initial="" onClose={() => setNaming(undefined)}
          onSubmit={async (name) => {
            await makeFolder(joinPath(path, name))
            await load()
          }} />
      )}
      {naming?.kind === 'rename' && (
        <NameDialog title={t`Rename`} label={t`New name`} initial={naming.entry.name} onClose={() => setNaming(undefined)}
          onSubmit={async (name) => {
            await renameFile(joinPath(path, naming.entry.name), joinPath(path, name))
            await load()
          }} />
      )}
      {confirmDialog}
    </Page>
  )
}
