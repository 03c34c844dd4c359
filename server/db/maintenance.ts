/**
 * Planner statistics and vacuuming the server does itself (docs/decisions/planner-statistics-pglite-gets-autovacuum-s-rules-bulk.md).
 *
 * PostgreSQL's autovacuum analyzes and vacuums tables in the background; embedded PGlite has no autovacuum, so a
 * table's statistics stay as they were (often: never gathered) and the planner picks plans for a table it thinks
 * empty — a list joined to a 20,000-row table it believes to hold one row walked all of it. On PGlite a timer does
 * what autovacuum would, with its default thresholds: analyze a table once more than 50 + 10% of its rows changed
 * since the last analyze; vacuum it once more than 50 + 20% are dead, or 1,000 + 20% were inserted since the last
 * vacuum (so index-only scans stay index-only).
 *
 * On both databases, code that rewrites many rows of a table in one go (a user's grant cache rebuilt) asks for the
 * table to be analyzed at once (`analyzeSoon`): autovacuum would take a minute or more to notice, and the next
 * request's plan depends on it.
 */
import { sql } from 'kysely'
import type { DB } from './connection.ts'

export interface Maintenance {
  /** Analyze these tables shortly, in the background (coalesced per table). */
  analyzeSoon(tables: string[]): void
  /** One pass of the PGlite autovacuum rules now (tests and start-up); returns what it did. */
  pass(): Promise<string[]>
  stop(): Promise<void>
}

const byDb = new WeakMap<DB, Maintenance>()

/** Asks the maintenance of `db` (if any) to analyze the tables soon. */
export function analyzeSoon(db: DB, ...tables: string[]): void {
  byDb.get(db)?.analyzeSoon(tables)
}

const IDENT = /^[a-z_][a-z0-9_]*$/

export function startMaintenance(db: DB, opts: { autovacuum: boolean; everyMs?: number }): Maintenance {
  const pending = new Set<string>()
  let running: Promise<unknown> = Promise.resolve()
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const run = (work: () => Promise<unknown>) => {
    running = running.then(() => (stopped ? undefined : work())).catch((e: Error) => {
      if (!stopped) console.warn(`database maintenance: ${e.message}`)
    })
    return running
  }
  const flush = async () => {
    const tables = [...pending]
    pending.clear()
    for (const t of tables) if (IDENT.test(t)) await sql`analyze ${sql.id(t)}`.execute(db)
  }
  let queued = false
  const pass = async (): Promise<string[]> => {
    const r = await sql<{ relname: string; analyze: boolean; vacuum: boolean }>`select s.relname,
        s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze,
        (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) as vacuum
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.schemaname = 'public'`.execute(db)
    const done: string[] = []
    for (const t of r.rows) {
      if (stopped || !IDENT.test(t.relname)) continue
      if (t.vacuum) {
        await sql`vacuum (analyze) ${sql.id(t.relname)}`.execute(db)
        done.push(`vacuum analyze ${t.relname}`)
      } else if (t.analyze) {
        await sql`analyze ${sql.id(t.relname)}`.execute(db)
        done.push(`analyze ${t.relname}`)
      }
    }
    return done
  }
  const m: Maintenance = {
    analyzeSoon(tables) {
      if (stopped) return
      for (const t of tables) pending.add(t)
      // Queued at once (not on a timer): a busy in-process caller would starve the timer phase of the event loop.
      if (!queued) {
        queued = true
        void run(() => {
          queued = false
          return flush()
        })
      }
    },
    pass: () => run(pass) as Promise<string[]>,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
      byDb.delete(db)
    },
  }
  if (opts.autovacuum) {
    const tick = () => {
      timer = setTimeout(() => void run(pass).finally(() => { if (!stopped) tick() }), opts.everyMs ?? 10_000)
      timer.unref?.()
    }
    tick()
  }
  byDb.set(db, m)
  return m
}
