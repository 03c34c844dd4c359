/**
 * Helpers of the generic list/form/detail suites (tests/e2e/generic-*.spec.ts): API set-up with the admin's
 * bearer token, logging in through the real login page, and locators that read like the page.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { ADMIN, adminToken, expect, workerBaseURL } from './fixtures.ts'

export interface Api {
  get: (url: string) => Promise<any>
  post: (url: string, body: unknown) => Promise<any>
  patch: (url: string, body: unknown) => Promise<any>
  del: (url: string) => Promise<void>
  /** OPTIONS metadata of a list URL */
  options: (url: string) => Promise<any>
}

export async function api(request: APIRequestContext): Promise<Api> {
  const token = await adminToken(request)
  const headers = { Authorization: `Bearer ${token}` }
  const check = async (res: Awaited<ReturnType<APIRequestContext['get']>>, what: string) => {
    expect(res.status(), `${what}: ${await res.text()}`).toBeLessThan(300)
    const text = await res.text()
    return text ? JSON.parse(text) : undefined
  }
  const out: Api = {
    get: async (url) => check(await request.get(url, { headers }), `GET ${url}`),
    post: async (url, body) => check(await request.post(url, { headers, data: body }), `POST ${url}`),
    patch: async (url, body) => check(await request.patch(url, { headers, data: body }), `PATCH ${url}`),
    del: async (url) => {
      await check(await request.delete(url, { headers }), `DELETE ${url}`)
    },
    options: async (url) => check(await request.fetch(url, { method: 'OPTIONS', headers }), `OPTIONS ${url}`),
  }
  // The administrator's first login would otherwise lead to the profile improvement page.
  await out.patch('/api/v1/users/profile/', { is_first_login: false })
  return out
}

/** A name unique to this run. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`
}

/** Cookies of a login through the form, per server and user, for suites that opt into reusing the session. */
const sessions = new Map<string, Awaited<ReturnType<ReturnType<Page['context']>['cookies']>>>()

/**
 * Logs in through the real login page and opens `path` (under /ui). With `reuse`, a later call of the same
 * worker for the same user starts from the session cookies of the first login (the form login is what the
 * login suites test; walks over many pages need only a session) and falls back to the form when the server no
 * longer knows that session.
 */
export async function login(page: Page, path: string, user = ADMIN, opts: { reuse?: boolean } = {}): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('viewSwitcherTip', '1'))
  const key = `${workerBaseURL()} ${user.username}`
  const saved = opts.reuse ? sessions.get(key) : undefined
  if (saved) {
    await page.context().addCookies(saved)
    if ((await page.request.get('/api/v1/users/profile/')).ok()) {
      await page.goto(`/ui${path}`)
      return
    }
    sessions.delete(key)
    await page.context().clearCookies()
  }
  await page.goto(`/core/auth/login/?next=${encodeURIComponent(`/ui${path}`)}`)
  await page.locator('input[name="username"]').fill(user.username)
  await page.locator('input[name="password"]').fill(user.password)
  await page.locator('input[name="password"]').press('Enter')
  await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
  if (opts.reuse) sessions.set(key, await page.context().cookies())
  if (!new URL(page.url()).pathname.startsWith(`/ui${path}`)) await page.goto(`/ui${path}`)
}

export function grid(page: Page): Locator {
  return page.getByRole('grid').first()
}

/** Data rows (not the header) containing the text. */
export function row(page: Page, text: string): Locator {
  return grid(page).locator('[role="row"][data-row-id]').filter({ hasText: text })
}

/** Clicks a row action: a visible button, or the item of the row's More menu. */
export async function rowAction(page: Page, text: string, action: string): Promise<void> {
  const r = row(page, text).first()
  await expect(r).toBeVisible()
  const button = r.getByRole('button', { name: new RegExp(`^${action}\\b`) })
  const item = page.getByRole('menuitem', { name: action, exact: true })
  // A row can be on screen a moment before its commands are (a list re-rendering after a search): the action is
  // looked for again, in the row and in its More menu, until it is found; only the final click acts.
  // A click that went through while Playwright reported it failed (the page left under it) leaves no row: done.
  let tried = false
  await expect(async () => {
    if (tried && !(await r.count())) return
    if (await button.count()) {
      tried = true
      await button.first().click({ timeout: 2_000 })
      return
    }
    await r.locator('[data-command="more"]').click({ timeout: 2_000 })
    try {
      tried = true
      await item.click({ timeout: 2_000 })
    } catch (error) {
      await page.keyboard.press('Escape')
      throw error
    }
  }).toPass({ timeout: 20_000 })
}

/**
 * Waits until the router shows the page of the current address (`main`'s `data-settled`; until a pushed address is
 * loaded the last page stays on screen) and no list is loading (the table's `aria-busy`): a reload after a change
 * must not race the next step.
 */
export async function listSettled(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => {
    const main = document.querySelector('main#main')
    const here = decodeURIComponent(location.pathname.replace(/^\/ui/, '') + location.search)
    return !main || decodeURIComponent(main.getAttribute('data-settled') ?? '') === here
  }), 'the router shows the page of the address').toBe(true)
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
}

export async function selectRows(page: Page, texts: readonly string[]): Promise<void> {
  await listSettled(page)
  for (const text of texts) await row(page, text).first().getByRole('checkbox').check()
}

export async function bulkAction(page: Page, action: string): Promise<void> {
  await page.locator('[data-command="bulk"]').click()
  await page.getByRole('menuitem', { name: action, exact: true }).click()
}

export async function confirmDialog(page: Page, button: string): Promise<void> {
  const dialog = page.getByRole('alertdialog')
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await expect(dialog).toBeHidden()
}

/** Searches the list with a free-text term. */
export async function search(page: Page, term: string): Promise<void> {
  const box = page.getByRole('search').getByRole('textbox')
  await box.fill(term)
  await box.press('Enter')
}

/** Ids of the rows shown. */
export async function rowIds(page: Page): Promise<string[]> {
  return grid(page).locator('[data-row-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id') ?? ''))
}

/** The rows of a list answer, paginated or bare. */
export function results(body: any): any[] {
  return Array.isArray(body) ? body : body.results
}

/** With E2E_SHOTS_DIR set, full-page screenshots of the page at 1440 and 360 px (`<name>-1440.png`, `<name>-360.png`). */
export async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR
  if (!dir) return
  for (const [width, height] of [[1440, 900], [360, 800]] as const) {
    await page.setViewportSize({ width, height })
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1440, height: 900 })
}

/** Id of one permission by codename. */
export async function permissionId(a: Api, codename: string): Promise<number> {
  const [app, code] = codename.split('.')
  const rows = results(await a.get(`/api/v1/rbac/permissions/?search=${encodeURIComponent(code!)}`))
  const found = rows.find((p: any) => p.app_label === app && p.codename === code)
  expect(found, codename).toBeTruthy()
  return found.id as number
}

/** A user who can log in with a password, with the given org roles (and the built-in User system role). */
export async function createLoginUser(a: Api, request: APIRequestContext, orgRoles: readonly string[]): Promise<{ username: string; password: string; id: string }> {
  const username = unique('viewer')
  const password = 'Viewer-Passw0rd!'
  const user = await a.post('/api/v1/users/users/', {
    name: username, username, email: `${username}@example.com`, password_strategy: 'custom', password,
    system_roles: ['00000000-0000-0000-0000-000000000003'], org_roles: orgRoles, need_update_password: false,
  })
  // Past the first-login page: the user's own profile says so.
  const auth = await request.post('/api/v1/authentication/auth/', { data: { username, password } })
  expect(auth.status(), await auth.text()).toBeLessThan(300)
  const { token } = (await auth.json()) as { token: string }
  const res = await request.patch('/api/v1/users/profile/', { headers: { Authorization: `Bearer ${token}` }, data: { is_first_login: false } })
  expect(res.status(), await res.text()).toBe(200)
  return { username, password, id: user.id as string }
}
