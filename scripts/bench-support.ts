/**
 * Shared parts of the server benchmarks (not tests): timing with percentiles, and a run on both databases.
 *
 * Besides wall time, each figure carries the CPU time a request costs (median, this process: the server and, on
 * PGlite, the database) and, on PostgreSQL, the mean CPU time of the database's backends per request (read from
 * /proc, 10 ms ticks summed over the run). On a loaded machine the wall time grows with the load; the CPU time
 * is what a quiet machine's wall time comes down to (docs/running.md "Benchmarks"). And the SQL statements a request
 * sends (median): a figure no load changes either.
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'kysely'
import pg from 'pg'
import type { DB } from '../server/db/connection.ts'
import { startPostgres } from './postgres-cluster.ts'

export interface Stat { median: number; p95: number; n: number; cpu: number; dbCpu?: number; queries: number }

/** Statements sent to either database by this process (counted where every query of both clients passes). */
let statements = 0
{
  const pgliteQuery = PGlite.prototype.query
  PGlite.prototype.query = function (this: PGlite, ...args: Parameters<PGlite['query']>) {
    statements++
    return pgliteQuery.apply(this, args)
  } as PGlite['query']
  const pgliteExec = PGlite.prototype.exec
  PGlite.prototype.exec = function (this: PGlite, ...args: Parameters<PGlite['exec']>) {
    statements++
    return pgliteExec.apply(this, args)
  } as PGlite['exec']
  const pgQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++
    return pgQuery.apply(this, args)
  } as typeof pg.Client.prototype.query
}

export function stats(samples: number[]): Pick<Stat, 'median' | 'p95' | 'n'> {
  const s = [...samples].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
  return { median: at(0.5), p95: at(0.95), n: s.length }
}

/** PostgreSQL backends to charge: those of the database `db` is connected to (on the same machine). */
let backends: { db: DB } | undefined
export function chargeBackendsOf(db: DB | undefined): void {
  backends = db ? { db } : undefined
}

const TICK_MS = 10 // USER_HZ = 100 on Linux
async function backendCpuMs(): Promise<number | undefined> {
  if (!backends) return undefined
  const pids = (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(backends.db)).rows.map((r) => r.pid)
  let ticks = 0
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = f.slice(f.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12]) // utime, stime
    } catch {
      return undefined // not on this machine
    }
  }
  return ticks * TICK_MS
}

/** One warm-up call, then `n` timed calls (each given its index, from 1). */
export async function time(n: number, fn: (i: number) => Promise<void>): Promise<Stat> {
  await fn(0)
  const samples: number[] = []
  const cpus: number[] = []
  const counts: number[] = []
  const db0 = await backendCpuMs()
  for (let i = 0; i < n; i++) {
    const q0 = statements
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await fn(i + 1)
    samples.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    cpus.push((c.user + c.system) / 1000)
    counts.push(statements - q0)
  }
  const db1 = await backendCpuMs()
  const dbCpu = db0 !== undefined && db1 !== undefined ? (db1 - db0) / n : undefined
  return { ...stats(samples), cpu: stats(cpus).median, dbCpu, queries: stats(counts).median }
}

export const fmt = (s: Stat) => `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms (n=${s.n}); cpu ${s.cpu.toFixed(2)} ms${s.dbCpu !== undefined ? ` + PostgreSQL ${s.dbCpu.toFixed(1)} ms` : ''}; ${s.queries} SQL statements`

/**
 * A budget's verdict, on the wall median (what the budget is written against). The CPU time a request costs is
 * printed beside it: when the load average is high the wall median says more about the other processes than about
 * this server, and the CPU time is what a quiet machine's wall median comes down to.
 */
export function verdict(name: string, s: Stat, budgetMs: number): { ok: boolean; line: string } {
  const ok = s.median <= budgetMs
  const cpu = s.cpu + (s.dbCpu ?? 0)
  return {
    ok,
    line: `${ok ? 'met   ' : 'MISSED'} ${name}: median ${s.median.toFixed(2)} ms against ${budgetMs} ms (cpu per request ${cpu.toFixed(2)} ms${cpu <= budgetMs ? ', within the budget' : ', over the budget'}; ${load()})`,
  }
}

/** The machine's load, printed with each run (figures under load are slower than a quiet machine's). */
export function load(): string {
  try {
    return `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`
  } catch {
    return 'load unknown'
  }
}

/**
 * Runs a benchmark on PGlite (unless BENCH_SKIP_PGLITE=1) and on PostgreSQL: the server BENCH_DATABASE_URL (or
 * DATABASE_URL) names, where databases can be created, or with BENCH_POSTGRES=1 a throw-away cluster started
 * here (scripts/postgres-cluster.ts; on BENCH_PG_PORT, else a random port) and stopped at the end. The exit code
 * says whether every budget was met.
 */
export async function onBothDatabases(run: (label: string) => Promise<boolean>): Promise<void> {
  let pgUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL
  let cluster: { stop: () => void } | undefined
  const results: boolean[] = []
  if (!pgUrl && process.env.BENCH_POSTGRES === '1') {
    const started = await startPostgres({ port: process.env.BENCH_PG_PORT ? Number(process.env.BENCH_PG_PORT) : undefined })
    if ('reason' in started) {
      console.log(`\n== PostgreSQL: could not start a cluster (${started.reason})`)
      results.push(false)
    } else {
      cluster = started
      pgUrl = started.url
    }
  }
  const saved = process.env.TEST_DATABASE_URL
  delete process.env.TEST_DATABASE_URL
  try {
    if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await run(`PGlite (embedded), ${load()}`))
    if (pgUrl) {
      process.env.TEST_DATABASE_URL = pgUrl
      results.push(await run(`PostgreSQL (${new URL(pgUrl).host}${cluster ? ', a cluster started for this run' : ''}), ${load()}`))
    } else if (process.env.BENCH_POSTGRES !== '1') {
      console.log('\n== PostgreSQL: skipped (BENCH_POSTGRES=1 starts a cluster; or set BENCH_DATABASE_URL to a server where a database can be created)')
    }
  } finally {
    if (saved === undefined) delete process.env.TEST_DATABASE_URL
    else process.env.TEST_DATABASE_URL = saved
    cluster?.stop()
  }
  process.exitCode = results.every(Boolean) ? 0 : 1
}
