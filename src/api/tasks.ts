/**
 * Background tasks (JumpServer's ops API, docs/tasks.md): task kinds and their executions are generic resources;
 * here are the calls that are not — run now, the log (websocket `/ws/ops/tasks/log/` with a polling fallback)
 * and the result.
 */
import { request, silent } from './client.ts'

export const TASKS_URL = '/api/v1/ops/tasks/'
export const TASK_EXECUTIONS_URL = '/api/v1/ops/task-executions/'
export const TASK_LOG_SOCKET_PATH = '/ws/ops/tasks/log/'

/** Queues one execution of a task kind now; resolves with the execution id (the id its log page takes). */
export async function runTask(taskId: string): Promise<string> {
  const answer = await request<{ task?: unknown; task_id?: unknown }>('post', `${TASKS_URL}${encodeURIComponent(taskId)}/run/`, silent())
  const id = answer?.task ?? answer?.task_id
  if (typeof id !== 'string') throw new Error('no task id in the answer')
  return id
}

/** Runs an execution again with the same arguments (`POST …/task-executions/?from=<id>`); resolves with the new id. */
export async function runAgain(executionId: string): Promise<string> {
  const answer = await request<{ task?: unknown; task_id?: unknown }>('post', TASK_EXECUTIONS_URL, { ...silent(), searchParams: { from: executionId } })
  const id = answer?.task_id ?? answer?.task
  if (typeof id !== 'string') throw new Error('no task id in the answer')
  return id
}

/**
 * Starts a background task through a resource's own call (JumpServer's `POST …/<id>/tasks/ {action}`,
 * `…/test-connective/`); resolves with the execution id of the `{task}` answer. Errors are the caller's to show.
 */
export async function startTask(url: string, body: Record<string, unknown> = {}): Promise<string> {
  const answer = await request<{ task?: unknown; task_id?: unknown }>('post', url, { ...silent(), json: body })
  const id = answer?.task ?? answer?.task_id
  if (typeof id !== 'string') throw new Error('no task id in the answer')
  return id
}

export type TaskState = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILURE'

export interface TaskLogSlice { data: string; end: boolean; mark: string; state: TaskState | null }

/** The log after `mark` (JumpServer's log tail API: `{data, end, mark}`). */
export async function fetchTaskLog(executionId: string, mark = '', signal?: AbortSignal): Promise<TaskLogSlice> {
  const id = encodeURIComponent(executionId)
  const answer = await request<Record<string, unknown>>('get', `/api/v1/ops/celery/task/${id}/task-execution/${id}/log/`, {
    ...silent(), signal, searchParams: mark ? { mark } : {},
  })
  return {
    data: typeof answer?.data === 'string' ? answer.data : '',
    end: answer?.end === true,
    mark: typeof answer?.mark === 'string' ? answer.mark : mark,
    state: typeof answer?.state === 'string' ? (answer.state as TaskState) : null,
  }
}

export type TaskLogEvent =
  | { kind: 'text'; text: string; state: TaskState | null }
  /** Start again from an empty log (the socket failed and polling reads from the start). */
  | { kind: 'reset' }
  | { kind: 'end'; state: TaskState | null; notFound: boolean }
  | { kind: 'error'; error: unknown }

export function taskLogSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${TASK_LOG_SOCKET_PATH}`
}

const POLL_MS = 1000
const normalise = (text: string) => text.replace(/\r\n/g, '\n')

/**
 * Follows an execution's log: everything so far, then each new piece as it is written, then the end. Uses the
 * websocket; if it cannot be used (closed before the end), polls the log API from the start instead.
 * Returns a function that stops following.
 */
export function followTaskLog(executionId: string, type: 'celery' | 'ansible', onEvent: (e: TaskLogEvent) => void, url = taskLogSocketUrl(window.location)): () => void {
  let stopped = false
  let ended = false
  let received = false
  const abort = new AbortController()
  const end = (state: TaskState | null, notFound: boolean) => {
    if (ended) return
    ended = true
    onEvent({ kind: 'end', state, notFound })
  }
  const poll = async () => {
    if (received) onEvent({ kind: 'reset' })
    let mark = ''
    while (!stopped && !ended) {
      try {
        const slice = await fetchTaskLog(executionId, mark, abort.signal)
        mark = slice.mark
        if (slice.data) onEvent({ kind: 'text', text: normalise(slice.data), state: slice.state })
        if (slice.end) end(slice.state, slice.state === null)
      } catch (error) {
        if (stopped) return
        onEvent({ kind: 'error', error })
        return
      }
      if (!ended) await new Promise((r) => setTimeout(r, POLL_MS))
    }
  }
  const socket = new WebSocket(url)
  socket.onopen = () => socket.send(JSON.stringify({ task: executionId, type }))
  socket.onmessage = (event) => {
    let m: { message?: unknown; state?: unknown; end?: unknown; error?: unknown }
    try {
      m = JSON.parse(String(event.data)) as typeof m
    } catch {
      return
    }
    const state = typeof m.state === 'string' ? (m.state as TaskState) : null
    if (typeof m.message === 'string' && m.message) {
      received = true
      onEvent({ kind: 'text', text: normalise(m.message), state })
    }
    if (m.end === true) {
      end(state, m.error === 'not_found')
      socket.close()
    }
  }
  socket.onclose = () => {
    if (!stopped && !ended) void poll()
  }
  return () => {
    stopped = true
    abort.abort()
    socket.onclose = null
    socket.close()
  }
}
