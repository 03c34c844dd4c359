/**
 * Two server instances (two apps, each with its own task runner; on PostgreSQL each with its own connection pool)
 * on one database: every execution runs once, and a task left RUNNING by an instance that died is failed by the
 * other once the lease expires.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../app.ts'
import { openDatabase, type Database } from '../db/connection.ts'
import { createTestServer, type TestServer } from '../testing.ts'
import { defineTask } from './kinds.ts'
import { taskRunner } from './service.ts'

const runs = new Map<string, string[]>()
defineTask({
  name: 'tests.count', displayName: 'Count',
  run: async (ctx) => {
    runs.set(ctx.id, [...(runs.get(ctx.id) ?? []), 'ran'])
    await ctx.log('counted')
  },
})
defineTask({
  name: 'tests.hang', displayName: 'Hang',
  run: async (ctx) => {
    await ctx.log('hanging')
    await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)))
  },
})

describe('two server instances on one database', () => {
  let first: TestServer
  let secondDb: Database
  let second: FastifyInstance
  const LEASE_S = 0.6

  beforeAll(async () => {
    first = await createTestServer({ taskWorkers: 2, taskLeaseSeconds: LEASE_S })
    secondDb = first.databaseUrl ? await openDatabase({ databaseUrl: first.databaseUrl }) : first.database
    second = await buildApp({ config: { ...first.config, taskWorkers: 2, taskLeaseSeconds: LEASE_S }, database: secondDb })
    await second.ready()
  })
  afterAll(async () => {
    await second?.close()
    if (secondDb && secondDb !== first.database) await secondDb.close()
    await first?.close()
  })

  const executions = async (ids: string[]) => (await sql<{ id: string; state: string; worker: string; reason: string }>`
    select id, state, worker, reason from task_executions where id = any(${ids})`.execute(first.database.db)).rows

  it('runs every execution once, spread over both instances', async () => {
    const runners = [taskRunner(first.app)!, taskRunner(second)!]
    const ids = await Promise.all(Array.from({ length: 16 }, (_, i) => runners[i % 2]!.enqueue('tests.count')))
    await expect.poll(async () => (await executions(ids)).every((e) => e.state === 'SUCCESS'), { timeout: 20_000 }).toBe(true)
    for (const id of ids) expect(runs.get(id)).toEqual(['ran'])
    const workers = new Set((await executions(ids)).map((e) => e.worker))
    expect(workers).toEqual(new Set([runners[0]!.workerId, runners[1]!.workerId]))
  })

  it('fails the task of an instance that died once its lease expires', async () => {
    const runners = [taskRunner(first.app)!, taskRunner(second)!]
    const id = await runners[0]!.enqueue('tests.hang')
    await expect.poll(async () => (await executions([id]))[0]!.state, { timeout: 10_000 }).toBe('RUNNING')
    const holder = (await executions([id]))[0]!.worker
    const dead = runners.find((r) => r.workerId === holder)!
    const survivor = runners.find((r) => r !== dead)!
    dead.kill()
    await expect.poll(async () => (await executions([id]))[0]!.state, { timeout: 10_000 }).toBe('FAILURE')
    const row = (await executions([id]))[0]!
    expect(row.reason).toContain(holder)
    expect(row.reason).toContain('lease expired')
    expect(row.worker).toBe(holder)
    // The survivor keeps working.
    const next = await survivor.enqueue('tests.count')
    await expect.poll(async () => (await executions([next]))[0]!.state, { timeout: 10_000 }).toBe('SUCCESS')
  })
})
