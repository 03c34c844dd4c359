/**
 * The task runner of one server process (docs/tasks.md). All state is in PostgreSQL, so several processes on one
 * database cooperate without talking to each other:
 * - an execution is claimed with `FOR UPDATE SKIP LOCKED`, so it runs in exactly one process;
 * - the process holding it renews a lease; a RUNNING execution whose lease ran out (its process died) is marked
 *   FAILURE with the reason by whichever process notices first;
 * - a due schedule is fired in a transaction that also moves its next run, so it fires once.
 * `NOTIFY` wakes the other processes when work is queued; a poll covers lost notifications.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { sql } from 'kysely'
import type { Database, DB, RowOf } from '../db/connection.ts'
import type { Lang } from '../http/request-context.ts'
import { addMessages, tr } from '../i18n.ts'
import { TaskFailed, taskKind, taskKinds, type TaskContext } from './kinds.ts'
import { DEFAULT_TIME_ZONE, nextRun } from './schedule.ts'

export const TASK_QUEUED_CHANNEL = 'task_queued'
/** Payload: an execution id whose log or state changed. */
export const TASK_LOG_CHANNEL = 'task_log'

/** Bounds of one execution's log: per call and in total (a runaway task cannot fill the database). */
export const LOG_PIECE_MAX = 64 * 1024
export const LOG_TOTAL_MAX = 4 * 1024 * 1024

export type TaskState = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILURE'
export const FINISHED: readonly TaskState[] = ['SUCCESS', 'FAILURE']

export interface RunnerOptions {
  /** How many executions this process runs at once; 0 = it only queues (no claiming, firing or reaping). */
  concurrency?: number
  /** Lease of a running execution; renewed every third of it. */
  leaseMs?: number
  /** Poll period (notifications make it mostly idle). */
  pollMs?: number
  workerId?: string
  /** The clock used for every stored time and every comparison (tests inject one). */
  clock?: () => Date
  /** Zone of cron expressions (TIME_ZONE). */
  timeZone?: string
}

export interface EnqueueOptions {
  args?: unknown[]
  kwargs?: Record<string, unknown>
  creatorId?: string | null
  creator?: string
  /** The execution's id, when the caller stores it first (a job execution's `task_id`); default a new one. */
  id?: string
  /** The language its log and errors are written in: the starter's (the request's); default English. */
  lang?: Lang
}

const asLang = (v: unknown): Lang => (v === 'zh' || v === 'ja' ? v : 'en')

addMessages({
  'Task {name}[{id}] received by {worker}': ['任务 {name}[{id}] 由 {worker} 接收', 'タスク {name}[{id}] を {worker} が受け取りました'],
  'Task {name}[{id}] succeeded in {seconds}s: {result}': ['任务 {name}[{id}] 成功，耗时 {seconds} 秒：{result}', 'タスク {name}[{id}] は {seconds} 秒で成功しました: {result}'],
  'Task {name}[{id}] raised: {reason}': ['任务 {name}[{id}] 失败：{reason}', 'タスク {name}[{id}] は失敗しました: {reason}'],
})

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name
  return String(err)
}

export class TaskRunner {
  readonly workerId: string
  readonly concurrency: number
  readonly leaseMs: number
  readonly clock: () => Date
  readonly timeZone: string
  private readonly pollMs: number
  private readonly running = new Map<string, { promise: Promise<void>; abort: AbortController }>()
  private timer?: NodeJS.Timeout
  private unlisten?: () => Promise<void>
  private ticking?: Promise<void>
  private again = false
  private stopped = false
  /** Started (timers, notifications): finishing an execution looks for the next one at once. */
  private started = false
  /** Simulated crash (tests): nothing more is written. */
  private dead = false

  constructor(private readonly database: Database, opts: RunnerOptions = {}) {
    this.concurrency = opts.concurrency ?? 2
    this.leaseMs = opts.leaseMs ?? 60_000
    this.pollMs = opts.pollMs ?? 2_000
    this.workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
    this.clock = opts.clock ?? (() => new Date())
    this.timeZone = opts.timeZone ?? DEFAULT_TIME_ZONE
  }

  private get db(): DB { return this.database.db }

  /** Stores every task kind (with its default schedule) and starts working. */
  async start(): Promise<void> {
    await this.syncKinds()
    this.stopped = false
    if (this.concurrency <= 0) return
    this.unlisten = await this.database.listen(TASK_QUEUED_CHANNEL, () => this.wake())
    this.started = true
    this.timer = setInterval(() => this.wake(), this.pollMs)
    this.timer.unref?.()
    this.wake()
  }

  /** Stops claiming; running executions are told to stop and given `graceMs` to finish. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    await this.unlisten?.()
    this.unlisten = undefined
    for (const r of this.running.values()) r.abort.abort(new Error('the server is stopping'))
    const all = Promise.all([...this.running.values()].map((r) => r.promise))
    await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref?.())])
    await this.ticking?.catch(() => undefined)
  }

  /** Tests: the process "dies" — timers stop and nothing more is written (leases are left to expire). */
  kill(): void {
    this.dead = true
    this.stopped = true
    clearInterval(this.timer)
    void this.unlisten?.()
    for (const r of this.running.values()) r.abort.abort(new Error('killed'))
  }

  /** Resolves when the executions running in this process now have ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.promise))
  }

  /** Executions running in this process now. */
  get active(): string[] { return [...this.running.keys()] }

  async syncKinds(): Promise<void> {
    const now = this.clock()
    for (const kind of taskKinds()) {
      const s = { crontab: kind.schedule?.crontab ?? '', interval: kind.schedule?.interval ?? null, enabled: kind.schedule?.enabled ?? !!kind.schedule }
      await this.db.insertInto('celery_tasks')
        .values({ id: randomUUID(), name: kind.name, crontab: s.crontab, interval: s.interval, enabled: s.enabled, next_run_at: nextRun(s, now, this.timeZone) })
        .onConflict((oc) => oc.column('name').doNothing()).execute()
    }
  }

  /** Queues an execution of a task kind; any process with workers picks it up. Returns its id. */
  async enqueue(name: string, opts: EnqueueOptions = {}): Promise<string> {
    if (!taskKind(name)) throw new Error(`unknown task ${name}`)
    const id = opts.id ?? randomUUID()
    await this.db.transaction().execute(async (tx) => {
      await this.insertExecution(tx, id, name, opts)
    })
    await this.database.notify(TASK_QUEUED_CHANNEL, id)
    return id
  }

  private async insertExecution(tx: DB, id: string, name: string, opts: EnqueueOptions): Promise<void> {
    const now = this.clock()
    await sql`insert into task_executions (id, task_name, args, kwargs, state, date_published, creator_id, creator, lang)
      values (${id}, ${name}, ${JSON.stringify(opts.args ?? [])}::jsonb, ${JSON.stringify(opts.kwargs ?? {})}::jsonb, 'PENDING',
        ${now}, ${opts.creatorId ?? null}, ${opts.creator ?? ''}, ${opts.lang ?? 'en'})`.execute(tx)
    await tx.updateTable('celery_tasks').set({ date_last_publish: now }).where('name', '=', name).execute()
  }

  private wake(): void {
    if (this.stopped || !this.started) return
    if (this.ticking) {
      this.again = true
      return
    }
    this.ticking = (async () => {
      try {
        do {
          this.again = false
          await this.tick()
        } while (this.again && !this.stopped)
      } catch (err) {
        if (!this.dead) console.warn(`tasks: ${errorText(err)}`)
      } finally {
        this.ticking = undefined
      }
    })()
  }

  /** One round: fail expired leases, fire due schedules, claim what there is room for. */
  async tick(): Promise<void> {
    if (this.dead || this.concurrency <= 0) return
    await this.reapExpired()
    await this.fireDue()
    while (!this.stopped && !this.dead && this.running.size < this.concurrency) {
      if (!(await this.claimOne())) break
    }
  }

  /** Marks RUNNING executions whose lease has expired as FAILURE; returns their ids. */
  async reapExpired(): Promise<string[]> {
    const now = this.clock()
    const ids = await this.db.transaction().execute(async (tx) => {
      const rows = await tx.selectFrom('task_executions').select(['id', 'worker', 'lease_until'])
        .where('state', '=', 'RUNNING').where('lease_until', '<', now).forUpdate().skipLocked().execute()
      for (const r of rows) {
        const reason = `The process running this task (${r.worker}) stopped responding: its lease expired at ${new Date(r.lease_until!).toISOString()}`
        await tx.updateTable('task_executions').set({ state: 'FAILURE', date_finished: now, reason, lease_until: null }).where('id', '=', r.id).execute()
        await tx.insertInto('task_log_chunks').values({ execution_id: r.id, data: `\n${reason}\n` }).execute()
      }
      return rows.map((r) => r.id)
    })
    for (const id of ids) await this.database.notify(TASK_LOG_CHANNEL, id)
    return ids
  }

  /** Queues one execution of every enabled schedule that is due, moving its next run; returns the new ids. */
  async fireDue(): Promise<string[]> {
    const now = this.clock()
    const fired = await this.db.transaction().execute(async (tx) => {
      const due = await tx.selectFrom('celery_tasks').select(['id', 'name', 'crontab', 'interval'])
        .where('enabled', '=', true).where('next_run_at', '<=', now).forUpdate().skipLocked().execute()
      const ids: string[] = []
      for (const t of due) {
        const next = nextRun({ crontab: t.crontab, interval: t.interval, enabled: true }, now, this.timeZone)
        await tx.updateTable('celery_tasks').set({ next_run_at: next }).where('id', '=', t.id).execute()
        if (!taskKind(t.name)) continue
        const id = randomUUID()
        await this.insertExecution(tx, id, t.name, { creator: '' })
        ids.push(id)
      }
      return ids
    })
    if (fired.length) await this.database.notify(TASK_QUEUED_CHANNEL, fired.join(','))
    return fired
  }

  private async claimOne(): Promise<boolean> {
    const now = this.clock()
    const names = taskKinds().map((k) => k.name)
    if (!names.length) return false
    // A family's scheduled members are queued under `<kind>:<suffix>` (fireDue): claimed by their kind's name.
    const families = taskKinds().filter((k) => k.family).map((k) => k.name)
    const row = (await sql<Pick<RowOf<'task_executions'>, 'id' | 'task_name' | 'args' | 'kwargs' | 'lang'>>`
      update task_executions set state = 'RUNNING', worker = ${this.workerId}, date_start = ${now},
        lease_until = ${new Date(now.getTime() + this.leaseMs)}
      where id = (select id from task_executions where state = 'PENDING' and (task_name = any(${names}) or split_part(task_name, ':', 1) = any(${families}))
                  order by date_published, id limit 1 for update skip locked)
      returning id, task_name, args, kwargs, lang`.execute(this.db)).rows[0]
    if (!row) return false
    const abort = new AbortController()
    const promise = this.execute(row.id, row.task_name, row.args, row.kwargs, abort, asLang(row.lang)).finally(() => {
      this.running.delete(row.id)
      if (this.started && !this.stopped) this.wake()
    })
    this.running.set(row.id, { promise, abort })
    return true
  }

  async appendLog(id: string, text: string): Promise<void> {
    if (this.dead) return
    await this.db.insertInto('task_log_chunks').values({ execution_id: id, data: text }).execute()
    await this.database.notify(TASK_LOG_CHANNEL, id)
  }

  private async execute(id: string, name: string, args: unknown, kwargs: unknown, abort: AbortController, lang: Lang = 'en'): Promise<void> {
    const t = (text: string, vars?: Record<string, string | number>) => tr(lang, text, vars)
    const kind = taskKind(name)!
    const started = this.clock()
    const heartbeat = setInterval(() => {
      if (this.dead) return
      void sql`update task_executions set lease_until = ${new Date(this.clock().getTime() + this.leaseMs)}
        where id = ${id} and worker = ${this.workerId} and state = 'RUNNING'`.execute(this.db)
        .then((r) => {
          if (Number(r.numAffectedRows ?? 0n) === 0) abort.abort(new Error('the lease was lost'))
        })
        .catch(() => undefined)
    }, Math.max(50, Math.floor(this.leaseMs / 3)))
    heartbeat.unref?.()
    let logged = 0
    // One write at a time: a chunk's id is taken when its insert starts, and live readers read past the highest id
    // they saw. Two inserts at once (a job's hosts answering together, on a PostgreSQL pool) could commit the higher
    // id first, and a reader between the two commits would never see the lower one.
    let writes = Promise.resolve()
    const log = (text: string) => {
      if (logged >= LOG_TOTAL_MAX) return Promise.resolve()
      let piece = text.length > LOG_PIECE_MAX ? `${text.slice(0, LOG_PIECE_MAX)} … (${text.length - LOG_PIECE_MAX} characters left out)` : text
      if (!piece.endsWith('\n')) piece += '\n'
      logged += piece.length
      if (logged >= LOG_TOTAL_MAX) piece += `… the log reached ${LOG_TOTAL_MAX} characters; the rest is left out\n`
      const write = writes.then(() => this.appendLog(id, piece))
      writes = write.catch(() => undefined)
      return write
    }
    const ctx: TaskContext = {
      id,
      name,
      args: Array.isArray(args) ? args : [],
      kwargs: kwargs && typeof kwargs === 'object' ? (kwargs as Record<string, unknown>) : {},
      db: this.db,
      database: this.database,
      log,
      now: this.clock,
      signal: abort.signal,
      lang,
      t,
    }
    let state: TaskState = 'SUCCESS'
    let result: unknown = null
    let reason = ''
    try {
      await this.appendLog(id, `${t('Task {name}[{id}] received by {worker}', { name, id, worker: this.workerId })}\n`)
      result = (await kind.run(ctx)) ?? null
    } catch (err) {
      state = 'FAILURE'
      reason = errorText(err)
      if (err instanceof TaskFailed) result = err.result ?? null
    } finally {
      clearInterval(heartbeat)
    }
    await writes
    if (this.dead) return
    const finished = this.clock()
    const seconds = ((finished.getTime() - started.getTime()) / 1000).toFixed(3)
    const tail = state === 'SUCCESS'
      ? `${t('Task {name}[{id}] succeeded in {seconds}s: {result}', { name, id, seconds, result: JSON.stringify(result) })}\n`
      : `${t('Task {name}[{id}] raised: {reason}', { name, id, reason })}\n`
    try {
      await this.db.insertInto('task_log_chunks').values({ execution_id: id, data: tail }).execute()
      await sql`update task_executions set state = ${state}, date_finished = ${finished}, result = ${JSON.stringify(result)}::jsonb,
          reason = ${reason}, lease_until = null
        where id = ${id} and worker = ${this.workerId} and state = 'RUNNING'`.execute(this.db)
      await this.database.notify(TASK_LOG_CHANNEL, id)
    } catch (err) {
      console.warn(`tasks: could not record the end of ${id}: ${errorText(err)}`)
    }
  }
}
