/**
 * Workbench → Job center → Quick job: pick granted assets (search, the granted node tree, selection counts), write a
 * shell command (with a history of the last ones), choose the account (runas and its policy), Run and Stop, watch
 * the output live in a terminal-like panel, then read the per-asset results. The server expands and checks
 * everything again (docs/jobs.md): the page never decides what may run.
 */
import { Button, Checkbox, Combobox, Dropdown, Field, Input, makeStyles, Option, Text, Textarea, tokens } from '@fluentui/react-components'
import { DismissRegular, PlayRegular, StopRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useRef, useState } from 'react'
import { assetResults, executionDetail, frequentUsernames, listAdhocs, runQuickJob, stopExecution, type Adhoc, type AssetResult, type ExecutionDetail, type RunasPolicy } from '../../../api/jobs.ts'
import { MY_ASSETS_URL, MY_NODE_TREE_URL } from '../../../api/perms.ts'
import { listResources, type Row } from '../../../api/resources.ts'
import { followTaskLog } from '../../../api/tasks.ts'
import { fetchTreeLevel, type TreeItem } from '../../../api/tree.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { Page } from '../../../ui/common/Page.tsx'
import { LazyTree } from '../../../ui/tree/LazyTree.tsx'
import { JobOutput, type JobOutputHandle } from './JobOutput.tsx'
import { ResultsTable, StatusBadge } from './results.tsx'

const HISTORY_KEY = 'jobs.quick.history'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const HISTORY_MAX = 20

const useStyles = makeStyles({
  layout: { display: 'grid', gridTemplateColumns: 'minmax(240px, 320px) minmax(0, 1fr)', gap: tokens.spacingHorizontalL, alignItems: 'start', '@media (max-width: 720px)': { gridTemplateColumns: '1fr' } },
  column: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  assets: { maxHeight: '280px', overflowY: 'auto', display: 'flex', flexDirection: 'column' },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'end' },
  chips: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  error: { color: tokens.colorPaletteRedForeground1 },
  command: { fontFamily: tokens.fontFamilyMonospace },
})

function loadHistory(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '[]') as unknown
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, HISTORY_MAX) : []
  } catch {
    return []
  }
}

/** The task runner's own "Task … received / succeeded" lines are not the job's output (lina strips them too). */
const withoutRunnerLines = (text: string) => text.split('\n').filter((l) => !/^Task ops\.tasks\.run_ops_job_execution\[/.test(l)).join('\n')

export function QuickJobPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const [search, setSearch] = useState('')
  const [assets, setAssets] = useState<Row[]>([])
  const [total, setTotal] = useState(0)
  const [selected, setSelected] = useState<Map<string, string>>(new Map())
  const [nodes, setNodes] = useState<Map<string, string>>(new Map())
  const [command, setCommand] = useState('')
  const [history, setHistory] = useState<string[]>(loadHistory)
  const [runas, setRunas] = useState('root')
  const [usernames, setUsernames] = useState<string[]>([])
  const [policy, setPolicy] = useState<RunasPolicy>('skip')
  const [taskId, setTaskId] = useState<string | undefined>()
  const [running, setRunning] = useState(false)
  const [error, setError] = useState('')
  const [detail, setDetail] = useState<ExecutionDetail | undefined>()
  const [results, setResults] = useState<AssetResult[]>([])
  const output = useRef<JobOutputHandle>(null)
  const stopFollow = useRef<(() => void) | undefined>(undefined)

  const policies: Array<{ value: RunasPolicy; label: string }> = [
    { value: 'skip', label: t`Skip` },
    { value: 'privileged_first', label: t`Privileged first` },
    { value: 'privileged_only', label: t`Privileged only` },
  ]

  useEffect(() => {
    const ctl = new AbortController()
    const timer = setTimeout(() => {
      listResources(MY_ASSETS_URL, { search, limit: 100, offset: 0 }, { signal: ctl.signal }).then((p) => {
        setAssets(p.results)
        setTotal(p.count)
      }, (e: unknown) => { if (!ctl.signal.aborted) setError(describeError(e)) })
    }, 200)
    return () => {
      clearTimeout(timer)
      ctl.abort()
    }
  }, [search])
  useEffect(() => { void frequentUsernames().then(setUsernames, () => undefined) }, [])
  const [templates, setTemplates] = useState<Adhoc[]>([])
  useEffect(() => { void listAdhocs().then(setTemplates, () => undefined) }, [])
  useEffect(() => () => stopFollow.current?.(), [])

  const loadTree = useCallback((parent?: TreeItem) => fetchTreeLevel(MY_NODE_TREE_URL, parent ? { key: parent.id } : {}), [])
  const toggleAsset = (row: Row, on: boolean) => setSelected((prev) => {
    const next = new Map(prev)
    if (on) next.set(String(row.id), String(row.name))
    else next.delete(String(row.id))
    return next
  })
  const toggleNode = (item: TreeItem) => setNodes((prev) => {
    const next = new Map(prev)
    const id = String(item.data.id ?? item.id)
    // (the Favorite entry of the tree is not a node)
    if (!UUID.test(id)) return prev
    if (next.has(id)) next.delete(id)
    else next.set(id, item.title)
    return next
  })

  const finished = async (id: string) => {
    setRunning(false)
    try {
      setDetail(await executionDetail(id))
      setResults(await assetResults(id))
    } catch (e) {
      setError(describeError(e))
    }
  }

  const run = async () => {
    setError('')
    setDetail(undefined)
    setResults([])
    output.current?.clear()
    const cmd = command.trim()
    try {
      const id = await runQuickJob({ assets: [...selected.keys()], nodes: [...nodes.keys()], args: cmd, runas, runas_policy: policy })
      const h = [cmd, ...history.filter((x) => x !== cmd)].slice(0, HISTORY_MAX)
      setHistory(h)
      localStorage.setItem(HISTORY_KEY, JSON.stringify(h))
      setTaskId(id)
      setRunning(true)
      stopFollow.current?.()
      stopFollow.current = followTaskLog(id, 'ansible', (e) => {
        if (e.kind === 'text') output.current?.write(withoutRunnerLines(e.text))
        else if (e.kind === 'reset') output.current?.clear()
        else if (e.kind === 'end') void finished(id)
        else if (e.kind === 'error') {
          setError(describeError(e.error))
          setRunning(false)
        }
      })
    } catch (e) {
      setError(describeError(e))
    }
  }

  const stop = async () => {
    if (!taskId) return
    try {
      await stopExecution(taskId)
    } catch (e) {
      setError(describeError(e))
    }
  }

  const nothingSelected = selected.size === 0 && nodes.size === 0

  return (
    <Page title={t`Quick job`} back={false}>
      <div className={styles.layout}>
        <section className={styles.column} aria-label={t`Assets`}>
          <Input type="search" value={search} onChange={(_, d) => setSearch(d.value)} placeholder={t`Search assets`} aria-label={t`Search assets`} />
          <Text role="status">{t`${selected.size} assets and ${nodes.size} nodes selected`} · {t`${total} granted`}</Text>
          <div className={styles.assets}>
            {assets.map((a) => (
              <Checkbox key={String(a.id)} checked={selected.has(String(a.id))} onChange={(_, d) => toggleAsset(a, d.checked === true)}
                label={`${String(a.name)} (${String(a.address ?? '')})`} />
            ))}
          </div>
          <Text weight="semibold">{t`Nodes (select to add or remove)`}</Text>
          <LazyTree label={t`Granted node tree`} load={loadTree} onSelect={toggleNode} />
          {(nodes.size > 0 || selected.size > 0) && (
            <div className={styles.chips}>
              {[...nodes].map(([id, name]) => (
                <Button key={id} size="small" icon={<DismissRegular />} iconPosition="after" aria-label={t`Remove node ${name}`}
                  onClick={() => setNodes((p) => { const n = new Map(p); n.delete(id); return n })}>{name}</Button>
              ))}
            </div>
          )}
        </section>
        <section className={styles.column} aria-label={t`Command`}>
          <Field label={t`Command`} required>
            <Textarea className={styles.command} value={command} onChange={(_, d) => setCommand(d.value)} rows={4} resize="vertical"
              onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !running && command.trim() && !nothingSelected) void run() }} />
          </Field>
          <div className={styles.row}>
            <Field label={t`History`}>
              <Dropdown placeholder={t`Run a previous command`} disabled={!history.length} value="" selectedOptions={[]}
                onOptionSelect={(_, d) => setCommand(d.optionValue ?? '')}>
                {history.map((h) => <Option key={h} value={h}>{h}</Option>)}
              </Dropdown>
            </Field>
            <Field label={t`Template`}>
              <Dropdown placeholder={t`Open a command template`} disabled={!templates.length} value="" selectedOptions={[]}
                onOptionSelect={(_, d) => setCommand(templates.find((x) => x.id === d.optionValue)?.args ?? command)}>
                {templates.map((x) => <Option key={x.id} value={x.id}>{x.name}</Option>)}
              </Dropdown>
            </Field>
            <Field label={t`Run as`}>
              <Combobox freeform value={runas} onChange={(e) => setRunas(e.target.value)} onOptionSelect={(_, d) => setRunas(d.optionValue ?? runas)}>
                {usernames.map((u) => <Option key={u} value={u}>{u}</Option>)}
              </Combobox>
            </Field>
            <Field label={t`Account policy`}>
              <Dropdown value={policies.find((p) => p.value === policy)?.label} selectedOptions={[policy]} onOptionSelect={(_, d) => setPolicy((d.optionValue as RunasPolicy) ?? 'skip')}>
                {policies.map((p) => <Option key={p.value} value={p.value}>{p.label}</Option>)}
              </Dropdown>
            </Field>
            <Button appearance="primary" icon={<PlayRegular />} disabled={running || !command.trim() || nothingSelected} onClick={() => void run()}>{t`Run`}</Button>
            <Button icon={<StopRegular />} disabled={!running} onClick={() => void stop()}>{t`Stop`}</Button>
          </div>
          {error && <Text role="alert" className={styles.error}>{error}</Text>}
          <JobOutput ref={output} label={t`Output`} />
          {detail && (
            <Text role="status">
              {t`Status`}: <StatusBadge status={detail.status} /> · {t`Time cost`}: {detail.time_cost.toFixed(2)} s
              {detail.summary.error ? ` · ${detail.summary.error}` : ''}
            </Text>
          )}
          {results.length > 0 && <ResultsTable results={results} />}
        </section>
      </div>
    </Page>
  )
}
