/**
 * A first visit of a list page (docs/architecture.md, "First visit"): the early script asks the list's metadata and
 * first page before the console's code has arrived, and the client adopts those answers — once, for the very same
 * request. When the guess is wrong (another organization) or the session has ended, the early answers are left
 * and the console loads the ordinary way.
 */
import type { Page, Request } from '@playwright/test'
import { expect, test } from './fixtures.ts'
import { api, grid, login, row, unique } from './generic-support.ts'

const USERS = '/api/v1/users/users/'
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002'

/** GET/OPTIONS requests to the users list URL, with the organization header each carried. */
function watch(page: Page) {
  const seen: Request[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === USERS && (r.method() === 'GET' || r.method() === 'OPTIONS')) seen.push(r)
  })
  const of = (method: string) => seen.filter((r) => r.method() === method)
  return {
    lists: () => of('GET').map((r) => `${new URL(r.url()).search} ${r.headers()['x-jms-org'] ?? '-'}`),
    options: () => of('OPTIONS').map((r) => r.headers()['x-jms-org'] ?? '-'),
  }
}

test('a first visit asks the list’s metadata and first page once, early, and shows them', async ({ page, request }) => {
  const a = await api(request)
  const username = unique('early')
  await a.post(USERS, { name: 'Early person', username, email: `${username}@example.com` })
  await login(page, '/console/users/groups')
  await expect(grid(page)).toBeVisible()

  const users = watch(page)
  const refused: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text())
  })
  const answer = await page.goto('/ui/console/users/users')
  await expect(row(page, username)).toBeVisible()
  // The early script is written into the page and allowed by its hash: no 'unsafe-inline', nothing refused.
  const scriptSrc = (await answer!.allHeaders())['content-security-policy']?.split(';').find((d) => d.trim().startsWith('script-src'))
  expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/)
  expect(scriptSrc).not.toContain('unsafe-inline')
  expect(refused).toEqual([])
  await page.waitForLoadState('networkidle')
  expect(users.lists()).toEqual([`?limit=15&offset=0 ${DEFAULT_ORG}`])
  expect(users.options()).toEqual([DEFAULT_ORG])
  // Both left before the console's own code started (its `bastion:main` mark).
  const early = await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    .filter((e) => e.name.includes('/api/v1/users/users/'))
    .map((e) => e.startTime < (performance.getEntriesByType('mark').find((m) => m.name === 'bastion:main')?.startTime ?? 0)))
  expect(early).toEqual([true, true])
})

test('a wrong guess of the organization is left, and the console asks in its own', async ({ page, context, request }) => {
  const a = await api(request)
  const username = unique('early')
  await a.post(USERS, { name: 'Early org person', username, email: `${username}@example.com` })
  await login(page, '/console/users/groups')
  await expect(grid(page)).toBeVisible()
  // The organization cookie names another organization than the one this user's console will use (DEFAULT, as
  // remembered in localStorage): the early script's guess is wrong.
  const other = '6f0c7a5e-3b2d-4c1a-9e8f-0a1b2c3d4e5f'
  await context.addCookies([{ name: 'X-JMS-ORG', value: other, url: page.url() }])

  const users = watch(page)
  const refused: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text())
  })
  const answer = await page.goto('/ui/console/users/users')
  await expect(row(page, username)).toBeVisible()
  // The early script is written into the page and allowed by its hash: no 'unsafe-inline', nothing refused.
  const scriptSrc = (await answer!.allHeaders())['content-security-policy']?.split(';').find((d) => d.trim().startsWith('script-src'))
  expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/)
  expect(scriptSrc).not.toContain('unsafe-inline')
  expect(refused).toEqual([])
  await page.waitForLoadState('networkidle')
  expect(users.lists()).toEqual([`?limit=15&offset=0 ${other}`, `?limit=15&offset=0 ${DEFAULT_ORG}`])
  expect(users.options()).toEqual([other, DEFAULT_ORG])
})

test('with the session ended, the early answers are left and the console goes to the login page', async ({ page, context }) => {
  await login(page, '/console/users/groups')
  await expect(grid(page)).toBeVisible()
  // The session mark stays (so the early script asks), the session itself is gone.
  await context.clearCookies({ name: 'jms_sessionid' })
  const users = watch(page)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/ui/console/users/users')
  await page.waitForURL(/\/core\/auth\/login\//)
  expect(users.lists()).toHaveLength(1)
  expect(errors).toEqual([])
})

test('the first screen’s styles come from the built stylesheet: Griffel inserts no rule while rendering', async ({ page }) => {
  await login(page, '/console/users/users')
  await expect(grid(page)).toBeVisible()
  // Fluent's pre-compiled styles and the console's own makeStyles are extracted at build time
  // (scripts/griffel-extract.ts); a call left to run time would insert its rules into Griffel's <style> buckets.
  const styles = await page.evaluate(() => ({
    linked: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => (l.sheet?.cssRules.length ?? 0) > 1000),
    inserted: [...document.querySelectorAll<HTMLStyleElement>('style[data-make-styles-bucket]')].reduce((n, s) => n + (s.sheet?.cssRules.length ?? 0), 0),
  }))
  expect(styles).toEqual({ linked: [true], inserted: 0 })
  // …and the rules apply: the primary button has the brand colour of the theme.
  const create = page.getByRole('button', { name: 'Create' }).first()
  expect(await create.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)')
})
