/** Reading an execution's log and state, and the per-process fan-out of "this log changed" notifications. */
import type { Database, DB } from '../db/connection.ts'
import { FINISHED, TASK_LOG_CHANNEL, type TaskState } from './runner.ts'

/** Largest piece of log sent or answered at once. */
export const LOG_PAGE = 256

export interface LogSlice { data: string; mark: number; state: TaskState | null; end: boolean }

/** Log text after chunk `mark` (0 = from the start) and the execution's state; `end` when finished and all read. */
export async function readLog(db: DB, id: string, mark: number): Promise<LogSlice> {
  const exec = await db.selectFrom('task_executions').select('state').where('id', '=', id).executeTakeFirst()
  const chunks = await db.selectFrom('task_log_chunks').select(['id', 'data'])
    .where('execution_id', '=', id).where('id', '>', mark).orderBy('id').limit(LOG_PAGE).execute()
  const last = chunks.at(-1)?.id ?? mark
  const state = (exec?.state ?? null) as TaskState | null
  // The state is read first: a finished execution has written its last chunk before its state changed.
  const end = !state || (FINISHED.includes(state) && chunks.length < LOG_PAGE)
  return { data: chunks.map((c) => c.data).join(''), mark: last, state, end }
}

/** Per-process registry of live log readers, woken by NOTIFY from whichever process writes the log. */
export class TaskLogHub {
  private readonly readers = new Map<string, Set<() => void>>()
  private unlisten?: () => Promise<void>
  constructor(private readonly database: Database) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(TASK_LOG_CHANNEL, (id) => this.readers.get(id)?.forEach((wake) => wake()))
  }

  async stop(): Promise<void> {
    await this.unlisten?.()
  }

  add(id: string, wake: () => void): () => void {
    let set = this.readers.get(id)
    if (!set) this.readers.set(id, (set = new Set()))
    set.add(wake)
    return () => {
      set.delete(wake)
      if (!set.size) this.readers.delete(id)
    }
  }
}
