/**
 * `npm test`: every check and every test, in order, with one summary line at the end.
 *   i18n catalogues → types (TypeScript's native compiler, `tsc` 7) → lint → unit, machine and server tests (PGlite)
 *   → the server tests that depend on the database engine, on PostgreSQL (scripts/postgres-suite.ts says which, and why)
 *   → production build + bundle budgets → end-to-end tests in Chromium, each Playwright worker against its own
 *   real server and fresh database.
 * PostgreSQL: TEST_DATABASE_URL if set (`.ci/run` sets it); otherwise a throw-away cluster is started here when
 * the PostgreSQL server binaries are installed; otherwise the PostgreSQL pass is reported as not run, with why.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { startPostgres } from './postgres-cluster.ts'
import { POSTGRES_SUITE } from './postgres-suite.ts'

interface Step { name: string; ok: boolean; ms: number; note?: string }
const steps: Step[] = []
let passed = 0
let failed = 0
/** One line per failed test (where, and the first line of why): repeated after the summary, which is what CI's tail shows. */
const failures: string[] = []
const firstLine = (message: string | undefined) =>
  // eslint-disable-next-line no-control-regex -- ANSI colour codes of the reporters
  (message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 4).join(' ⏎ ').slice(0, 400)
const only = new Set((process.env.TEST_STEPS ?? '').split(',').filter(Boolean))
const want = (name: string) => only.size === 0 || only.has(name)

function run(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  if (!want(name)) return true
  const t0 = Date.now()
  console.log(`\n━━ ${name}: ${cmd} ${args.join(' ')}`)
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  const ok = r.status === 0
  steps.push({ name, ok, ms: Date.now() - t0 })
  return ok
}

function countVitest(file: string): void {
  if (!existsSync(file)) return
  const j = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number
    numFailedTests: number
    testResults?: { name: string; message?: string; assertionResults?: { status: string; fullName: string; failureMessages?: string[] }[] }[]
  }
  passed += j.numPassedTests
  failed += j.numFailedTests
  for (const f of j.testResults ?? []) {
    const where = f.name.replace(`${process.cwd()}/`, '')
    const bad = (f.assertionResults ?? []).filter((t) => t.status === 'failed')
    for (const t of bad) failures.push(`${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`)
    if (!bad.length && f.message) failures.push(`${where}: ${firstLine(f.message)}`)
  }
}

interface PwSuite { file?: string; suites?: PwSuite[]; specs?: { title: string; line: number; file: string; tests: { status: string; results: { error?: { message?: string; location?: { line: number } } }[] }[] }[] }

function countPlaywright(file: string): void {
  if (!existsSync(file)) return
  const j = JSON.parse(readFileSync(file, 'utf8')) as { suites?: PwSuite[]; stats?: { expected: number; unexpected: number; flaky: number } }
  passed += (j.stats?.expected ?? 0) + (j.stats?.flaky ?? 0)
  failed += j.stats?.unexpected ?? 0
  const walk = (s: PwSuite) => {
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status !== 'unexpected') continue
        const error = t.results.map((r) => r.error).find((e) => e?.message)
        const at = error?.location ? ` (at line ${error.location.line})` : ''
        failures.push(`${spec.file}:${spec.line} › ${spec.title}${at}: ${firstLine(error?.message)}`)
      }
    }
    for (const c of s.suites ?? []) walk(c)
  }
  for (const s of j.suites ?? []) walk(s)
}

async function main() {
  const t0 = Date.now()
  mkdirSync('test-results', { recursive: true })
  const npx = 'npx'
  run('i18n', 'node', ['--import', 'tsx', 'scripts/i18n-check.ts'])
  run('types', npx, ['tsc', '--noEmit', '-p', '.'])
  run('lint', npx, ['eslint', '--max-warnings', '0', '.'])
  if (want('unit')) {
    rmSync('test-results/vitest.json', { force: true })
    // This pass runs the server tests on PGlite; the next one runs those that depend on the engine on PostgreSQL.
    run('unit', npx, ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'], { TEST_DATABASE_URL: '' })
    countVitest('test-results/vitest.json')
  }
  if (want('postgres')) {
    let url = process.env.TEST_DATABASE_URL
    let stop: (() => void) | undefined
    if (!url) {
      const pg = await startPostgres()
      if ('reason' in pg) steps.push({ name: 'postgres', ok: true, ms: 0, note: `not run: ${pg.reason}` })
      else ({ url, stop } = pg)
    }
    if (url) {
      rmSync('test-results/vitest-pg.json', { force: true })
      run('postgres', npx, ['vitest', 'run', '--project', 'server', ...POSTGRES_SUITE.map((t) => t.file), '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest-pg.json'], { TEST_DATABASE_URL: url })
      countVitest('test-results/vitest-pg.json')
      stop?.()
    }
  }
  if (run('build', npx, ['vite', 'build']) && existsSync('scripts/bundle-size.ts')) {
    run('budgets', 'node', ['--import', 'tsx', 'scripts/bundle-size.ts'])
  }
  if (want('e2e')) {
    rmSync('test-results/e2e.json', { force: true })
    run('e2e', npx, ['playwright', 'test'])
    const e2e = steps.find((s) => s.name === 'e2e')
    // Each Playwright worker runs its own server and database (tests/e2e/fixtures.ts); the count is in the summary.
    if (e2e) e2e.note = `${process.env.E2E_WORKERS ?? 2} workers`
    countPlaywright('test-results/e2e.json')
  }
  console.log('\n━━ summary')
  for (const s of steps) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'} ${s.name.padEnd(9)} ${(s.ms / 1000).toFixed(1).padStart(6)} s${s.note ? `  (${s.note})` : ''}`)
  console.log(`  total ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  const stepFailures = steps.filter((s) => !s.ok).length
  if (stepFailures && failed === 0) failed = stepFailures
  if (failures.length) console.log(`\n━━ failed\n${failures.slice(0, 20).map((f) => `  ${f}`).join('\n')}`)
  console.log(`\ntests: ${passed} passed, ${failed} failed`)
  process.exit(steps.every((s) => s.ok) ? 0 : 1)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
