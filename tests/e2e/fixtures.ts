import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test'

export const ADMIN = { username: 'admin', password: process.env.E2E_ADMIN_PASSWORD ?? 'Admin-Passw0rd!' }
const require = createRequire(import.meta.url)
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/** Runs axe-core in the page and fails on any violation (WCAG 2 A/AA rules). */
export async function expectNoAxeViolations(page: Page, context?: string): Promise<void> {
  // Let running transitions (a tooltip fading in, a drawer sliding) finish: half-faded text fails contrast.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))))
  // Evaluated through the devtools protocol, not as an inline <script>: the pages' Content-Security-Policy
  // (script-src 'self') rightly refuses inline scripts.
  await page.evaluate(axeSource)
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe
    // Fluent's focus-trap sentinels (tabster "dummy" elements) are a known false positive (microsoft/tabster#288);
    // every rule still runs on everything else.
    return axe.run({ exclude: [['[data-tabster-dummy]']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
  })
  const summary = result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)
  expect(summary, `axe violations${context ? ` on ${context}` : ''}`).toEqual([])
}

/** A bearer token for API set-up calls (the real token endpoint). */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/v1/authentication/auth/', { data: ADMIN })
  expect([200, 201], await res.text()).toContain(res.status())
  return (await res.json()).token as string
}

export const test = base
export { expect }
