/**
 * The catalogue of task kinds. A module declares its background work once with `defineTask`; the runner stores
 * each kind (with its default schedule) in `celery_tasks` at start, and runs executions of it.
 */
import type { Database, DB } from '../db/connection.ts'
import type { Lang } from '../http/request-context.ts'

export interface TaskContext {
  /** The execution id (also the id of its log). */
  id: string
  /** The task name it was queued or scheduled under (a family member's full name, e.g. `kind:<object id>`). */
  name: string
  args: unknown[]
  kwargs: Record<string, unknown>
  db: DB
  database: Database
  /** Appends text to the execution's log (a line break is added); readers see it live. */
  log(text: string): Promise<void>
  /** The runner's clock (tests inject one). */
  now(): Date
  /** Aborted when the runner stops or the execution was taken away (lease lost). */
  signal: AbortSignal
  /** The language of its log and errors: the starter's (issue 35), English for scheduled runs. */
  lang: Lang
  /** Translates a log line or an error into `lang` (server/i18n.ts), then fills `{placeholders}`. */
  t(text: string, vars?: Record<string, string | number>): string
}

/**
 * Thrown by a task that ran to its end but whose outcome is a failure (issue 35: a push whose only host failed
 * said "Success"): the execution ends FAILURE with `reason` as its reason, and `result` is still recorded.
 */
export class TaskFailed extends Error {
  constructor(reason: string, readonly result: unknown) {
    super(reason)
    this.name = 'TaskFailed'
  }
}

export interface TaskKind {
  /** Dotted name as JumpServer's Celery task path, e.g. `audits.tasks.clean_audits_log_period`. */
  name: string
  /** English; translated (server/i18n.ts) when listed. */
  displayName: string
  comment?: string
  queue?: string
  /** Default schedule stored the first time the kind is seen (later edits are kept). */
  schedule?: { crontab?: string; interval?: number; enabled?: boolean }
  /**
   * A family of schedules: rows of `celery_tasks` named `<name>:<suffix>` (created by the module, one per object
   * with its own schedule, e.g. an account automation) run this kind; `ctx.name` tells which.
   */
  family?: boolean
  /** The work: its return value is stored as the execution's result; a throw marks it FAILURE. */
  run(ctx: TaskContext): Promise<unknown>
}

const kinds = new Map<string, TaskKind>()

export function defineTask(kind: TaskKind): TaskKind {
  kinds.set(kind.name, kind)
  return kind
}

export function taskKind(name: string): TaskKind | undefined {
  const exact = kinds.get(name)
  if (exact) return exact
  const i = name.indexOf(':')
  const family = i > 0 ? kinds.get(name.slice(0, i)) : undefined
  return family?.family ? family : undefined
}

export function taskKinds(): TaskKind[] {
  return [...kinds.values()]
}
