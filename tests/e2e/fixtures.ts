import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test'

export const ADMIN = { username: 'admin', password: process.env.E2E_ADMIN_PASSWORD ?? 'Admin-Passw0rd!' }
const require = createRequire(import.meta.url)
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/** Runs axe-core in the page and fails on any violation (WCAG 2 A/AA rules). */
export async function expectNoAxeViolations(page: Page, context?: string): Promise<void> {
  const summary = await axeViolations(page, context)
  // A violation found while the page was still changing (a table refreshing its rows is dimmed, aria-busy, until
  // the answer comes) is checked again on the settled page: a real one is found both times.
  expect(summary.length ? await axeViolations(page, context) : summary, `axe violations${context ? ` on ${context}` : ''}`).toEqual([])
}

async function axeViolations(page: Page, context?: string): Promise<string[]> {
  await expect(page.locator('[aria-busy="true"]'), `the page settles before axe${context ? ` (${context})` : ''}`).toHaveCount(0)
  // Let running transitions (a tooltip fading in, a drawer sliding) finish: half-faded text fails contrast.
  // Transitions start a frame after the change that causes them (a toast entering): settle until a couple of
  // frames pass with none running (bounded).
  await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
    for (let i = 0; i < 20; i++) {
      await frame()
      const running = document.getAnimations().filter((a) => a.playState === 'running')
      if (!running.length) return
      await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 1000))])
    }
  })
  // A modal that just closed gives the page back when its exit ends (Fluent's modalizer lifts `aria-hidden` from the
  // rest of the page then): with no dialog left, wait (bounded) for that; a page still hidden after it is reported.
  await page.waitForFunction(() => !!document.querySelector('[role="dialog"],[role="alertdialog"]') || !document.querySelector('#root[aria-hidden="true"]'), null, { timeout: 5_000 }).catch(() => undefined)
  // Evaluated through the devtools protocol, not as an inline <script>: the pages' Content-Security-Policy
  // (script-src 'self') rightly refuses inline scripts.
  // Injected once per document (a page checked twice without navigating keeps it).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[]; html: string; failureSummary?: string }[] }[] }> } }).axe
    // Fluent's focus-trap sentinels (tabster "dummy" elements) are a known false positive (microsoft/tabster#288);
    // every rule still runs on everything else.
    return axe.run({ exclude: [['[data-tabster-dummy]']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
  })
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`).join(', ')}`)
}

/** A bearer token for API set-up calls (the real token endpoint). */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/v1/authentication/auth/', { data: ADMIN })
  expect([200, 201], await res.text()).toContain(res.status())
  return (await res.json()).token as string
}

/** First port of the e2e range: worker n serves on `E2E_PORT + n`, its spare port is `E2E_PORT + workers + n`. */
export const BASE_PORT = Number(process.env.E2E_PORT ?? 18080)

export interface E2eServer {
  baseURL: string
  port: number
  dataDir: string
  /** a free port of this worker for suites that start a server of their own (shell-restart) */
  sparePort: number
}

/** Starts tests/e2e/serve.ts (the real server on a fresh embedded database) on `port` with `dataDir` (and `env`, e.g. JUMPSERVER_URL). */
export function startServer(port: number, dataDir: string, env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/serve.ts'], {
    env: { ...process.env, ...env, E2E_PORT: String(port), E2E_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  child.once('exit', (code) => {
    if (code && code !== 0 && process.env.E2E_SERVER_LOG !== '0') console.error(`e2e server on :${port} exited with ${code}\n${log}`)
  })
  return child
}

/** Waits until `/api/health/` answers 200, or fails with the reason (the process ended, or 300 s passed: a loaded 2-core machine can take over a minute). */
export async function waitHealthy(baseURL: string, child?: ChildProcess, timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (child && child.exitCode !== null) throw new Error(`the e2e server on ${baseURL} exited with ${child.exitCode}`)
    const ok = await fetch(`${baseURL}/api/health/`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the e2e server on ${baseURL} did not become healthy in ${timeoutMs} ms`)
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))])
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

/**
 * Every test gets the server of its worker: one real server process on a fresh embedded database per worker,
 * started when the worker starts and stopped with it (a worker replaced after a failure starts a fresh one).
 * Specs of one worker share its database; specs of different workers never share anything.
 */
let current: E2eServer | undefined

/** The base URL of this worker's server (for request contexts a test creates itself). */
export function workerBaseURL(): string {
  if (!current) throw new Error('no e2e server in this worker yet: use the `server` or `baseURL` fixture')
  return current.baseURL
}

export const test = base.extend<object, { server: E2eServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  server: [async ({}, use, workerInfo) => {
    const port = BASE_PORT + workerInfo.parallelIndex
    const sparePort = BASE_PORT + workerInfo.config.workers + workerInfo.parallelIndex
    const dataDir = mkdtempSync(join(tmpdir(), `bastion-e2e-w${workerInfo.parallelIndex}-`))
    const baseURL = `http://127.0.0.1:${port}`
    const child = startServer(port, dataDir)
    try {
      await waitHealthy(baseURL, child)
      current = { baseURL, port, dataDir, sparePort }
      await use(current)
    } finally {
      current = undefined
      await stopServer(child)
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, { scope: 'worker', timeout: 330_000 }],
  baseURL: async ({ server }, use) => {
    await use(server.baseURL)
  },
  // Every file of the build a test's pages ask for exists: a chunk, stylesheet or image answered 4xx/5xx fails the
  // test (a lazy import's preload list once named a stylesheet the build had folded away, and each first lazy
  // import failed and waited for its retry without any test noticing).
  context: async ({ context }, use) => {
    const broken: string[] = []
    context.on('response', (response) => {
      const path = new URL(response.url()).pathname
      if (response.status() >= 400 && /^\/(ui\/assets|static)\//.test(path)) broken.push(`${response.status()} ${path}`)
    })
    await use(context)
    expect(broken, 'files of the build asked for by the pages and not found').toEqual([])
  },
})
export { expect }
