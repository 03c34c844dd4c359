/** Cloud sync's special calls (contract §5.11): run a sync task, its history and instances, released assets, test an account. */
import { getJson, sendAction } from './resources.ts'

const BASE = '/api/v1/xpack/cloud'
const id = (x: string) => encodeURIComponent(x)

export interface SyncHistoryRow { id: string; status: number; summary: { new?: number; sync?: number; unsync?: number; released?: number }; reason: string; task: string | null; date_sync: string }
export interface SyncInstanceRow { id: string; instance_id: string; region: string; asset_ip: string; status: number; asset: { id: string; name: string } | null; date_sync: string }

/** Starts a sync (lina's GET); answers the background task whose log the console opens. */
export async function runSyncTask(taskId: string): Promise<string> {
  const r = await getJson<{ task?: unknown }>(`${BASE}/sync-instance-tasks/${id(taskId)}/run/`)
  return String(r.task ?? '')
}
export const syncHistory = (taskId: string) => getJson<SyncHistoryRow[]>(`${BASE}/sync-instance-tasks/${id(taskId)}/history/`)
export const syncInstances = (taskId: string) => getJson<SyncInstanceRow[]>(`${BASE}/sync-instance-tasks/${id(taskId)}/instances/`)
export const deleteReleasedAssets = (taskId: string) => sendAction('delete', `${BASE}/sync-instance-tasks/${id(taskId)}/released-assets/`)
export const testCloudAccount = (accountId: string) => getJson<{ msg: string }>(`${BASE}/accounts/${id(accountId)}/test-connective/`)
