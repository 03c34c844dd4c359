import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { activateEnglish, fakeFetch } from '../ui/common/testing.ts'
import { followTaskLog, runAgain, runTask, type TaskLogEvent } from './tasks.ts'

/** A WebSocket double driven by the test. */
class FakeSocket {
  static last: FakeSocket | undefined
  sent: string[] = []
  onopen: (() => void) | null = null
  onmessage: ((e: { data: string }) => void) | null = null
  onclose: (() => void) | null = null
  closed = false
  constructor(readonly url: string) { FakeSocket.last = this }
  send(text: string) { this.sent.push(text) }
  close() { this.closed = true }
  open() { this.onopen?.() }
  receive(msg: unknown) { this.onmessage?.({ data: JSON.stringify(msg) }) }
  drop() { this.onclose?.() }
}

const ID = '11111111-2222-3333-4444-555555555555'
const LOG_URL = `/api/v1/ops/celery/task/${ID}/task-execution/${ID}/log/`

beforeEach(() => {
  activateEnglish()
  vi.stubGlobal('WebSocket', FakeSocket)
})
afterEach(() => vi.unstubAllGlobals())

describe('task log', () => {
  it('subscribes with {task, type} and turns frames into text and an end', () => {
    const events: TaskLogEvent[] = []
    const stop = followTaskLog(ID, 'celery', (e) => events.push(e), 'ws://x/ws/ops/tasks/log/')
    const ws = FakeSocket.last!
    ws.open()
    expect(JSON.parse(ws.sent[0]!)).toEqual({ task: ID, type: 'celery' })
    ws.receive({ message: 'line 1\r\nline 2\r\n', task: ID, state: 'RUNNING' })
    ws.receive({ message: '', task: ID, state: 'SUCCESS', end: true })
    expect(events).toEqual([
      { kind: 'text', text: 'line 1\nline 2\n', state: 'RUNNING' },
      { kind: 'end', state: 'SUCCESS', notFound: false },
    ])
    expect(ws.closed).toBe(true)
    stop()
  })

  it('reports an unknown or forbidden task', () => {
    const events: TaskLogEvent[] = []
    followTaskLog(ID, 'celery', (e) => events.push(e), 'ws://x/')
    FakeSocket.last!.receive({ message: '', task: ID, end: true, error: 'not_found' })
    expect(events).toEqual([{ kind: 'end', state: null, notFound: true }])
  })

  it('falls back to polling the log from the start when the socket closes early', async () => {
    const sent = fakeFetch({
      [`GET ${LOG_URL}`]: (req) => (req.url.searchParams.get('mark')
        ? { data: 'b\r\n', end: true, mark: '2', state: 'FAILURE' }
        : { data: 'a\r\n', end: false, mark: '1', state: 'RUNNING' }),
    })
    vi.useFakeTimers()
    try {
      const events: TaskLogEvent[] = []
      followTaskLog(ID, 'celery', (e) => events.push(e), 'ws://x/')
      const ws = FakeSocket.last!
      ws.open()
      ws.receive({ message: 'a\r\n', task: ID, state: 'RUNNING' })
      ws.drop()
      await vi.advanceTimersByTimeAsync(1500)
      expect(events).toEqual([
        { kind: 'text', text: 'a\n', state: 'RUNNING' },
        { kind: 'reset' },
        { kind: 'text', text: 'a\n', state: 'RUNNING' },
        { kind: 'text', text: 'b\n', state: 'FAILURE' },
        { kind: 'end', state: 'FAILURE', notFound: false },
      ])
      expect(sent.map((r) => r.url.searchParams.get('mark'))).toEqual([null, '1'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('run now and run again answer the new execution id', async () => {
    const sent = fakeFetch({
      'POST /api/v1/ops/tasks/t1/run/': () => ({ task: ID, task_id: ID }),
      'POST /api/v1/ops/task-executions/': () => ({ task: 'e2', task_id: 'e2' }),
    })
    expect(await runTask('t1')).toBe(ID)
    expect(await runAgain(ID)).toBe('e2')
    expect(sent[1]!.url.searchParams.get('from')).toBe(ID)
  })
})
