/**
 * Workbench → Job center → Templates (docs/jobs.md): command templates (picked in the quick job and the job form)
 * and playbooks — created empty or uploaded as a zip, then browsed and edited in the console (a file tree, a YAML
 * editor that is a lazy chunk of its own: CodeMirror 6 with @codemirror/lang-yaml).
 */
import {
  Button, Field, Input, makeStyles, Radio, RadioGroup, Spinner, Tab, TabList, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text,
  Textarea, tokens, Tree, TreeItem, TreeItemLayout,
} from '@fluentui/react-components'
import { AddRegular, DeleteRegular, DocumentRegular, EditRegular, FolderRegular, SaveRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useParams, useSearch } from '@tanstack/react-router'
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import {
  createPlaybook, deleteAdhoc, deletePlaybook, deletePlaybookNode, getAdhoc, getPlaybook, listAdhocs, listPlaybooks, newPlaybookNode, playbookTree,
  readPlaybookFile, saveAdhoc, uploadPlaybook, writePlaybookFile, type Adhoc, type Playbook, type PlaybookNode,
} from '../../../api/jobs.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { RouteLink, useGo } from '../../../ui/common/navigation.tsx'
import { Page } from '../../../ui/common/Page.tsx'

const YamlEditor = lazy(() => import('./YamlEditor.tsx'))
const BASE = '/workbench/ops'

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '960px', minWidth: 0 },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'end' },
  table: { overflowX: 'auto', maxWidth: '100%' },
  mono: { fontFamily: tokens.fontFamilyMonospace, whiteSpace: 'pre-wrap', margin: 0, wordBreak: 'break-all' },
  error: { color: tokens.colorPaletteRedForeground1 },
  workspace: {
    display: 'grid', gridTemplateColumns: 'minmax(200px, 260px) minmax(0, 1fr)', gap: tokens.spacingHorizontalL, alignItems: 'start',
    '@media (max-width: 720px)': { gridTemplateColumns: '1fr' },
  },
  editor: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
})

const methodOf = (p: Playbook) => (typeof p.create_method === 'object' ? p.create_method.value : p.create_method)

// --------------------------------------------------------------------------------------------- templates list

export function TemplatesPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const search = useSearch({ strict: false }) as { tab?: string }
  const [tab, setTab] = useState(search.tab === 'playbook' ? 'playbook' : 'adhoc')
  const [adhocs, setAdhocs] = useState<Adhoc[]>([])
  const [playbooks, setPlaybooks] = useState<Playbook[]>([])
  const [error, setError] = useState('')
  const load = useCallback(() => {
    listAdhocs().then(setAdhocs, (e: unknown) => setError(describeError(e)))
    listPlaybooks().then(setPlaybooks, (e: unknown) => setError(describeError(e)))
  }, [])
  useEffect(load, [load])
  const remove = async (question: string, del: () => Promise<unknown>) => {
    if (!window.confirm(question)) return
    try {
      await del()
      load()
    } catch (e) {
      setError(describeError(e))
    }
  }
  return (
    <Page title={t`Templates`} back={false}
      actions={tab === 'adhoc'
        ? <Button appearance="primary" icon={<AddRegular />} onClick={() => go(`${BASE}/adhoc/create`)}>{t`Create command`}</Button>
        : <Button appearance="primary" icon={<AddRegular />} onClick={() => go(`${BASE}/playbook/create`)}>{t`Create playbook`}</Button>}>
      <div className={styles.stack}>
        <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(String(d.value))}>
          <Tab value="adhoc">{t`Commands`}</Tab>
          <Tab value="playbook">{t`Playbooks`}</Tab>
        </TabList>
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        <div className={styles.table}>
          {tab === 'adhoc' ? (
            <Table aria-label={t`Commands`} size="small">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t`Name`}</TableHeaderCell>
                  <TableHeaderCell>{t`Command`}</TableHeaderCell>
                  <TableHeaderCell>{t`Actions`}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {adhocs.map((a) => (
                  <TableRow key={a.id}>
                    <TableCell><RouteLink to={`${BASE}/adhoc/${a.id}/update`}>{a.name}</RouteLink></TableCell>
                    <TableCell><span className={styles.mono}>{a.args}</span></TableCell>
                    <TableCell>
                      <Button size="small" appearance="subtle" icon={<DeleteRegular />} aria-label={t`Delete ${a.name}`} onClick={() => void remove(t`Delete the command ${a.name}?`, () => deleteAdhoc(a.id))} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <Table aria-label={t`Playbooks`} size="small">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t`Name`}</TableHeaderCell>
                  <TableHeaderCell>{t`Create method`}</TableHeaderCell>
                  <TableHeaderCell>{t`Comment`}</TableHeaderCell>
                  <TableHeaderCell>{t`Actions`}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {playbooks.map((p) => (
                  <TableRow key={p.id}>
                    <TableCell><RouteLink to={`${BASE}/playbook/${p.id}`}>{p.name}</RouteLink></TableCell>
                    <TableCell>{methodOf(p) === 'upload' ? t`Upload` : t`Blank`}</TableCell>
                    <TableCell>{p.comment}</TableCell>
                    <TableCell>
                      <Button size="small" appearance="subtle" icon={<EditRegular />} aria-label={t`Edit ${p.name}`} onClick={() => go(`${BASE}/playbook/${p.id}`)} />
                      <Button size="small" appearance="subtle" icon={<DeleteRegular />} aria-label={t`Delete ${p.name}`} onClick={() => void remove(t`Delete the playbook ${p.name}?`, () => deletePlaybook(p.id))} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
      </div>
    </Page>
  )
}

// --------------------------------------------------------------------------------------------- command form

export function AdhocFormPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const { id } = useParams({ strict: false }) as { id?: string }
  const [name, setName] = useState('')
  const [args, setArgs] = useState('')
  const [comment, setComment] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState('')
  useEffect(() => {
    if (id) getAdhoc(id).then((a) => { setName(a.name); setArgs(a.args); setComment(a.comment) }, (e: unknown) => setError(describeError(e)))
  }, [id])
  const save = async () => {
    setErrors({})
    setError('')
    try {
      await saveAdhoc({ name, args, comment, module: 'shell' }, id)
      go(`${BASE}/templates`)
    } catch (e) {
      setErrors(fieldErrors(e))
      setError(describeError(e))
    }
  }
  const fe = (k: string) => (errors[k] ? { validationMessage: errors[k], validationState: 'error' as const } : {})
  return (
    <Page title={id ? t`Update command` : t`Create command`}>
      <form className={styles.stack} onSubmit={(e) => { e.preventDefault(); void save() }}>
        <Field label={t`Name`} required {...fe('name')}><Input value={name} onChange={(_, d) => setName(d.value)} /></Field>
        <Field label={t`Command`} required {...fe('args')}><Textarea className={styles.mono} rows={5} value={args} onChange={(_, d) => setArgs(d.value)} /></Field>
        <Field label={t`Comment`} {...fe('comment')}><Textarea value={comment} onChange={(_, d) => setComment(d.value)} /></Field>
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        <div className={styles.row}><Button type="submit" appearance="primary">{t`Save`}</Button></div>
      </form>
    </Page>
  )
}

function fieldErrors(e: unknown): Record<string, string> {
  const data = (e as { fieldErrors?: Record<string, unknown> }).fieldErrors
  return data ? Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Array.isArray(v) ? v.join(' ') : String(v)])) : {}
}

// ------------------------------------------------------------------------------------------ playbook create

export function PlaybookCreatePage() {
  const { t } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const [method, setMethod] = useState<'blank' | 'upload'>('blank')
  const [name, setName] = useState('')
  const [comment, setComment] = useState('')
  const [file, setFile] = useState<File | undefined>()
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const save = async () => {
    setErrors({})
    setError('')
    setBusy(true)
    try {
      const p = method === 'upload' && file ? await uploadPlaybook(file, name) : await createPlaybook(name, comment)
      go(`${BASE}/playbook/${p.id}`)
    } catch (e) {
      setErrors(fieldErrors(e))
      setError(describeError(e))
    } finally {
      setBusy(false)
    }
  }
  const fe = (k: string) => (errors[k] ? { validationMessage: errors[k], validationState: 'error' as const } : {})
  return (
    <Page title={t`Create playbook`}>
      <form className={styles.stack} onSubmit={(e) => { e.preventDefault(); void save() }}>
        <Field label={t`Create method`}>
          <RadioGroup layout="horizontal" value={method} onChange={(_, d) => setMethod(d.value as 'blank' | 'upload')}>
            <Radio value="blank" label={t`Blank`} />
            <Radio value="upload" label={t`Upload a zip`} />
          </RadioGroup>
        </Field>
        <Field label={t`Name`} required={method === 'blank'} hint={method === 'upload' ? t`Empty: the zip's name` : undefined} {...fe('name')}>
          <Input value={name} onChange={(_, d) => setName(d.value)} />
        </Field>
        {method === 'upload' && (
          <Field label={t`Zip file`} required hint={t`At most 5 MB; main.yml at its top (or in its one folder)`} {...fe('path')}>
            <input type="file" accept=".zip,application/zip" onChange={(e) => setFile(e.target.files?.[0])} />
          </Field>
        )}
        <Field label={t`Comment`}><Textarea value={comment} onChange={(_, d) => setComment(d.value)} /></Field>
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        <div className={styles.row}><Button type="submit" appearance="primary" disabled={busy || (method === 'upload' && !file)}>{t`Save`}</Button></div>
      </form>
    </Page>
  )
}

// ------------------------------------------------------------------------------------------ playbook editor

export function PlaybookEditorPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const { id = '' } = useParams({ strict: false }) as { id?: string }
  const [playbook, setPlaybook] = useState<Playbook | undefined>()
  const [nodes, setNodes] = useState<PlaybookNode[]>([])
  const [open, setOpen] = useState<string>('main.yml')
  const [content, setContent] = useState<string | undefined>()
  const [saved, setSaved] = useState('')
  const [newName, setNewName] = useState('')
  const [error, setError] = useState('')
  const [notice, setNotice] = useState('')
  const loadTree = useCallback(() => playbookTree(id).then(setNodes, (e: unknown) => setError(describeError(e))), [id])
  useEffect(() => {
    getPlaybook(id).then(setPlaybook, (e: unknown) => setError(describeError(e)))
    void loadTree()
  }, [id, loadTree])
  useEffect(() => {
    setContent(undefined)
    readPlaybookFile(id, open).then((c) => { setContent(c); setSaved(c) }, (e: unknown) => setError(describeError(e)))
  }, [id, open])
  const dirty = content !== undefined && content !== saved
  const save = async () => {
    if (content === undefined) return
    setError('')
    try {
      await writePlaybookFile(id, open, content)
      setSaved(content)
      setNotice(t`Saved ${open}`)
    } catch (e) {
      setError(describeError(e))
    }
  }
  const parentOfOpen = useMemo(() => {
    const n = nodes.find((x) => x.id === open)
    return n?.isParent ? n.id : n?.pId ?? 'root'
  }, [nodes, open])
  const add = async (dir: boolean) => {
    setError('')
    try {
      const n = await newPlaybookNode(id, parentOfOpen, newName.trim(), dir)
      setNewName('')
      await loadTree()
      if (!dir) setOpen(n.id)
    } catch (e) {
      setError(describeError(e))
    }
  }
  const remove = async () => {
    if (!window.confirm(t`Delete ${open}?`)) return
    try {
      await deletePlaybookNode(id, open)
      setOpen('main.yml')
      await loadTree()
    } catch (e) {
      setError(describeError(e))
    }
  }
  const children = (parent: string): ReactNode => nodes.filter((n) => n.pId === parent).map((n) => (
    <TreeItem key={n.id} itemType={n.isParent ? 'branch' : 'leaf'} value={n.id} aria-current={n.id === open ? 'true' : undefined}>
      <TreeItemLayout iconBefore={n.isParent ? <FolderRegular /> : <DocumentRegular />} onClick={() => { if (!n.isParent) setOpen(n.id) }}
        style={n.id === open ? { fontWeight: 600 } : undefined}>{n.name}</TreeItemLayout>
      {n.isParent && <Tree>{children(n.id)}</Tree>}
    </TreeItem>
  ))
  const openDirs = nodes.filter((n) => n.isParent && n.id !== 'root').map((n) => n.id)
  return (
    <Page title={playbook ? t`Playbook: ${playbook.name}` : t`Playbook details`}>
      <div className={styles.stack}>
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        <div className={styles.workspace}>
          <div className={styles.stack}>
            <Tree aria-label={t`Files`} defaultOpenItems={openDirs} key={openDirs.join('|')}>{children('root')}</Tree>
            <Field label={t`New file or folder in ${parentOfOpen === 'root' ? '/' : parentOfOpen}`}>
              <Input value={newName} onChange={(_, d) => setNewName(d.value)} placeholder="tasks.yml" />
            </Field>
            <div className={styles.row}>
              <Button size="small" icon={<DocumentRegular />} onClick={() => void add(false)}>{t`New file`}</Button>
              <Button size="small" icon={<FolderRegular />} onClick={() => void add(true)}>{t`New folder`}</Button>
            </div>
          </div>
          <div className={styles.editor}>
            <div className={styles.row}>
              <Text weight="semibold">{open}{dirty ? ' ●' : ''}</Text>
              <Button appearance="primary" size="small" icon={<SaveRegular />} disabled={!dirty} onClick={() => void save()}>{t`Save`}</Button>
              <Button size="small" icon={<DeleteRegular />} disabled={open === 'main.yml'} onClick={() => void remove()}>{t`Delete`}</Button>
              <Text role="status" aria-live="polite">{notice}</Text>
            </div>
            {content === undefined ? <Spinner size="small" label={t`Loading`} /> : (
              <Suspense fallback={<Spinner size="small" label={t`Loading the editor`} />}>
                <YamlEditor key={open} value={content} onChange={(v) => { setContent(v); setNotice('') }} label={t`Content of ${open}`} />
              </Suspense>
            )}
          </div>
        </div>
      </div>
    </Page>
  )
}
