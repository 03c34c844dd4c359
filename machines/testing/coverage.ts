/**
 * Coverage records of the model-based tests (test-only). When MODEL_COVERAGE_DIR is set (`npm run test:models`
 * sets it), the unit model walks (model-walk.ts) and the UI model tests (tests/e2e/models/) append what they drove
 * — states reached, transitions taken, and for the UI the paths — to `<dir>/<kind>-<machine>.jsonl`;
 * scripts/test-models.ts prints them per machine against the definition (machines/graph.ts).
 */
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AnyMachineSnapshot } from 'xstate'

export interface CoverageRecord {
  /** state node ids active after the step (the root excluded) */
  states: string[]
  /** `<source leaf ids> --<event type>--> <target leaf ids>` */
  transitions: string[]
  /** a UI path: its events, readable */
  path?: string
}

export function coverageDir(): string | null {
  return process.env.MODEL_COVERAGE_DIR || null
}

/** The ids of the active atomic states of a snapshot, joined (`confirm.verifying.form.asking+confirm.verifying.sms.ready`). */
export function leafKey(snapshot: AnyMachineSnapshot): string {
  return snapshot._nodes.filter((node) => node.type === 'atomic' || node.type === 'final').map((node) => node.id).sort().join('+')
}

export function activeIds(snapshot: AnyMachineSnapshot): string[] {
  return snapshot._nodes.filter((node) => node.path.length > 0).map((node) => node.id)
}

export function recordCoverage(kind: 'unit' | 'ui', machineId: string, record: CoverageRecord): void {
  const dir = coverageDir()
  if (!dir) return
  mkdirSync(dir, { recursive: true })
  appendFileSync(join(dir, `${kind}-${machineId}.jsonl`), `${JSON.stringify(record)}\n`)
}
