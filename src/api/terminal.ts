/** Terminal sessions' special calls: terminate (a task for the component), the replay, the dashboard figures. */
import { http, request, silent } from './client.ts'
import type { RowId } from './resources.ts'

export const SESSIONS_URL = '/api/v1/terminal/sessions/'
export const COMMANDS_URL = '/api/v1/terminal/commands/'

/** `POST /terminal/tasks/kill-session/ [ids]` → the ids a task was created for. */
export async function terminateSessions(ids: readonly RowId[]): Promise<string[]> {
  const answer = await request<{ ok?: string[] }>('post', '/api/v1/terminal/tasks/kill-session/', { json: ids })
  return answer?.ok ?? []
}

export interface ReplayInfo {
  type: string
  src: string
  user?: string
  asset?: string
  date_start?: string
  date_end?: string
  size?: number
}

export function replayInfo(id: RowId): Promise<ReplayInfo> {
  return request<ReplayInfo>('get', `${SESSIONS_URL}${encodeURIComponent(String(id))}/replay/`)
}

/** The replay file (gzip) as bytes. */
export async function replayBytes(src: string): Promise<Uint8Array> {
  return new Uint8Array(await http.get(src).arrayBuffer())
}

export type IndexFigures = Record<string, unknown>

/** `GET /api/v1/index/?<switches>` (the reference console's dashboard figures). */
export function indexFigures(switches: readonly string[], days?: number): Promise<IndexFigures> {
  const params = new URLSearchParams()
  for (const s of switches) params.set(s, '1')
  if (days) params.set('days', String(days))
  return request<IndexFigures>('get', `/api/v1/index/?${params.toString()}`)
}

export interface StorageTest { is_valid: boolean; msg: string }

/** `GET …/<replay|command>-storages/<id>/test-connective/`: the server checks the storage for real. */
export function testStorage(listUrl: string, id: RowId): Promise<StorageTest> {
  return request<StorageTest>('get', `${listUrl}${encodeURIComponent(String(id))}/test-connective/`)
}

export const APPLET_UPLOAD_URL = '/api/v1/terminal/applets/upload/'

/** Uploads an applet package (multipart `file`); a refused package is an ApiError whose body has `error`. */
export async function uploadApplet(file: File, update = false): Promise<Record<string, unknown>> {
  const body = new FormData()
  body.append('file', file)
  return request<Record<string, unknown>>('post', `${APPLET_UPLOAD_URL}${update ? '?update=1' : ''}`, silent({ body }))
}

/** The web terminal on a connection token (opened in a new browser tab). */
export function webTerminalUrl(tokenId: string): string {
  return `/luna/connect?${new URLSearchParams({ token: tokenId }).toString()}`
}

/** The web terminal's live view of a session (an auditor's monitor). */
export function monitorUrl(sessionId: string): string {
  return `/luna/monitor/${encodeURIComponent(sessionId)}/`
}

/** Forgets the SSH host keys the built-in terminal recorded for an asset; answers how many were cleared. */
export async function clearHostKeys(assetId: RowId): Promise<number> {
  const answer = await request<{ cleared?: number }>('post', `/api/v1/assets/assets/${encodeURIComponent(String(assetId))}/clear-host-keys/`, { json: {} })
  return answer?.cleared ?? 0
}

/** A share link of the user's own live session (`POST /terminal/live/sessions/<id>/sharings/`). */
export interface SessionShare { id: string; verify_code: string; expired_time: number; action_permission: 'readonly' | 'writable'; users: string[]; url: string }

export function createSessionShare(sessionId: string, body: { users: string[]; expired_time: number; action_permission: 'readonly' | 'writable' }): Promise<SessionShare> {
  return request<SessionShare>('post', `/api/v1/terminal/live/sessions/${encodeURIComponent(sessionId)}/sharings/`, { json: body })
}

/** Who is in the user's session through a share link now. */
export interface SessionParticipant { id: string; user: string; action_permission: string; date_joined: string; remote_addr: string }

export function sessionParticipants(sessionId: string): Promise<SessionParticipant[]> {
  return request<SessionParticipant[]>('get', `/api/v1/terminal/live/sessions/${encodeURIComponent(sessionId)}/participants/`)
}

export async function removeParticipant(sessionId: string, recordId: string): Promise<void> {
  await request('delete', `/api/v1/terminal/live/sessions/${encodeURIComponent(sessionId)}/participants/${encodeURIComponent(recordId)}/`)
}

export interface UserSuggestion { id: string; name: string; username: string }

/** Users to share with (`users/users/suggestions/`: every user, the first 10 matching). */
export function userSuggestions(search: string): Promise<UserSuggestion[]> {
  return request<UserSuggestion[]>('get', `/api/v1/users/users/suggestions/?${new URLSearchParams({ search }).toString()}`)
}
