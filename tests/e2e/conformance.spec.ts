/**
 * Console conformance: every resource of the console manifest (src/views/manifest.ts) that has pages goes
 * through list → create → detail → edit → delete → export in real Chromium against the real server, with axe on
 * every page. The resources are read from the manifest itself (tests/e2e/support/manifest.ts): a new manifest
 * entry is a new case here, with no line added. Create fills the required fields the OPTIONS metadata names,
 * with values generated from each field's type; `HINTS` holds only what generation cannot know (a list that
 * needs a fixed filter, an endpoint picked by a query). Per-resource specs (generic-*.spec.ts) keep only what is
 * special to their resource.
 */
import { readFileSync } from 'node:fs'
import type { APIRequestContext, Browser, Page } from '@playwright/test'
import { adminToken, expect, expectNoAxeViolations, test as base } from './fixtures.ts'
import { api, login, results, unique, type Api } from './generic-support.ts'
import { RESOURCES, type ManifestResource } from './support/manifest.ts'
import { bindOtp, freshCode } from './support/otp.ts'

interface FieldMeta {
  type: string
  label?: string
  required?: boolean
  read_only?: boolean
  default?: unknown
  max_length?: number
  choices?: { value: unknown; label: string }[]
}

interface Hint {
  /** the API endpoint objects are created in and read back from, when the manifest URL is a family of them */
  apiUrl?: string
  /** search params of every page of the resource (a list scoped to one object, a scope tab) */
  search?: (a: Api) => Promise<Record<string, string>>
}

/** Only what cannot be generated from the manifest and the metadata. */
const HINTS: Readonly<Record<string, Hint>> = {
  // Roles: one manifest entry for the system and organization role endpoints; `?scope=` picks one.
  roles: { apiUrl: '/api/v1/rbac/org-roles/', search: async () => ({ scope: 'org', activeTab: 'org' }) },
  // Login ACLs of a user: the pages work on one user's rules (`?user=`), which also fills the required `user`.
  'user-acls': { search: async (a) => ({ user: String((await a.get('/api/v1/users/profile/')).id) }) },
  // Gateways are created from a domain (`?domain=` fixes the required domain).
  gateways: { search: async (a) => ({ domain: String((await a.post('/api/v1/assets/domains/', { name: unique('cf-zone') })).id) }) },
  // Accounts belong to an asset: a host created through the API (the form opens on it, as the asset's accounts tab
  // opens it with `?asset=`).
  accounts: { search: async (a) => ({ asset: String((await a.post('/api/v1/assets/hosts/', { name: unique('cf-host'), address: '127.0.0.1', platform: 1 })).id) }) },
  // Sync instance tasks scan a cloud account's region into a node: an account and the root node through the API,
  // the form opens on them (as from an account), with a loopback region.
  'sync-instance-tasks': {
    search: async (a) => ({
      account: String((await a.post('/api/v1/xpack/cloud/accounts/', { name: unique('cf-lan'), provider: 'lan', attrs: { ip_group: ['127.0.0.1'] } })).id),
      node: String(results(await a.get('/api/v1/assets/nodes/'))[0].id),
      regions: '127.0.0.1',
    }),
  },
  // Asset kinds: the create form opens with a platform of the kind (as the "Create" menu opens it).
  ...Object.fromEntries([['hosts', 'host'], ['databases', 'database'], ['devices', 'device'], ['clouds', 'cloud'], ['webs', 'web'], ['customs', 'custom']].map(([key, category]) => [key, {
    search: async (a: Api) => {
      // Custom platforms have no built-in one and other tests make theirs with required custom fields: the walk
      // uses its own (`cf-custom`, no custom fields).
      const query = category === 'custom' ? `name=cf-${category}` : `category=${category}&limit=1`
      let found = results(await a.get(`/api/v1/assets/platforms/?${query}`))[0]
      if (!found) found = await a.post('/api/v1/assets/platforms/', { name: `cf-${category}`, category, type: category, protocols: [{ name: 'tcp', port: 7 }] })
      return { platform: String(found.id) }
    },
  }])),
}

/** A value the server accepts for a required field, from its type alone. */
function generated(name: string, field: FieldMeta, base: string): string | undefined {
  const cut = (s: string) => (field.max_length ? s.slice(0, field.max_length) : s)
  if (field.type === 'email' || name === 'email') return `${base}@example.com`.toLowerCase()
  if (field.type === 'integer' || field.type === 'float' || field.type === 'decimal') return '1'
  if (field.type === 'url') return 'https://example.com/'
  if (field.type === 'string') return cut(name === 'name' ? base : `${base}-${name}`)
  return undefined
}

const withSearch = (path: string, search: Record<string, string>) => {
  const qs = new URLSearchParams(search).toString()
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path
}
const pathOf = (template: string, id: string) => template.replace(':id', encodeURIComponent(id))

async function metadata(a: Api, url: string): Promise<Record<string, FieldMeta>> {
  const res = await a.options(url)
  return (res.actions?.POST ?? {}) as Record<string, FieldMeta>
}

const pageResources = RESOURCES.filter((r) => r.routes.list)

/**
 * One page per worker for all its walks: each walk goes on in the running app from where the last one ended, as
 * an administrator moving from page to page would (starting the app again for each of ~40 resources was most of
 * the renderer's time). After a failed walk the page is closed (its screenshot attached), and the next walk
 * starts a fresh one: a failure never leaks into the next resource.
 */
let shared: Page | undefined
const test = base.extend<{ walkPage: Page }>({
  walkPage: async ({ browser, server }, use, testInfo) => {
    if (!shared || shared.isClosed()) {
      const context = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US', timezoneId: 'Asia/Shanghai' })
      shared = await context.newPage()
    }
    const page = shared
    await use(page)
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('screenshot', { body: await page.screenshot().catch(() => Buffer.from('')), contentType: 'image/png' })
      shared = undefined
      await page.context().close()
    }
  },
})

test.describe('console conformance', () => {
  // The walks are independent (unique names, their own objects): they spread over the workers instead of one
  // worker taking the whole file, which was the longest of the suite.
  test.describe.configure({ timeout: 180_000, mode: 'parallel' })

  test('the manifest has resources to check', () => {
    expect(pageResources.length).toBeGreaterThan(0)
  })

  for (const resource of pageResources) {
    test(`${resource.key}: list, create, detail, edit, delete, export`, async ({ walkPage, request, browser, server }) => {
      const a = await api(request)
      const hint = HINTS[resource.key] ?? {}
      const apiUrl = hint.apiUrl ?? resource.url
      const search = (await hint.search?.(a)) ?? {}
      // Writes that need a fresh confirmation (issue 36: a backup plan decides where secrets go) are walked by an
      // administrator with OTP bound, who gives it in the console's confirmation dialog when the form asks.
      if (!offersCreate(resource) || !(await needsConfirmation(request, apiUrl))) {
        await conform(walkPage, a, resource, apiUrl, search)
        return
      }
      const { page, confirm, close } = await confirmingAdmin(browser, a, server.baseURL)
      try {
        await conform(page, a, resource, apiUrl, search, confirm)
      } finally {
        await close()
      }
    })
  }
})

const offersCreate = (r: ManifestResource) => !!(r.offers.create && r.routes.create)

/**
 * The resource's create refuses the walk's bearer token (which never holds a confirmation) for want of one. The
 * probe is an empty bulk create (`[]`): the confirmation is checked before the body is read, and an allowed one
 * creates nothing.
 */
async function needsConfirmation(request: APIRequestContext, apiUrl: string): Promise<boolean> {
  const res = await request.post(apiUrl, { headers: { Authorization: `Bearer ${await adminToken(request)}` }, data: [] })
  if (res.status() !== 400) return false
  const code = ((await res.json()) as { code?: unknown }).code
  return code === 'mfa' || code === 'password' || code === 'relogin'
}

/**
 * A system administrator with OTP bound, signed in with password and code in a browser context of its own;
 * `confirm` answers the console's confirmation dialog (once per confirmation: it holds for its lifetime).
 */
async function confirmingAdmin(browser: Browser, a: Api, baseURL: string): Promise<{ page: Page; confirm: (page: Page) => Promise<void>; close: () => Promise<void> }> {
  const suffix = unique('cfmfa').slice(-10)
  const user = { username: `cf-mfa-${suffix}`, password: `Walk-Passw0rd-${suffix}!` }
  await a.post('/api/v1/users/users/', {
    name: user.username, username: user.username, email: `${user.username}@example.com`, password_strategy: 'custom', password: user.password,
    need_update_password: false, system_roles: ['00000000-0000-0000-0000-000000000001'], org_roles: ['00000000-0000-0000-0000-000000000005'],
  })
  const bound = await bindOtp(user)
  let step = bound.usedStep
  const nextCode = () => {
    const fresh = freshCode(bound.secret, step)
    step = fresh.step
    return fresh.code
  }
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'Asia/Shanghai' })
  const page = await context.newPage()
  await page.addInitScript(() => localStorage.setItem('viewSwitcherTip', '1'))
  await page.goto('/core/auth/login/?next=%2Fui%2F')
  await page.locator('input[name="username"]').fill(user.username)
  await page.locator('input[name="password"]').fill(user.password)
  await page.locator('input[name="password"]').press('Enter')
  await page.locator('input[name="code"]').fill(nextCode())
  await page.locator('input[name="code"]').press('Enter')
  await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
  await expect(page.locator('main').first()).toBeVisible()
  const confirm = async (p: Page) => {
    const dialog = p.getByRole('dialog', { name: 'Multi-factor authentication' })
    await expect(dialog).toBeVisible()
    await expectNoAxeViolations(p, 'confirmation dialog')
    const code = dialog.getByRole('textbox', { name: /OTP/ })
    await code.fill(nextCode())
    await code.press('Enter')
    await expect(dialog).toBeHidden()
  }
  return { page, confirm, close: () => context.close() }
}

/** Clicks a command of the page's bar or row: a button, or an item of the "More" menu when the bar folds it there. */
async function runCommand(page: Page, id: string): Promise<void> {
  const direct = page.locator(`[data-command="${id}"]:visible`).first()
  await expect(direct.or(page.locator('[data-command="more"]:visible')).first()).toBeVisible()
  if (!(await direct.isVisible())) {
    await page.locator('[data-command="more"]:visible').first().click()
    await expect(page.getByRole('menu')).toBeVisible()
  }
  await page.locator(`[data-command="${id}"]:visible`).first().click()
}

/**
 * Opens a console path the way a click on a link does: in the running app (the router follows history.pushState),
 * not by reloading the document. Deep links by URL are what the per-resource specs and the route loaders suite
 * test; here the walk's pages are what matters, and a reload per step was most of the renderer's time.
 */
async function visit(page: Page, path: string): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/ui/')) {
    await login(page, path, undefined, { reuse: true })
    return
  }
  await page.evaluate((href) => window.history.pushState(window.history.state, '', href), `/ui${path}`)
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === `/ui${path}`)
  // the router has loaded the page and shows it (until then the last page is on screen)
  await expect.poll(async () => decodeURIComponent((await page.locator('main#main').getAttribute('data-settled')) ?? '')).toBe(decodeURIComponent(path))
}

/** The export dialog is the same component for every resource: axe checks it on the first walk that exports. */
let exportDialogChecked = false

async function conform(page: Page, a: Api, resource: ManifestResource, apiUrl: string, search: Record<string, string>, confirm?: (page: Page) => Promise<void>): Promise<void> {
  const { routes, offers } = resource
  const grid = page.getByRole('grid').first()

  // List
  // A list shown as a tab of another page (Settings → Terminal) names its tab in `routes.list.search`.
  const listSearch = { ...routes.list.search }
  await visit(page, withSearch(routes.list.path, { ...listSearch, ...search }))
  await expect(grid).toBeVisible()
  await expect(page.getByText('Loading…')).toHaveCount(0)
  await expectNoAxeViolations(page, `${resource.key} list`)
  if (!offers.create || !routes.create) return

  // Create: the required fields without a default, from OPTIONS, filled through their labelled controls.
  const base = unique(`cf-${resource.key}`).slice(0, 40)
  const fields = await metadata(a, apiUrl)
  await visit(page, withSearch(routes.create.path, search))
  const form = page.locator('form').first()
  await expect(form).toBeVisible()
  let named = ''
  for (const [name, field] of Object.entries(fields)) {
    if (field.read_only || !field.required || field.default !== undefined) continue
    if (search[name] !== undefined) continue // fixed by the page (a list scoped to one object)
    const control = form.locator(`[data-field="${name}"]`)
    const value = generated(name, field, base)
    expect(value, `${resource.key}.${name} (${field.type}): no value can be generated — add a hint`).toBeDefined()
    await control.locator('input, textarea').first().fill(value!)
    if (name === 'name' || (!named && field.type === 'string')) named = value!
  }
  await expectNoAxeViolations(page, `${resource.key} create form`)
  await form.getByRole('button', { name: 'Save', exact: true }).click()
  // the server asks for the confirmation; the form saves once it is given
  if (confirm) await confirm(page)
  await expect(page).not.toHaveURL(new RegExp(`${routes.create.path}(\\?|$)`))
  const created = results(await a.get(`${apiUrl}?search=${encodeURIComponent(base)}`))
  expect(created, `${resource.key}: the created object is listed`).toHaveLength(1)
  const id = String(created[0].id)
  // The page the console went on to (the list or the detail) settles before anything else is opened; then the
  // list searched for the new object, which shows it (a list's default order need not put it on the first page).
  await expect(page.getByText('Loading…')).toHaveCount(0)
  await visit(page, withSearch(routes.list.path, { ...listSearch, ...search, search: base }))
  await expect(grid.locator('[data-row-id]').filter({ hasText: named }).first()).toBeVisible()
  // (the list before the search may show the row too: the page is on the searched list once its search tag shows)
  await expect(page.getByRole('button', { name: `${base} Remove` })).toBeVisible()
  await expect(grid.locator('[data-row-id]')).toHaveCount(1)
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)

  // Export from that list.
  if (offers.export) {
    await page.locator('[data-command="export"]').click()
    const dialog = page.getByRole('dialog', { name: 'Export' })
    await expect(dialog).toBeVisible()
    if (!exportDialogChecked) {
      await expectNoAxeViolations(page, `${resource.key} export dialog`)
      exportDialogChecked = true
    }
    await dialog.getByRole('radio', { name: 'CSV' }).check()
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export' }).click()])
    expect(download.suggestedFilename()).toMatch(/\.csv$/)
    expect(readFileSync((await download.path())!, 'utf8')).toContain(named)
    await expect(dialog).toBeHidden()
  }

  // Detail
  if (offers.detail && routes.detail) {
    await visit(page, withSearch(pathOf(routes.detail.path, id), search))
    // a modal closed just before (the export dialog) gives the page back to assistive technology
    await expect(page.locator('#root'), 'the page stays hidden from assistive technology after a dialog').not.toHaveAttribute('aria-hidden', 'true')
    await expect(page.getByRole('heading', { name: new RegExp(`: ${named}$`) })).toBeVisible()
    await expectNoAxeViolations(page, `${resource.key} detail`)
  }

  // Edit: the name (or the first generated text) changes and is saved.
  if (offers.update && routes.update) {
    await visit(page, withSearch(pathOf(routes.update.path, id), search))
    const nameInput = page.locator('form [data-field="name"]').locator('input, textarea').first()
    await expect(nameInput).toHaveValue(named)
    // (the update form is the create form, checked above, with values)
    await nameInput.fill(`${named}-ed`)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(async () => (await a.get(`${apiUrl}${id}/`)).name).toBe(`${named}-ed`)
    // the console leaves the form once the save is done (the next step must not race that navigation)
    const updatePath = `/ui${pathOf(routes.update.path, id)}`
    await expect(page).not.toHaveURL((url) => url.pathname === updatePath)
  }

  // Delete from the detail page (or the list's row) and the object is gone.
  if (offers.delete) {
    // After the edit's save the console shows the object's detail page (or the list): delete from there.
    const detailPath = offers.detail && routes.detail ? pathOf(routes.detail.path, id) : undefined
    if (!detailPath) await visit(page, withSearch(routes.list.path, { ...listSearch, ...search, search: base }))
    else if (new URL(page.url()).pathname !== `/ui${detailPath}`) await visit(page, withSearch(detailPath, search))
    await runCommand(page, 'delete')
    const confirm = page.getByRole('alertdialog')
    await confirm.locator('button[data-danger]').click()
    await expect(confirm).toBeHidden()
    await expect(page).toHaveURL(new RegExp(routes.list.path))
    expect(results(await a.get(`${apiUrl}?search=${encodeURIComponent(base)}`))).toHaveLength(0)
  }
}
