/**
 * `npm run test:models`: every model-based test alone — the unit model walks of machines/ (vitest) and the
 * model-driven UI tests of tests/e2e/models/ (Playwright, production build, real server) — then, per machine,
 * the states and transitions of its definition (machines/graph.ts) that each drove, and the paths driven in
 * Chromium. docs/machines/model-testing.md explains the output and how to add a machine.
 *   MODELS_SKIP_BUILD=1  reuse dist/ (after `npx vite build`)
 *   MODELS_REPORT_ONLY=1 print the report of the last run only
 *   E2E_PORT, E2E_WORKERS as for the e2e tests
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { AnyStateMachine } from 'xstate'
import { machineGraph } from '../machines/graph.ts'
import * as catalogue from '../machines/index.ts'
import type { CoverageRecord } from '../machines/testing/coverage.ts'

// not under test-results/: Playwright empties that folder when it starts (the unit walks' records would go)
const DIR = resolve('.tmp/model-coverage')

function run(cmd: string, args: string[]): boolean {
  console.log(`\n━━ ${cmd} ${args.join(' ')}`)
  return spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, MODEL_COVERAGE_DIR: DIR } }).status === 0
}

function records(kind: 'unit' | 'ui', id: string): CoverageRecord[] {
  const file = join(DIR, `${kind}-${id}.jsonl`)
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CoverageRecord)
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'getStateNodeById' in value
}

function report(): void {
  const machines = Object.entries(catalogue)
    .filter((entry): entry is [string, AnyStateMachine] => entry[0].endsWith('Machine') && isMachine(entry[1]))
    .map(([, machine]) => machine)
    .sort((a, b) => a.id.localeCompare(b.id))
  console.log('\n━━ model coverage (states of the definition reached, pass-through states left out; transitions taken: source → event → target)')
  console.log(`  ${'machine'.padEnd(16)} ${'states'.padStart(6)} ${'unit'.padStart(5)} ${'UI'.padStart(5)}   ${'edges'.padStart(5)} ${'unit'.padStart(5)} ${'UI'.padStart(5)}  UI paths`)
  const notes: string[] = []
  for (const machine of machines) {
    const graph = machineGraph(machine)
    // states only passed through (an unguarded eventless transition) are never at rest: not counted
    const transient = new Set(graph.edges.filter((edge) => edge.event === 'always' && edge.guard === null).map((edge) => edge.sourceId))
    const states = graph.nodes.filter((node) => node.path.length > 0 && !transient.has(node.id)).map((node) => node.id)
    const unit = records('unit', machine.id)
    const ui = records('ui', machine.id)
    const reached = (list: CoverageRecord[]) => new Set(list.flatMap((r) => r.states).filter((id) => states.includes(id)))
    const taken = (list: CoverageRecord[]) => new Set(list.flatMap((r) => r.transitions))
    const uiPaths = ui.filter((r) => r.path).map((r) => r.path!)
    console.log(`  ${machine.id.padEnd(16)} ${String(states.length).padStart(6)} ${String(reached(unit).size).padStart(5)} ${String(reached(ui).size).padStart(5)}   ${String(graph.edges.length).padStart(5)} ${String(taken(unit).size).padStart(5)} ${String(taken(ui).size).padStart(5)}  ${uiPaths.length}`)
    if (uiPaths.length > 0) {
      const missed = states.filter((id) => !reached(ui).has(id))
      notes.push(`\n  ${machine.id} — paths driven in Chromium:`)
      for (const path of [...new Set(uiPaths)]) notes.push(`    • ${path}`)
      if (missed.length > 0) notes.push(`    states not driven in the UI: ${missed.map((id) => id.slice(machine.id.length + 1)).join(', ')}`)
    }
  }
  console.log('  (edges: transitions in the definition; unit/UI: distinct source → event → target taken)')
  console.log(notes.join('\n'))
}

function main(): void {
  if (process.env.MODELS_REPORT_ONLY === '1') return report()
  rmSync(DIR, { recursive: true, force: true })
  let ok = run('npx', ['lingui', 'compile', '--typescript'])
  ok = run('npx', ['vitest', 'run', '--project', 'web', 'machines/']) && ok
  if (process.env.MODELS_SKIP_BUILD !== '1') ok = run('npx', ['vite', 'build']) && ok
  ok = run('npx', ['playwright', 'test', 'tests/e2e/models/']) && ok
  report()
  console.log(ok ? '\nmodel tests: passed' : '\nmodel tests: FAILED')
  process.exit(ok ? 0 : 1)
}

main()
