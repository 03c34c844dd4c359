/**
 * The job center's calls that are not generic resources (docs/jobs.md): run a quick job, stop it, its detail and
 * per-asset results, the frequent account usernames. The live log is the task log (src/api/tasks.ts).
 */
import { request, silent } from './client.ts'

export const JOBS_URL = '/api/v1/ops/jobs/'
export const RUNAS_POLICIES = ['skip', 'privileged_first', 'privileged_only'] as const
export type RunasPolicy = (typeof RUNAS_POLICIES)[number]

export interface QuickJob { assets: string[]; nodes: string[]; args: string; runas: string; runas_policy: RunasPolicy; timeout?: number }

/** Starts a quick job; resolves with the task id of its execution (the id its live log takes). */
export async function runQuickJob(job: QuickJob): Promise<string> {
  const answer = await request<{ task_id?: unknown }>('post', JOBS_URL, { ...silent(), json: { ...job, instant: true, is_periodic: false, module: 'shell', type: 'adhoc' } })
  if (typeof answer?.task_id !== 'string') throw new Error('no task id in the answer')
  return answer.task_id
}

export function stopExecution(taskId: string): Promise<unknown> {
  return request('post', `/api/v1/ops/job-executions/${encodeURIComponent(taskId)}/stop/`, { ...silent(), json: {} })
}

export interface ExecutionDetail { status: string; is_finished: boolean; is_success: boolean; time_cost: number; job_id: string; summary: { error?: string } }

export function executionDetail(taskId: string): Promise<ExecutionDetail> {
  return request<ExecutionDetail>('get', `/api/v1/ops/job-execution/task-detail/${encodeURIComponent(taskId)}/`, silent())
}

export interface AssetResult { id: string; name: string; status: string; rc: number | null; tasks: Array<{ name: string; output: string }> }

export function assetResults(taskId: string): Promise<AssetResult[]> {
  return request<AssetResult[]>('get', '/api/v1/ops/job-execution/asset-detail/', { ...silent(), searchParams: { execution_id: taskId } })
}

export async function frequentUsernames(): Promise<string[]> {
  const r = await request<unknown>('get', '/api/v1/ops/frequent-username/', silent())
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string') : []
}

// ------------------------------------------------------------------ saved jobs, executions, templates, playbooks

export const EXECUTIONS_URL = '/api/v1/ops/job-executions/'
export const ADHOCS_URL = '/api/v1/ops/adhocs/'
export const PLAYBOOKS_URL = '/api/v1/ops/playbooks/'

/** One parameter a saved job asks for each run (JumpServer 3.2's `parameters_define` entry). */
export interface ParameterDefine { label: string; type: 'text' | 'select'; default: string; options?: Array<{ label: string; value: string }> }
export type ParametersDefine = Record<string, ParameterDefine>

export interface Job {
  id: string; name: string; type: 'adhoc' | 'playbook'; module: string; args: string; playbook: string | null; assets: string[]; nodes: string[]
  runas: string; runas_policy: RunasPolicy; timeout: number; chdir: string; comment: string; is_periodic: boolean; interval: number | null
  crontab: string; version: number; date_created: string; date_updated: string
  /** JSON text of the definitions (as JumpServer answers lina): read it with `parametersOf`. */
  use_parameter_define: boolean; parameters_define: string
  /** The detail names its assets and nodes. */
  assets_display?: Array<{ id: string; name: string; address: string }>
  nodes_display?: Array<{ id: string; name: string; full_value: string }>
}
export type JobInput = Omit<Job, 'id' | 'version' | 'date_created' | 'date_updated' | 'module' | 'parameters_define' | 'assets_display' | 'nodes_display'>
  & { run_after_save?: boolean; parameters_define: ParametersDefine; parameters?: Record<string, string> }

/** The parameters a job asks for each run (none when it does not use them). */
export function parametersOf(job: Pick<Job, 'use_parameter_define' | 'parameters_define'>): ParametersDefine {
  if (!job.use_parameter_define) return {}
  try {
    const v = JSON.parse(job.parameters_define || '{}') as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as ParametersDefine) : {}
  } catch {
    return {}
  }
}

export interface Execution {
  id: string; task_id: string; job: { id: string; name: string; instant: boolean } | string; job_version: number; material: string; job_type: string
  status: string; is_finished: boolean; is_success: boolean; time_cost: number; summary: { error?: string; ok?: string[] }; date_created: string; date_start: string | null
  /** The parameter values of the run. */
  parameters: Record<string, string>
}

const id = (v: string) => encodeURIComponent(v)

export async function listJobs(query: { search?: string } = {}): Promise<Job[]> {
  const r = await request<Job[]>('get', JOBS_URL, { ...silent(), searchParams: { ...(query.search ? { search: query.search } : {}) } })
  return Array.isArray(r) ? r : []
}
export const getJob = (jobId: string) => request<Job>('get', `${JOBS_URL}${id(jobId)}/`, silent())
export const createJob = (job: JobInput) => request<Job & { task_id?: string }>('post', JOBS_URL, { ...silent(), json: { ...job, instant: false } })
export const updateJob = (jobId: string, job: Partial<JobInput>) => request<Job>('patch', `${JOBS_URL}${id(jobId)}/`, { ...silent(), json: job })
export const deleteJob = (jobId: string) => request<unknown>('delete', `${JOBS_URL}${id(jobId)}/`, silent())
/**
 * Runs a saved job now with the values of its parameters; resolves with its execution's ids. Values the server
 * refuses come back as a 400 whose `parameters` holds the errors per parameter name.
 */
export async function runJob(jobId: string, parameters: Record<string, string> = {}): Promise<{ id: string; task_id: string }> {
  return request<{ id: string; task_id: string }>('post', EXECUTIONS_URL, { ...silent(), json: { job: jobId, parameters } })
}
export async function listExecutions(jobId?: string): Promise<Execution[]> {
  const r = await request<Execution[]>('get', EXECUTIONS_URL, { ...silent(), searchParams: jobId ? { job_id: jobId } : {} })
  return Array.isArray(r) ? r : []
}
export const getExecution = (execId: string) => request<Execution>('get', `${EXECUTIONS_URL}${id(execId)}/`, silent())

export interface Adhoc { id: string; name: string; module: string; args: string; comment: string }
export async function listAdhocs(): Promise<Adhoc[]> {
  const r = await request<Adhoc[]>('get', ADHOCS_URL, silent())
  return Array.isArray(r) ? r : []
}
export const getAdhoc = (adhocId: string) => request<Adhoc>('get', `${ADHOCS_URL}${id(adhocId)}/`, silent())
export const saveAdhoc = (adhoc: Partial<Adhoc>, adhocId?: string) =>
  request<Adhoc>(adhocId ? 'patch' : 'post', adhocId ? `${ADHOCS_URL}${id(adhocId)}/` : ADHOCS_URL, { ...silent(), json: adhoc })
export const deleteAdhoc = (adhocId: string) => request<unknown>('delete', `${ADHOCS_URL}${id(adhocId)}/`, silent())

export interface Playbook { id: string; name: string; comment: string; create_method: { value: string; label: string } | string; date_updated: string }
export async function listPlaybooks(): Promise<Playbook[]> {
  const r = await request<Playbook[]>('get', PLAYBOOKS_URL, silent())
  return Array.isArray(r) ? r : []
}
export const getPlaybook = (pbId: string) => request<Playbook>('get', `${PLAYBOOKS_URL}${id(pbId)}/`, silent())
export const createPlaybook = (name: string, comment: string) => request<Playbook>('post', PLAYBOOKS_URL, { ...silent(), json: { name, comment } })
/** Uploads a playbook as a zip (multipart `path`); the server checks its size, names and entries. */
export function uploadPlaybook(file: File, name: string): Promise<Playbook> {
  const body = new FormData()
  if (name) body.append('name', name)
  body.append('path', file)
  return request<Playbook>('post', PLAYBOOKS_URL, silent({ body }))
}
export const deletePlaybook = (pbId: string) => request<unknown>('delete', `${PLAYBOOKS_URL}${id(pbId)}/`, silent())

export interface PlaybookNode { id: string; pId: string; name: string; isParent: boolean }
const fileUrl = (pbId: string) => `/api/v1/ops/playbook/${id(pbId)}/file/`
export async function playbookTree(pbId: string): Promise<PlaybookNode[]> {
  const r = await request<PlaybookNode[]>('get', fileUrl(pbId), silent())
  return Array.isArray(r) ? r : []
}
export async function readPlaybookFile(pbId: string, key: string): Promise<string> {
  return (await request<{ content: string }>('get', fileUrl(pbId), { ...silent(), searchParams: { key } })).content
}
export const writePlaybookFile = (pbId: string, key: string, content: string) => request<unknown>('patch', fileUrl(pbId), { ...silent(), json: { key, content } })
export const newPlaybookNode = (pbId: string, parent: string, name: string, isDirectory: boolean) =>
  request<PlaybookNode>('post', fileUrl(pbId), { ...silent(), json: { key: parent, name, is_directory: isDirectory } })
export const deletePlaybookNode = (pbId: string, key: string) => request<unknown>('delete', fileUrl(pbId), { ...silent(), searchParams: { key } })
