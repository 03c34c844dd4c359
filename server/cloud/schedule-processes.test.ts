/**
 * A periodic sync task's schedule runs once across two server instances on one database (issue 37): each its own
 * app and task runner, and on PostgreSQL its own connection pool, as two processes behind a load balancer
 * (server/tasks/processes.test.ts starts them the same way). No clock is waited on: the schedule's due time is
 * set in the past (as if the hour had passed), then both runners go through a round at once, their pollers beside.
 */
import { createServer, type Server } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import { openDatabase, type Database } from '../db/connection.ts'
import { taskRunner } from '../tasks/service.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { SYNC_TASK } from './sync.ts'

const C = '/api/v1/xpack/cloud'

describe(`a cloud sync schedule across two server instances (${dbKind()})`, () => {
  let first: TestServer
  let secondDb: Database
  let second: FastifyInstance
  let admin: TestClient
  let listener: Server

  beforeAll(async () => {
    first = await createTestServer({ taskWorkers: 2 })
    secondDb = first.databaseUrl ? await openDatabase({ databaseUrl: first.databaseUrl }) : first.database
    second = await buildApp({ config: { ...first.config, taskWorkers: 2 }, database: secondDb })
    await second.ready()
    admin = await first.as('admin')
    admin.headers['accept-language'] = 'en'
    listener = createServer((sock) => sock.on('error', () => undefined))
    await new Promise<void>((r) => listener.listen(0, '127.0.0.9', r))
  })
  afterAll(async () => {
    await new Promise((r) => listener?.close(r))
    await second?.close()
    if (secondDb && secondDb !== first.database) await secondDb.close()
    await first?.close()
  })

  it('fires once when due, creates the asset once, and moves the next run', async () => {
    const port = (listener.address() as { port: number }).port
    const root = (await admin.get('/api/v1/assets/nodes/?limit=1&order=key')).json().results[0].id as string
    const node = (await admin.post(`/api/v1/assets/nodes/${root}/children/`, { value: 'scheduled-scan' })).json().id as string
    const account = await admin.post(`${C}/accounts/`, { name: 'two-procs', provider: 'lan', attrs: { ip_group: ['127.0.0.9'], port: [port] } })
    expect(account.statusCode, account.body).toBe(201)
    const made = await admin.post(`${C}/sync-instance-tasks/`, {
      name: 'hourly scan', account: account.json().id, regions: ['127.0.0.9'], node, hostname_strategy: 'ip', is_periodic: true, interval: 1,
    })
    expect(made.statusCode, made.body).toBe(201)
    const taskId = made.json().id as string
    const name = `${SYNC_TASK}:${taskId}`
    const schedule = async () => (await sql<{ next_run_at: Date | null }>`select next_run_at from celery_tasks where name = ${name}`.execute(first.database.db)).rows
    const [before] = await schedule()
    expect(before!.next_run_at).not.toBeNull()
    // not due yet: a round of each runner fires nothing for it
    const runners = [taskRunner(first.app)!, taskRunner(second)!]
    expect(runners[0]!.workerId).not.toBe(runners[1]!.workerId)
    await Promise.all(runners.map((r) => r.tick()))
    const executions = async () => (await sql<{ id: string; state: string; worker: string | null }>`select id, state, worker from task_executions where task_name = ${name}`.execute(first.database.db)).rows
    expect(await executions()).toEqual([])

    // the hour has passed: both instances find it due at once
    const due = new Date(Date.now() - 1000)
    await sql`update celery_tasks set next_run_at = ${due} where name = ${name}`.execute(first.database.db)
    await Promise.all([runners[0]!.fireDue(), runners[1]!.fireDue(), runners[0]!.tick(), runners[1]!.tick()])
    await expect.poll(async () => (await executions()).map((e) => e.state), { timeout: 60_000 }).toEqual(['SUCCESS'])
    await Promise.all(runners.map((r) => r.settled()))

    // once: one execution, one history row, one asset; the next run an hour after the due time's round
    const history = (await admin.get(`${C}/sync-instance-tasks/${taskId}/history/`)).json() as Array<{ summary: Record<string, number> }>
    expect(history.map((h) => h.summary)).toEqual([{ new: 1, sync: 0, unsync: 0, released: 0 }])
    const assets = (await admin.get(`/api/v1/assets/assets/?node=${node}`)).json() as Array<{ address: string }>
    expect(assets.map((a) => a.address)).toEqual(['127.0.0.9'])
    const [after] = await schedule()
    expect(new Date(after!.next_run_at!).getTime()).toBeGreaterThan(due.getTime() + 3_000_000)
    // more rounds of both change nothing
    await Promise.all(runners.map((r) => r.tick()))
    expect(await executions()).toHaveLength(1)
  }, 120_000)
})
