/**
 * Workbench → Job center → Jobs and Execution history (docs/jobs.md): saved jobs (a command or a playbook, on
 * granted assets, as an account, run now or on a schedule), each job's versions and executions, an execution's
 * status, time cost, per-asset results and log. The server checks and expands everything again.
 */
import { Button, Checkbox, Dropdown, Field, Input, makeStyles, Option, Radio, RadioGroup, Switch, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, Textarea, tokens } from '@fluentui/react-components'
import { AddRegular, DeleteRegular, DismissRegular, EditRegular, PlayRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import {
  assetResults, deleteJob, getExecution, getJob, listAdhocs, listExecutions, listJobs, listPlaybooks, parametersOf, stopExecution, createJob, updateJob,
  type Adhoc, type AssetResult, type Execution, type Job, type JobInput, type Playbook, type RunasPolicy,
} from '../../../api/jobs.ts'
import { MY_ASSETS_URL, MY_NODE_TREE_URL } from '../../../api/perms.ts'
import { listResources, type Row } from '../../../api/resources.ts'
import { followTaskLog } from '../../../api/tasks.ts'
import { fetchTreeLevel, type TreeItem } from '../../../api/tree.ts'
import { LazyTree } from '../../../ui/tree/LazyTree.tsx'
import { defineOf, ParametersEditor, rowsOf, useRunJob, type ParameterRow } from './parameters.tsx'
import { describeError } from '../../../ui/common/errors.ts'
import { RouteLink, useGo } from '../../../ui/common/navigation.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { formatMoment } from '../../../ui/table/formatters.ts'
import { JobOutput, type JobOutputHandle } from './JobOutput.tsx'
import { ResultsTable, StatusBadge } from './results.tsx'

const BASE = '/workbench/ops'

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '960px', minWidth: 0 },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'end' },
  assets: { maxHeight: '240px', overflowY: 'auto', display: 'flex', flexDirection: 'column', border: `1px solid ${tokens.colorNeutralStroke2}`, padding: tokens.spacingHorizontalS },
  table: { overflowX: 'auto', maxWidth: '100%' },
  mono: { fontFamily: tokens.fontFamilyMonospace, whiteSpace: 'pre-wrap', margin: 0, wordBreak: 'break-all' },
  error: { color: tokens.colorPaletteRedForeground1 },
  dl: { display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalL}`, margin: 0, '& dd': { margin: 0 } },
  chips: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  targets: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  column: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  plain: { margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
})

const when = (v: string | null | undefined) => (v ? formatMoment(v) : '—')

// ------------------------------------------------------------------------------------------------ job list

export function JobListPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const [jobs, setJobs] = useState<Job[] | undefined>()
  const [search, setSearch] = useState('')
  const [error, setError] = useState('')
  const load = (q = search) => listJobs({ search: q }).then(setJobs, (e: unknown) => setError(describeError(e)))
  useEffect(() => {
    const timer = setTimeout(() => void load(search), 200)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search])
  const [runDialog, run] = useRunJob((r) => go(`${BASE}/executions/${r.id}`), setError)
  const remove = async (job: Job) => {
    if (!window.confirm(t`Delete the job ${job.name}?`)) return
    try {
      await deleteJob(job.id)
      await load()
    } catch (e) {
      setError(describeError(e))
    }
  }
  return (
    <Page title={t`Jobs`} back={false} actions={<Button appearance="primary" icon={<AddRegular />} onClick={() => go(`${BASE}/job/create`)}>{t`Create job`}</Button>}>
      {runDialog}
      <div className={styles.stack}>
        <Input type="search" value={search} onChange={(_, d) => setSearch(d.value)} placeholder={t`Search`} aria-label={t`Search jobs`} />
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        <div className={styles.table}>
          <Table aria-label={t`Jobs`} size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t`Name`}</TableHeaderCell>
                <TableHeaderCell>{t`Type`}</TableHeaderCell>
                <TableHeaderCell>{t`Content`}</TableHeaderCell>
                <TableHeaderCell>{t`Schedule`}</TableHeaderCell>
                <TableHeaderCell>{t`Version`}</TableHeaderCell>
                <TableHeaderCell>{t`Actions`}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {jobs?.map((j) => (
                <TableRow key={j.id}>
                  <TableCell><RouteLink to={`${BASE}/job/${j.id}`}>{j.name}</RouteLink></TableCell>
                  <TableCell>{j.type === 'playbook' ? t`Playbook` : t`Command`}</TableCell>
                  <TableCell><span className={styles.mono}>{j.type === 'playbook' ? 'main.yml' : j.args}</span></TableCell>
                  <TableCell>{j.is_periodic ? (j.crontab || t`Every ${j.interval ?? 0} h`) : t`None`}</TableCell>
                  <TableCell>{j.version}</TableCell>
                  <TableCell>
                    <Button size="small" appearance="subtle" icon={<PlayRegular />} aria-label={t`Run ${j.name}`} onClick={() => void run(j)}>{t`Run`}</Button>
                    <Button size="small" appearance="subtle" icon={<EditRegular />} aria-label={t`Update ${j.name}`} onClick={() => go(`${BASE}/job/${j.id}/update`)} />
                    <Button size="small" appearance="subtle" icon={<DeleteRegular />} aria-label={t`Delete ${j.name}`} onClick={() => void remove(j)} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {jobs && !jobs.length && <Text>{t`No jobs yet.`}</Text>}
        </div>
      </div>
    </Page>
  )
}

// ------------------------------------------------------------------------------------------------ job form

export function JobFormPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const { id } = useParams({ strict: false }) as { id?: string }
  const [job, setJob] = useState<JobInput>({
    name: '', type: 'adhoc', args: '', playbook: null, assets: [], nodes: [], runas: 'root', runas_policy: 'skip', timeout: -1, chdir: '', comment: '',
    is_periodic: false, interval: null, crontab: '', use_parameter_define: false, parameters_define: {},
  })
  const [params, setParams] = useState<ParameterRow[]>([])
  /** The chosen nodes' names (the saved job's from its detail, new ones from the tree). */
  const [nodeNames, setNodeNames] = useState<Map<string, string>>(new Map())
  const [scheduleKind, setScheduleKind] = useState<'crontab' | 'interval'>('crontab')
  const [assets, setAssets] = useState<Row[]>([])
  const [search, setSearch] = useState('')
  const [names, setNames] = useState<Map<string, string>>(new Map())
  const [playbooks, setPlaybooks] = useState<Playbook[]>([])
  const [templates, setTemplates] = useState<Adhoc[]>([])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState('')
  const [saving, setSaving] = useState(false)
  const set = <K extends keyof JobInput>(k: K, v: JobInput[K]) => setJob((j) => ({ ...j, [k]: v }))

  useEffect(() => {
    void listPlaybooks().then(setPlaybooks, () => undefined)
    void listAdhocs().then(setTemplates, () => undefined)
    if (id) {
      getJob(id).then((j) => {
        const define = parametersOf(j)
        setJob({ ...j, playbook: j.playbook, parameters_define: define })
        setParams(rowsOf(define))
        setNodeNames(new Map((j.nodes_display ?? []).map((n) => [n.id, n.full_value || n.name])))
        setNames((prev) => new Map([...prev, ...(j.assets_display ?? []).map((a) => [a.id, a.name] as [string, string])]))
        setScheduleKind(j.crontab || !j.interval ? 'crontab' : 'interval')
      }, (e: unknown) => setError(describeError(e)))
    }
  }, [id])
  useEffect(() => {
    const ctl = new AbortController()
    const timer = setTimeout(() => {
      listResources(MY_ASSETS_URL, { search, limit: 100, offset: 0 }, { signal: ctl.signal }).then((p) => {
        setAssets(p.results)
        setNames((prev) => new Map([...prev, ...p.results.map((a) => [String(a.id), String(a.name)] as [string, string])]))
      }, () => undefined)
    }, 200)
    return () => {
      clearTimeout(timer)
      ctl.abort()
    }
  }, [search])

  // Once saved, the job's page is where a run that did not start (or was not asked for after all) leads.
  const savedId = useRef('')
  const [runDialog, runSaved] = useRunJob((r) => go(`${BASE}/executions/${r.id}`), () => go(`${BASE}/job/${savedId.current}`), () => go(`${BASE}/job/${savedId.current}`))
  const loadTree = useCallback((parent?: TreeItem) => fetchTreeLevel(MY_NODE_TREE_URL, parent ? { key: parent.id } : {}), [])
  const toggleNode = (item: TreeItem) => {
    const nodeId = String(item.data.id ?? item.id)
    // (the Favorite entry of the tree is not a node)
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(nodeId)) return
    setNodeNames((prev) => new Map(prev).set(nodeId, item.title))
    setJob((j) => ({ ...j, nodes: j.nodes.includes(nodeId) ? j.nodes.filter((n) => n !== nodeId) : [...j.nodes, nodeId] }))
  }

  const save = async (runAfter: boolean) => {
    setSaving(true)
    setErrors({})
    setError('')
    const define = defineOf(params)
    const body: JobInput = {
      ...job, crontab: job.is_periodic && scheduleKind === 'crontab' ? job.crontab : '',
      interval: job.is_periodic && scheduleKind === 'interval' ? job.interval : null,
      use_parameter_define: params.length > 0, parameters_define: define,
    }
    try {
      // Saved first; a run then asks the parameters' values (the dialog) when there are any.
      const saved = id ? await updateJob(id, body) : await createJob(body)
      savedId.current = saved.id
      if (runAfter) await runSaved(saved)
      else go(`${BASE}/job/${saved.id}`)
    } catch (e) {
      const data = (e as { data?: unknown }).data
      if (data && typeof data === 'object' && !Array.isArray(data)) {
        setErrors(Object.fromEntries(Object.entries(data as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.join(' ') : String(v)])))
      }
      setError(describeError(e))
    } finally {
      setSaving(false)
    }
  }
  const fieldError = (k: string) => (errors[k] ? { validationMessage: errors[k], validationState: 'error' as const } : {})
  const policies: Array<{ value: RunasPolicy; label: string }> = [
    { value: 'skip', label: t`Skip` }, { value: 'privileged_first', label: t`Privileged first` }, { value: 'privileged_only', label: t`Privileged only` },
  ]
  const toggle = (assetId: string, on: boolean) => set('assets', on ? [...new Set([...job.assets, assetId])] : job.assets.filter((a) => a !== assetId))

  return (
    <Page title={id ? t`Update job` : t`Create job`}>
      {runDialog}
      <form className={styles.stack} onSubmit={(e) => { e.preventDefault(); void save(false) }}>
        <Field label={t`Name`} required {...fieldError('name')}>
          <Input value={job.name} onChange={(_, d) => set('name', d.value)} />
        </Field>
        <Field label={t`Type`}>
          <RadioGroup layout="horizontal" value={job.type} onChange={(_, d) => set('type', d.value as Job['type'])}>
            <Radio value="adhoc" label={t`Command`} />
            <Radio value="playbook" label={t`Playbook`} />
          </RadioGroup>
        </Field>
        {job.type === 'adhoc' ? (
          <>
            <Field label={t`Template`}>
              <Dropdown placeholder={t`Fill in from a command template`} disabled={!templates.length} value="" selectedOptions={[]}
                onOptionSelect={(_, d) => set('args', templates.find((x) => x.id === d.optionValue)?.args ?? job.args)}>
                {templates.map((x) => <Option key={x.id} value={x.id}>{x.name}</Option>)}
              </Dropdown>
            </Field>
            <Field label={t`Command`} required {...fieldError('args')}>
              <Textarea className={styles.mono} value={job.args} onChange={(_, d) => set('args', d.value)} rows={4} resize="vertical" />
            </Field>
          </>
        ) : (
          <Field label={t`Playbook`} required {...fieldError('playbook')}>
            <Dropdown placeholder={t`Choose a playbook`} value={playbooks.find((p) => p.id === job.playbook)?.name ?? ''} selectedOptions={job.playbook ? [job.playbook] : []}
              onOptionSelect={(_, d) => set('playbook', d.optionValue ?? null)}>
              {playbooks.map((p) => <Option key={p.id} value={p.id}>{p.name}</Option>)}
            </Dropdown>
          </Field>
        )}
        <div className={styles.targets}>
          <div className={styles.column}>
            <Field label={t`Assets`} {...fieldError('assets')} hint={t`${job.assets.length} selected`}>
              <Input type="search" value={search} onChange={(_, d) => setSearch(d.value)} placeholder={t`Search assets`} aria-label={t`Search assets`} />
            </Field>
            <div className={styles.assets} role="group" aria-label={t`Granted assets`}>
              {job.assets.filter((a) => !assets.some((x) => String(x.id) === a)).map((a) => (
                <Checkbox key={a} checked onChange={() => toggle(a, false)} label={names.get(a) ?? a} />
              ))}
              {assets.map((a) => (
                <Checkbox key={String(a.id)} checked={job.assets.includes(String(a.id))} onChange={(_, d) => toggle(String(a.id), d.checked === true)}
                  label={`${String(a.name)} (${String(a.address ?? '')})`} />
              ))}
            </div>
          </div>
          <div className={styles.column}>
            <Field label={t`Nodes`} {...fieldError('nodes')} hint={t`Select a node to add or remove it: each run takes the assets granted to you under it then.`}>
              <div className={styles.chips} role="group" aria-label={t`Chosen nodes`}>
                {job.nodes.length === 0 && <Text>{t`No node chosen`}</Text>}
                {job.nodes.map((n) => (
                  <Button key={n} size="small" icon={<DismissRegular />} iconPosition="after" aria-label={t`Remove node ${nodeNames.get(n) ?? n}`}
                    onClick={() => set('nodes', job.nodes.filter((x) => x !== n))}>{nodeNames.get(n) ?? n}</Button>
                ))}
              </div>
            </Field>
            <LazyTree label={t`Granted node tree`} load={loadTree} onSelect={toggleNode} />
          </div>
        </div>
        <div className={styles.row}>
          <Field label={t`Run as`} required {...fieldError('runas')}>
            <Input value={job.runas} onChange={(_, d) => set('runas', d.value)} />
          </Field>
          <Field label={t`Account policy`} {...fieldError('runas_policy')}>
            <Dropdown value={policies.find((p) => p.value === job.runas_policy)?.label} selectedOptions={[job.runas_policy]}
              onOptionSelect={(_, d) => set('runas_policy', (d.optionValue as RunasPolicy) ?? 'skip')}>
              {policies.map((p) => <Option key={p.value} value={p.value}>{p.label}</Option>)}
            </Dropdown>
          </Field>
          <Field label={t`Timeout (s)`} hint={t`-1: the default`} {...fieldError('timeout')}>
            <Input type="number" value={String(job.timeout)} onChange={(_, d) => set('timeout', Number.parseInt(d.value, 10) || -1)} />
          </Field>
        </div>
        <ParametersEditor rows={params} onChange={setParams} error={errors.parameters_define ?? errors.parameters} kind={job.type} />
        <Switch checked={job.is_periodic} onChange={(_, d) => set('is_periodic', d.checked)} label={t`Run on a schedule`} />
        {job.is_periodic && (
          <div className={styles.row}>
            <Field label={t`Schedule`}>
              <RadioGroup layout="horizontal" value={scheduleKind} onChange={(_, d) => setScheduleKind(d.value as 'crontab' | 'interval')}>
                <Radio value="crontab" label={t`Crontab`} />
                <Radio value="interval" label={t`Interval`} />
              </RadioGroup>
            </Field>
            {scheduleKind === 'crontab' ? (
              <Field label={t`Crontab`} hint={t`Five fields: minute hour day month weekday`} {...fieldError('crontab')}>
                <Input className={styles.mono} value={job.crontab} onChange={(_, d) => set('crontab', d.value)} placeholder="0 3 * * *" />
              </Field>
            ) : (
              <Field label={t`Interval (hours)`} {...fieldError('interval')}>
                <Input type="number" value={job.interval === null ? '' : String(job.interval)} onChange={(_, d) => set('interval', d.value ? Number.parseInt(d.value, 10) : null)} />
              </Field>
            )}
          </div>
        )}
        <Field label={t`Comment`}>
          <Textarea value={job.comment} onChange={(_, d) => set('comment', d.value)} />
        </Field>
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        <div className={styles.row}>
          <Button type="submit" appearance="primary" disabled={saving}>{t`Save`}</Button>
          <Button disabled={saving} onClick={() => void save(true)}>{t`Save and run`}</Button>
        </div>
      </form>
    </Page>
  )
}

// ------------------------------------------------------------------------------------------------ job detail

export function JobDetailPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const { id = '' } = useParams({ strict: false }) as { id?: string }
  const [job, setJob] = useState<Job | undefined>()
  const [executions, setExecutions] = useState<Execution[]>([])
  const [error, setError] = useState('')
  useEffect(() => {
    getJob(id).then(setJob, (e: unknown) => setError(describeError(e)))
    listExecutions(id).then(setExecutions, (e: unknown) => setError(describeError(e)))
  }, [id])
  const [runDialog, run] = useRunJob((r) => go(`${BASE}/executions/${r.id}`), setError)
  const define = job ? parametersOf(job) : {}
  return (
    <Page title={job ? t`Job: ${job.name}` : t`Job details`}
      actions={job && (
        <>
          <Button appearance="primary" icon={<PlayRegular />} onClick={() => void run(job)}>{t`Run now`}</Button>
          <Button icon={<EditRegular />} onClick={() => go(`${BASE}/job/${id}/update`)}>{t`Update`}</Button>
        </>
      )}>
      {runDialog}
      <div className={styles.stack}>
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        {job && (
          <dl className={styles.dl}>
            <dt>{t`Type`}</dt><dd>{job.type === 'playbook' ? t`Playbook` : t`Command`}</dd>
            {job.type === 'adhoc' && <><dt>{t`Command`}</dt><dd className={styles.mono}>{job.args}</dd></>}
            <dt>{t`Assets`}</dt>
            <dd>{job.assets_display?.length ? job.assets_display.map((a) => `${a.name} (${a.address})`).join(', ') : t`None`}</dd>
            <dt>{t`Nodes`}</dt>
            <dd>{job.nodes_display?.length ? job.nodes_display.map((n) => n.full_value || n.name).join(', ') : t`None`}</dd>
            <dt>{t`Parameters`}</dt>
            <dd>
              {Object.keys(define).length ? (
                <ul className={styles.plain}>
                  {Object.entries(define).map(([name, d]) => (
                    <li key={name}>
                      <span className={styles.mono}>{name}</span> — {d.label}{' '}
                      ({d.type === 'select' ? t`choice of ${(d.options ?? []).map((o) => o.value).join(', ')}` : t`text`}{d.default ? t`, default ${d.default}` : ''})
                    </li>
                  ))}
                </ul>
              ) : t`None`}
            </dd>
            <dt>{t`Run as`}</dt><dd>{job.runas}</dd>
            <dt>{t`Schedule`}</dt><dd>{job.is_periodic ? (job.crontab || t`Every ${job.interval ?? 0} h`) : t`None`}</dd>
            <dt>{t`Version`}</dt><dd>{job.version}</dd>
            <dt>{t`Date updated`}</dt><dd>{when(job.date_updated)}</dd>
          </dl>
        )}
        <Text as="h2" weight="semibold" size={400}>{t`Executions`}</Text>
        <ExecutionTable executions={executions} />
      </div>
    </Page>
  )
}

function ExecutionTable({ executions }: { executions: Execution[] }) {
  const { t } = useLingui()
  const styles = useStyles()
  return (
    <div className={styles.table}>
      <Table aria-label={t`Executions`} size="small">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{t`Date`}</TableHeaderCell>
            <TableHeaderCell>{t`Job`}</TableHeaderCell>
            <TableHeaderCell>{t`Version`}</TableHeaderCell>
            <TableHeaderCell>{t`Status`}</TableHeaderCell>
            <TableHeaderCell>{t`Time cost`}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {executions.map((e) => (
            <TableRow key={e.id}>
              <TableCell><RouteLink to={`${BASE}/executions/${e.id}`}>{when(e.date_start ?? e.date_created)}</RouteLink></TableCell>
              <TableCell>{typeof e.job === 'object' ? e.job.name : e.job}</TableCell>
              <TableCell>{e.job_version}</TableCell>
              <TableCell><StatusBadge status={e.status} /></TableCell>
              <TableCell>{e.time_cost.toFixed(2)} s</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!executions.length && <Text>{t`No executions yet.`}</Text>}
    </div>
  )
}

// ------------------------------------------------------------------------------------------------ executions

export function ExecutionListPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const [executions, setExecutions] = useState<Execution[]>([])
  const [error, setError] = useState('')
  useEffect(() => { listExecutions().then(setExecutions, (e: unknown) => setError(describeError(e))) }, [])
  return (
    <Page title={t`Execution history`} back={false}>
      <div className={styles.stack}>
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        <ExecutionTable executions={executions} />
      </div>
    </Page>
  )
}

/** The task runner's own lines are not the job's output. */
const withoutRunnerLines = (text: string) => text.split('\n').filter((l) => !/^Task ops\.tasks\.run_ops_job/.test(l)).join('\n')

export function ExecutionDetailPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const { id = '' } = useParams({ strict: false }) as { id?: string }
  const [execution, setExecution] = useState<Execution | undefined>()
  const [results, setResults] = useState<AssetResult[]>([])
  const [error, setError] = useState('')
  const output = useRef<JobOutputHandle>(null)
  useEffect(() => {
    let stop: (() => void) | undefined
    getExecution(id).then((e) => {
      setExecution(e)
      stop = followTaskLog(e.task_id, 'ansible', (ev) => {
        if (ev.kind === 'text') output.current?.write(withoutRunnerLines(ev.text))
        else if (ev.kind === 'reset') output.current?.clear()
        else if (ev.kind === 'end') {
          void getExecution(id).then(setExecution, () => undefined)
          void assetResults(e.id).then(setResults, () => undefined)
        }
      })
    }, (e: unknown) => setError(describeError(e)))
    return () => stop?.()
  }, [id])
  const stop = async () => {
    try {
      if (execution) await stopExecution(execution.task_id)
    } catch (e) {
      setError(describeError(e))
    }
  }
  return (
    <Page title={t`Execution details`} actions={execution && !execution.is_finished && <Button onClick={() => void stop()}>{t`Stop`}</Button>}>
      <div className={styles.stack}>
        {error && <Text role="alert" className={styles.error}>{error}</Text>}
        {execution && (
          <dl className={styles.dl}>
            <dt>{t`Job`}</dt><dd>{typeof execution.job === 'object' ? <RouteLink to={`${BASE}/job/${execution.job.id}`}>{execution.job.name}</RouteLink> : execution.job}</dd>
            <dt>{t`Content`}</dt><dd className={styles.mono}>{execution.material}</dd>
            {Object.keys(execution.parameters ?? {}).length > 0 && (
              <>
                <dt>{t`Parameters`}</dt>
                <dd>
                  <ul className={styles.plain} aria-label={t`Parameter values`}>
                    {Object.entries(execution.parameters).map(([k, v]) => <li key={k}><span className={styles.mono}>{k}</span> = <span className={styles.mono}>{v}</span></li>)}
                  </ul>
                </dd>
              </>
            )}
            <dt>{t`Status`}</dt><dd><span role="status"><StatusBadge status={execution.status} /></span></dd>
            <dt>{t`Time cost`}</dt><dd>{execution.time_cost.toFixed(2)} s</dd>
            <dt>{t`Date start`}</dt><dd>{when(execution.date_start)}</dd>
            {execution.summary.error && <><dt>{t`Error`}</dt><dd className={styles.mono}>{execution.summary.error}</dd></>}
          </dl>
        )}
        <JobOutput ref={output} label={t`Output`} />
        {results.length > 0 && <ResultsTable results={results} />}
      </div>
    </Page>
  )
}



