/**
 * The runner on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL where the second runner is a second
 * "process": its own connection pool on the same database). Time is an injected clock; nothing sleeps.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../db/connection.ts'
import { createTestServer, type TestServer } from '../testing.ts'
import { defineTask, TaskFailed } from './kinds.ts'
import { readLog } from './logs.ts'
import { LOG_PIECE_MAX, LOG_TOTAL_MAX, TaskRunner } from './runner.ts'

class Clock {
  t = new Date('2026-11-22T10:00:00Z').getTime()
  now = () => new Date(this.t)
  advance(ms: number) { this.t += ms }
}

const calls = new Map<string, number>()
let release: (() => void) | undefined
const gate = () => new Promise<void>((r) => (release = r))

defineTask({
  name: 'tests.echo', displayName: 'Echo',
  run: async (ctx) => {
    calls.set(ctx.id, (calls.get(ctx.id) ?? 0) + 1)
    await ctx.log('first line')
    await ctx.log(`args ${JSON.stringify(ctx.args)}`)
    return { echoed: ctx.args }
  },
})
defineTask({
  name: 'tests.noisy', displayName: 'Noisy',
  run: async (ctx) => {
    await ctx.log('x'.repeat(LOG_PIECE_MAX + 10))
    for (let i = 0; i < 80; i++) await ctx.log('y'.repeat(LOG_PIECE_MAX))
  },
})
defineTask({ name: 'tests.fail', displayName: 'Fail', run: async (ctx) => { await ctx.log('about to fail'); throw new Error('disk on fire') } })
defineTask({ name: 'tests.outcome', displayName: 'Outcome', run: async () => { throw new TaskFailed('failed: 0 of 1 done, 1 failed', { ok: 0, failed: 1 }) } })

defineTask({
  name: 'tests.block', displayName: 'Block',
  run: async (ctx) => {
    await ctx.log('waiting')
    await Promise.race([gate(), new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)))])
    await ctx.log('released')
    return 'done'
  },
})
defineTask({ name: 'tests.hourly', displayName: 'Hourly', schedule: { interval: 1, enabled: true }, run: async () => 'tick' })
defineTask({ name: 'tests.nightly', displayName: 'Nightly', schedule: { crontab: '30 3 * * *', enabled: true }, run: async () => 'night' })

async function state(db: Database, id: string) {
  return (await sql<{ state: string; reason: string; result: unknown; worker: string; date_start: Date | null; date_finished: Date | null }>`
    select state, reason, result, worker, date_start, date_finished from task_executions where id = ${id}`.execute(db.db)).rows[0]!
}

describe('task runner', () => {
  let server: TestServer
  let second: Database
  const clock = new Clock()
  let a: TaskRunner
  let b: TaskRunner

  beforeAll(async () => {
    // The app's own runner stays idle (TASK_WORKERS=0): these tests drive two runners themselves.
    server = await createTestServer({ taskWorkers: 0 })
    second = server.databaseUrl ? await openDatabase({ databaseUrl: server.databaseUrl }) : server.database
    a = new TaskRunner(server.database, { workerId: 'proc-a', clock: clock.now, leaseMs: 60_000, concurrency: 4 })
    b = new TaskRunner(second, { workerId: 'proc-b', clock: clock.now, leaseMs: 60_000, concurrency: 4 })
    // The app stored the test kinds with the real clock at start: store them again on the test clock.
    await sql`delete from celery_tasks where name like 'tests.%'`.execute(server.database.db)
    await a.syncKinds()
    await b.syncKinds()
  })
  afterAll(async () => {
    release?.()
    await a?.stop(100)
    await b?.stop(100)
    if (second && second !== server.database) await second.close()
    await server?.close()
  })

  it('moves an execution PENDING → RUNNING → SUCCESS and keeps its log and result', async () => {
    const id = await a.enqueue('tests.echo', { args: [1, 'x'], creator: 'Tester(tester)' })
    expect((await state(server.database, id)).state).toBe('PENDING')
    await a.tick()
    await a.settled()
    const s = await state(server.database, id)
    expect(s.state).toBe('SUCCESS')
    expect(s.result).toEqual({ echoed: [1, 'x'] })
    expect(s.date_start).not.toBeNull()
    expect(s.date_finished).not.toBeNull()
    const log = await readLog(server.database.db, id, 0)
    expect(log.end).toBe(true)
    expect(log.data).toContain('first line\nargs [1,"x"]\n')
    expect(log.data).toMatch(/succeeded in [\d.]+s/)
  })

  it('marks a throwing task FAILURE with the error as its reason', async () => {
    const id = await a.enqueue('tests.fail')
    await a.tick()
    await a.settled()
    const s = await state(server.database, id)
    expect(s.state).toBe('FAILURE')
    expect(s.reason).toBe('disk on fire')
    expect((await readLog(server.database.db, id, 0)).data).toContain('raised: disk on fire')
  })

  it('marks a task that ran to a failed outcome FAILURE and keeps its result (issue 35: it said SUCCESS)', async () => {
    const id = await a.enqueue('tests.outcome')
    await a.tick()
    await a.settled()
    const s = await state(server.database, id)
    expect(s).toMatchObject({ state: 'FAILURE', reason: 'failed: 0 of 1 done, 1 failed', result: { ok: 0, failed: 1 } })
  })

  it('writes the log and the failure in the starter’s language (issue 35), English when no one started it', async () => {
    const zh = await a.enqueue('tests.outcome', { lang: 'zh' })
    const echo = await a.enqueue('tests.echo', { lang: 'ja', args: [1] })
    await a.tick()
    await a.settled()
    expect((await readLog(server.database.db, zh, 0)).data).toMatch(/任务 tests\.outcome\[.*\] 失败：failed: 0 of 1 done, 1 failed/)
    expect((await readLog(server.database.db, echo, 0)).data).toMatch(/タスク tests\.echo\[.*\] は [\d.]+ 秒で成功しました/)
    const plain = await a.enqueue('tests.echo')
    await a.tick()
    await a.settled()
    expect((await readLog(server.database.db, plain, 0)).data).toMatch(/Task tests\.echo\[.*\] succeeded in/)
  })

  it('bounds the log of a runaway task', async () => {
    const id = await a.enqueue('tests.noisy')
    await a.tick()
    await a.settled()
    const total = (await sql<{ n: number }>`select sum(length(data))::int as n from task_log_chunks where execution_id = ${id}`.execute(server.database.db)).rows[0]!.n
    expect(total).toBeLessThan(LOG_TOTAL_MAX + 2 * LOG_PIECE_MAX)
    const first = (await sql<{ data: string }>`select data from task_log_chunks where execution_id = ${id} order by id limit 2`.execute(server.database.db)).rows[1]!.data
    expect(first).toContain('(10 characters left out)')
    expect((await readLog(server.database.db, id, 0)).data).toContain('the rest is left out')
  })

  it('reads the log incrementally from a mark while the task runs', async () => {
    const id = await a.enqueue('tests.block')
    await a.tick()
    await expect.poll(async () => (await readLog(server.database.db, id, 0)).data).toContain('waiting')
    expect((await state(server.database, id)).state).toBe('RUNNING')
    const first = await readLog(server.database.db, id, 0)
    expect(first.end).toBe(false)
    release!()
    await a.settled()
    const rest = await readLog(server.database.db, id, first.mark)
    expect(rest.data).toContain('released')
    expect(rest.data).not.toContain('waiting')
    expect(rest.end).toBe(true)
  })

  it('runs each execution exactly once when two processes claim at the same time', async () => {
    const ids = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).enqueue('tests.echo', { args: [i] })))
    // Both keep ticking until nothing is pending.
    for (let round = 0; round < 20; round++) {
      await Promise.all([a.tick(), b.tick()])
      await Promise.all([a.settled(), b.settled()])
      const left = (await sql<{ n: number }>`select count(*)::int as n from task_executions where state in ('PENDING', 'RUNNING')`.execute(server.database.db)).rows[0]!.n
      if (!left) break
    }
    for (const id of ids) expect(calls.get(id), id).toBe(1)
    const workers = (await sql<{ worker: string }>`select distinct worker from task_executions where id = any(${ids})`.execute(server.database.db)).rows.map((r) => r.worker).sort()
    expect(workers).toEqual(['proc-a', 'proc-b'])
  })

  it('fails a RUNNING task whose process died once its lease expires, never before', async () => {
    const dying = new TaskRunner(server.database, { workerId: 'proc-dead', clock: clock.now, leaseMs: 60_000, concurrency: 1 })
    const id = await dying.enqueue('tests.block')
    await dying.tick()
    await expect.poll(async () => (await state(server.database, id)).state).toBe('RUNNING')
    dying.kill()
    clock.advance(59_000)
    expect(await b.reapExpired()).toEqual([])
    expect((await state(server.database, id)).state).toBe('RUNNING')
    clock.advance(2_000)
    expect(await b.reapExpired()).toEqual([id])
    const s = await state(server.database, id)
    expect(s.state).toBe('FAILURE')
    expect(s.reason).toContain('proc-dead')
    expect(s.reason).toContain('lease expired')
    expect((await readLog(server.database.db, id, 0)).data).toContain('stopped responding')
    // Reaping again changes nothing.
    expect(await a.reapExpired()).toEqual([])
  })

  it('keeps a live task alive by renewing its lease', async () => {
    const live = new TaskRunner(server.database, { workerId: 'proc-live', clock: clock.now, leaseMs: 150, concurrency: 1 })
    const id = await live.enqueue('tests.block')
    await live.tick()
    await expect.poll(async () => (await state(server.database, id)).state).toBe('RUNNING')
    const before = (await sql<{ lease_until: Date }>`select lease_until from task_executions where id = ${id}`.execute(server.database.db)).rows[0]!.lease_until
    clock.advance(100)
    await expect.poll(async () => (await sql<{ lease_until: Date }>`select lease_until from task_executions where id = ${id}`.execute(server.database.db)).rows[0]!.lease_until.getTime()).toBeGreaterThan(new Date(before).getTime())
    expect(await b.reapExpired()).toEqual([])
    release!()
    await live.settled()
    expect((await state(server.database, id)).state).toBe('SUCCESS')
  })

  it('fires a due schedule once across processes and moves its next run', async () => {
    const next = async (name: string) => (await sql<{ next_run_at: Date | null }>`select next_run_at from celery_tasks where name = ${name}`.execute(server.database.db)).rows[0]!.next_run_at
    const count = async () => (await sql<{ n: number }>`select count(*)::int as n from task_executions where task_name = 'tests.hourly'`.execute(server.database.db)).rows[0]!.n
    const due = new Date(await next('tests.hourly') as Date)
    expect(due.getTime()).toBe(new Date('2026-11-22T10:00:00Z').getTime() + 3_600_000)
    // The nightly cron: the first 03:30 in Shanghai (UTC+8, the default TIME_ZONE) after the start, 19:30 UTC.
    const nightly = new Date(await next('tests.nightly') as Date)
    expect(nightly).toEqual(new Date('2026-11-22T19:30:00Z'))

    clock.t = due.getTime() - 1000
    expect(await a.fireDue()).toEqual([])
    clock.t = due.getTime() + 5_000
    const [fa, fb] = await Promise.all([a.fireDue(), b.fireDue()])
    expect(fa.length + fb.length).toBe(1)
    expect(await count()).toBe(1)
    expect(new Date(await next('tests.hourly') as Date).getTime()).toBe(clock.t + 3_600_000)
    expect(await a.fireDue()).toEqual([])
    await a.tick()
    await a.settled()
    const row = (await sql<{ state: string; result: unknown; creator: string }>`select state, result, creator from task_executions where task_name = 'tests.hourly'`.execute(server.database.db)).rows[0]!
    expect(row).toEqual({ state: 'SUCCESS', result: 'tick', creator: '' })
  })

  it('does not fire a disabled schedule', async () => {
    await sql`update celery_tasks set enabled = false where name = 'tests.hourly'`.execute(server.database.db)
    clock.advance(10 * 3_600_000)
    const fired = await a.fireDue()
    const names = (await sql<{ task_name: string }>`select task_name from task_executions where id = any(${fired})`.execute(server.database.db)).rows.map((r) => r.task_name)
    expect(names).not.toContain('tests.hourly')
  })
})
