/** Shared parts of the server benchmarks (not tests): timing with percentiles, and a run on both databases. */

export interface Stat { median: number; p95: number; n: number }

export function stats(samples: number[]): Stat {
  const s = [...samples].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
  return { median: at(0.5), p95: at(0.95), n: s.length }
}

/** One warm-up call, then `n` timed calls (each given its index, from 1). */
export async function time(n: number, fn: (i: number) => Promise<void>): Promise<Stat> {
  await fn(0)
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await fn(i + 1)
    samples.push(performance.now() - t0)
  }
  return stats(samples)
}

export const fmt = (s: Stat) => `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms (n=${s.n})`

/**
 * Runs a benchmark on PGlite (unless BENCH_SKIP_PGLITE=1) and on PostgreSQL when BENCH_DATABASE_URL (or
 * DATABASE_URL) names a server where databases can be created; the exit code says whether every budget was met.
 */
export async function onBothDatabases(run: (label: string) => Promise<boolean>): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL
  const saved = process.env.TEST_DATABASE_URL
  delete process.env.TEST_DATABASE_URL
  const results: boolean[] = []
  if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await run('PGlite (embedded)'))
  if (pgUrl) {
    process.env.TEST_DATABASE_URL = pgUrl
    results.push(await run(`PostgreSQL (${new URL(pgUrl).host})`))
  } else {
    console.log('\n== PostgreSQL: skipped (set BENCH_DATABASE_URL or DATABASE_URL to a server where a database can be created)')
  }
  if (saved === undefined) delete process.env.TEST_DATABASE_URL
  else process.env.TEST_DATABASE_URL = saved
  process.exitCode = results.every(Boolean) ? 0 : 1
}
