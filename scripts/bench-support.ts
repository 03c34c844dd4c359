/**
 * Shared parts of the server benchmarks (not tests): timing with percentiles, and a run on both databases.
 *
 * Besides wall time, each figure carries the CPU time a request costs (median, this process: the server and, on
 * PGlite, the database) and, on PostgreSQL, the mean CPU time of the database's backends per request (read from
 * /proc, 10 ms ticks summed over the run). On a loaded machine the wall time grows with the load; the CPU time
 * is what a quiet machine's wall time comes down to (docs/running.md "Benchmarks").
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import type { DB } from '../server/db/connection.ts'

export interface Stat { median: number; p95: number; n: number; cpu: number; dbCpu?: number }

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
  const db0 = await backendCpuMs()
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await fn(i + 1)
    samples.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    cpus.push((c.user + c.system) / 1000)
  }
  const db1 = await backendCpuMs()
  const dbCpu = db0 !== undefined && db1 !== undefined ? (db1 - db0) / n : undefined
  return { ...stats(samples), cpu: stats(cpus).median, dbCpu }
}

export const fmt = (s: Stat) => `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms (n=${s.n}); cpu ${s.cpu.toFixed(1)} ms${s.dbCpu !== undefined ? ` + PostgreSQL ${s.dbCpu.toFixed(1)} ms` : ''}`

/** The machine's load, printed with each run (figures under load are slower than a quiet machine's). */
export function load(): string {
  try {
    return `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`
  } catch {
    return 'load unknown'
  }
}

/**
 * Runs a benchmark on PGlite (unless BENCH_SKIP_PGLITE=1) and on PostgreSQL when BENCH_DATABASE_URL (or
 * DATABASE_URL) names a server where databases can be created; the exit code says whether every budget was met.
 */
export async function onBothDatabases(run: (label: string) => Promise<boolean>): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL
  const saved = process.env.TEST_DATABASE_URL
  delete process.env.TEST_DATABASE_URL
  const results: boolean[] = []
  if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await run(`PGlite (embedded), ${load()}`))
  if (pgUrl) {
    process.env.TEST_DATABASE_URL = pgUrl
    results.push(await run(`PostgreSQL (${new URL(pgUrl).host}), ${load()}`))
  } else {
    console.log('\n== PostgreSQL: skipped (set BENCH_DATABASE_URL or DATABASE_URL to a server where a database can be created)')
  }
  if (saved === undefined) delete process.env.TEST_DATABASE_URL
  else process.env.TEST_DATABASE_URL = saved
  process.exitCode = results.every(Boolean) ? 0 : 1
}
