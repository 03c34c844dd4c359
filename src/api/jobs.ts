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
