/**
 * The tasks API, the live log websocket (a real ws client) and the daily clean-up, through the app with its own
 * runner (real clock), on PGlite or PostgreSQL.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { setSettings } from '../settings/store.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { CLEANUP_TASK } from './cleanup.ts'
import { TASK_LOG_SOCKET_PATH } from './socket.ts'

const TASKS = '/api/v1/ops/tasks/'
const EXECUTIONS = '/api/v1/ops/task-executions/'
const DAY = 86_400_000

interface LogMessage { message: string; task: string; state?: string; end?: boolean; error?: string }

/** Opens the task log socket as a client and collects what it receives. */
async function follow(url: string, cookie: string, task: string): Promise<{ messages: LogMessage[]; ended: Promise<LogMessage[]>; ws: WebSocket }> {
  const ws = new WebSocket(url, { headers: { cookie } })
  const messages: LogMessage[] = []
  const ended = new Promise<LogMessage[]>((resolve, reject) => {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as LogMessage
      messages.push(m)
      if (m.end) resolve(messages)
    })
    ws.on('close', () => resolve(messages))
    ws.on('error', reject)
  })
  await new Promise<void>((resolve, reject) => { ws.on('open', () => resolve()); ws.on('error', reject) })
  ws.send(JSON.stringify({ task, type: 'celery' }))
  return { messages, ended, ws }
}

describe('tasks API', () => {
  let server: TestServer
  let admin: TestClient
  let plain: TestClient
  let wsUrl: string
  let cleanupId: string

  beforeAll(async () => {
    server = await createTestServer()
    wsUrl = `ws://${await server.listen()}${TASK_LOG_SOCKET_PATH}`
    admin = await server.as('admin')
    admin.headers['accept-language'] = 'en'
    await server.createUser({ username: 'plain' })
    plain = await server.as('plain')
    const list = (await admin.get(`${TASKS}?name=${CLEANUP_TASK}`)).json() as Array<{ id: string }>
    cleanupId = list[0]!.id
  })
  afterAll(async () => server?.close())

  it('lists the task kinds with their schedule and next run', async () => {
    const res = await admin.get(`${TASKS}?limit=20`)
    expect(res.statusCode).toBe(200)
    const body = res.json() as { count: number; results: Array<Record<string, any>> }
    const clean = body.results.find((r) => r.name === CLEANUP_TASK)!
    expect(clean).toMatchObject({ enabled: true, crontab: '0 2 * * *', exec_cycle: '0 2 * * *', summary: { total: 0, success: 0 }, state: 'green' })
    expect(clean.meta.display_name).toBe('Clean up expired logs and data')
    expect(clean.next_exec_time).toMatch(/^\d{4}\/\d\d\/\d\d 02:00:00/)
    const zh = (await admin.get(`${TASKS}${cleanupId}/`, { 'accept-language': 'zh-hans' })).json() as Record<string, any>
    expect(zh.meta.display_name).toBe('清理过期日志和数据')
    const options = (await admin.options(TASKS)).json() as { actions: { GET: Record<string, unknown> } }
    expect(Object.keys(options.actions.GET)).toEqual(expect.arrayContaining(['name', 'summary', 'next_exec_time', 'enabled', 'crontab', 'interval']))
  })

  it('edits a schedule: cron or interval, validated, next run recomputed, disabled → no next run', async () => {
    const url = `${TASKS}${cleanupId}/`
    let res = await admin.patch(url, { crontab: '0 25 * * *' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toHaveProperty('crontab')
    res = await admin.patch(url, { interval: 6 })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toHaveProperty('interval')
    res = await admin.patch(url, { interval: 0, crontab: '' })
    expect(res.statusCode).toBe(400)
    res = await admin.patch(url, { crontab: '', interval: 6 })
    expect(res.statusCode).toBe(200)
    const six = res.json() as Record<string, any>
    expect(six.exec_cycle).toBe('Every 6 hours')
    const stored = (await sql<{ next_run_at: Date }>`select next_run_at from celery_tasks where id = ${cleanupId}`.execute(server.database.db)).rows[0]!
    expect(Math.abs(new Date(stored.next_run_at).getTime() - (Date.now() + 6 * 3_600_000))).toBeLessThan(60_000)
    // The reference console's switch.
    res = await admin.patch(`/api/v1/ops/celery/period-tasks/${CLEANUP_TASK}/`, { enabled: false })
    expect(res.statusCode).toBe(200)
    expect(((await admin.get(url)).json() as Record<string, unknown>).next_exec_time).toBeNull()
    res = await admin.patch(url, { enabled: true, crontab: '0 2 * * *', interval: null })
    expect(res.statusCode).toBe(200)
    expect((res.json() as Record<string, unknown>).next_exec_time).toMatch(/ 02:00:00/)
    // Changes are operate-logged.
    const logs = (await sql<{ n: number }>`select count(*)::int as n from operate_logs where resource_id = ${cleanupId}`.execute(server.database.db)).rows[0]!.n
    expect(logs).toBeGreaterThanOrEqual(2)
  })

  it('answers bad input with 400 field errors, never 500', async () => {
    const url = `${TASKS}${cleanupId}/`
    for (const body of [{ crontab: '0 2 * * *\u0000' }, { crontab: 5 }, { interval: 'abc' }, { interval: 99999999999 }, { enabled: 'maybe' }, { crontab: 'x'.repeat(200) }]) {
      const res = await admin.patch(url, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(Object.keys(res.json() as object), JSON.stringify(body)).toEqual(Object.keys(body))
    }
    expect((await admin.get(`${EXECUTIONS}?task_id=nope`)).statusCode).toBe(400)
    expect((await admin.get(`/api/v1/ops/celery/task/x/task-execution/${randomUUID()}/log/?mark=zz`)).statusCode).toBe(404)
    expect((await admin.post(`${TASKS}${randomUUID()}/run/`)).statusCode).toBe(404)
    const row = (await admin.get(url)).json() as Record<string, unknown>
    expect(row).toMatchObject({ crontab: '0 2 * * *', enabled: true })
  })

  it('refuses users without the task permissions', async () => {
    expect((await plain.get(TASKS)).statusCode).toBe(403)
    expect((await plain.get(EXECUTIONS)).statusCode).toBe(403)
    expect((await plain.patch(`${TASKS}${cleanupId}/`, { enabled: false })).statusCode).toBe(403)
    expect((await plain.patch(`/api/v1/ops/celery/period-tasks/${CLEANUP_TASK}/`, { enabled: false })).statusCode).toBe(403)
    expect((await plain.post(`${TASKS}${cleanupId}/run/`)).statusCode).toBe(403)
    expect((await server.client().get(TASKS)).statusCode).toBe(401)
  })

  it('runs the clean-up now: old rows go, young rows stay, the log streams live to a websocket', async () => {
    const now = Date.now()
    const db = server.database.db
    await setSettings(db, { LOGIN_LOG_KEEP_DAYS: 30, OPERATE_LOG_KEEP_DAYS: 60, TASK_LOG_KEEP_DAYS: 10, ACTIVITY_LOG_KEEP_DAYS: 20 })
    const at = (days: number) => new Date(now - days * DAY)
    const ids = { oldLogin: randomUUID(), youngLogin: randomUUID(), oldOp: randomUUID(), youngOp: randomUUID(), oldExec: randomUUID(), youngExec: randomUUID(), oldActivity: randomUUID() }
    await sql`insert into login_logs (id, username, datetime) values (${ids.oldLogin}, 'x', ${at(31)}), (${ids.youngLogin}, 'x', ${at(29)})`.execute(db)
    await sql`insert into operate_logs (id, "user", action, datetime) values (${ids.oldOp}, 'x', 'create', ${at(61)}), (${ids.youngOp}, 'x', 'create', ${at(59)})`.execute(db)
    await sql`insert into activity_logs (id, type, resource_id, datetime) values (${ids.oldActivity}, 'O', 'r', ${at(21)})`.execute(db)
    await sql`insert into task_executions (id, task_name, state, date_published) values
      (${ids.oldExec}, ${CLEANUP_TASK}, 'SUCCESS', ${at(11)}), (${ids.youngExec}, ${CLEANUP_TASK}, 'FAILURE', ${at(9)})`.execute(db)
    await sql`insert into task_log_chunks (execution_id, data) values (${ids.oldExec}, 'old log')`.execute(db)
    const sid = randomBytes(12).toString('hex')
    await sql`insert into sessions (id, data, expires_at) values (${sid}, '{}'::jsonb, ${at(1)})`.execute(db)
    await sql`insert into auth_tokens (key, user_id, date_expired) values ('old-token', ${server.adminId}, ${at(1)}), ('young-token', ${server.adminId}, ${new Date(now + DAY)})`.execute(db)
    await sql`insert into resource_cache (id, ids, expires_at) values (${randomUUID()}, '[]'::jsonb, ${at(1)})`.execute(db)

    const run = await admin.post(`${TASKS}${cleanupId}/run/`)
    expect(run.statusCode).toBe(201)
    const execId = (run.json() as { task: string }).task
    const live = await follow(wsUrl, admin.cookieHeader(), execId)
    const messages = await live.ended
    live.ws.close()
    const text = messages.map((m) => m.message).join('')
    expect(text).toContain('Deleting login logs older than 30 days')
    expect(text).toContain('Clean-up finished')
    expect(text).toContain('\r\n')
    expect(messages.at(-1)).toMatchObject({ end: true, state: 'SUCCESS', task: execId })

    const exists = async (table: string, id: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where id = ${id}`.execute(db)).rows[0]!.n === 1
    expect(await exists('login_logs', ids.oldLogin)).toBe(false)
    expect(await exists('login_logs', ids.youngLogin)).toBe(true)
    expect(await exists('operate_logs', ids.oldOp)).toBe(false)
    expect(await exists('operate_logs', ids.youngOp)).toBe(true)
    expect(await exists('activity_logs', ids.oldActivity)).toBe(false)
    expect(await exists('task_executions', ids.oldExec)).toBe(false)
    expect(await exists('task_executions', ids.youngExec)).toBe(true)
    expect((await sql<{ n: number }>`select count(*)::int as n from task_log_chunks where execution_id = ${ids.oldExec}`.execute(db)).rows[0]!.n).toBe(0)
    expect(await exists('sessions', sid)).toBe(false)
    const tokens = (await sql<{ key: string }>`select key from auth_tokens where key in ('old-token', 'young-token')`.execute(db)).rows.map((r) => r.key)
    expect(tokens).toEqual(['young-token'])
    expect((await sql<{ n: number }>`select count(*)::int as n from resource_cache where expires_at < now()`.execute(db)).rows[0]!.n).toBe(0)

    // The execution is listed for its task, with who started it; the result and the log are readable afterwards.
    const list = (await admin.get(`${EXECUTIONS}?task_id=${cleanupId}&limit=10`)).json() as { results: Array<Record<string, any>> }
    const row = list.results.find((r) => r.id === execId)!
    expect(row).toMatchObject({ name: CLEANUP_TASK, state: 'SUCCESS', is_finished: true, is_success: true, creator: 'Administrator(admin)' })
    expect(list.results[0]!.id).toBe(execId)
    const result = (await admin.get(`/api/v1/ops/celery/task/${cleanupId}/task-execution/${execId}/result/`)).json() as Record<string, any>
    expect(result.state).toBe('SUCCESS')
    expect(result.result.login_logs).toBe(1)
    expect(result.result.auth_tokens).toBe(1)
    const log = (await admin.get(`/api/v1/ops/celery/task/${cleanupId}/task-execution/${execId}/log/`)).json() as { data: string; end: boolean; mark: string }
    expect(log.end).toBe(true)
    expect(log.data).toContain('Clean-up finished')
    const after = (await admin.get(`/api/v1/ops/celery/task/${cleanupId}/task-execution/${execId}/log/?mark=${log.mark}`)).json() as { data: string; end: boolean }
    expect(after).toMatchObject({ data: '', end: true })
    // The task's summary counts it.
    const task = (await admin.get(`${TASKS}${cleanupId}/`)).json() as Record<string, any>
    expect(task.summary.success).toBeGreaterThanOrEqual(1)
    expect(task.date_last_publish).not.toBeNull()
  })

  it('runs an execution again (the reference console\'s "Run again")', async () => {
    const prev = (await sql<{ id: string }>`select id from task_executions where state = 'SUCCESS' limit 1`.execute(server.database.db)).rows[0]!.id
    expect((await plain.post(`${EXECUTIONS}?from=${prev}`)).statusCode).toBe(403)
    expect((await admin.post(`${EXECUTIONS}?from=${randomUUID()}`)).statusCode).toBe(404)
    expect((await admin.post(EXECUTIONS, {})).statusCode).toBe(405)
    const res = await admin.post(`${EXECUTIONS}?from=${prev}`)
    expect(res.statusCode).toBe(201)
    const id = (res.json() as { task_id: string }).task_id
    await expect.poll(async () => ((await admin.get(`${EXECUTIONS}${id}/`)).json() as { state: string }).state, { timeout: 10_000 }).toBe('SUCCESS')
  })

  it('hides an execution log from users who may not read it', async () => {
    const exec = (await sql<{ id: string }>`select id from task_executions limit 1`.execute(server.database.db)).rows[0]!.id
    expect((await plain.get(`/api/v1/ops/celery/task/${cleanupId}/task-execution/${exec}/log/`)).statusCode).toBe(404)
    expect((await plain.get(`/api/v1/ops/celery/task/${cleanupId}/task-execution/not-a-uuid/log/`)).statusCode).toBe(404)
    const live = await follow(wsUrl, plain.cookieHeader(), exec)
    const messages = await live.ended
    live.ws.close()
    expect(messages).toEqual([{ message: '', task: exec, end: true, error: 'not_found' }])
    expect(messages.some((m) => m.message.includes('Clean'))).toBe(false)
  })
})
