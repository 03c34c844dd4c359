/**
 * Narrow screens and the columns of the lists (issue 35).
 *
 * - Every page of the console (every route with a page in src/views/manifest.ts, read from the source: a new page is
 *   a new case) at 360 px wide: neither the document nor the page's scroller (`main`) scrolls sideways; tables
 *   scroll inside themselves. Pages of an object get a real one where the walk can find one (the resource's list),
 *   otherwise they show their "not found" state, which must fit as well. One in-app navigation per page.
 * - At 1440 px the key columns of the lists named in the issue are in view and not covered by the sticky actions
 *   column, without any column settings.
 * - At 360 px the header's shortcuts are one menu, the brand does not draw over the view switcher, and the asset
 *   tree folds above the table.
 */
import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, unique, type Api } from './generic-support.ts'
import { PAGE_ROUTES, RESOURCES } from './support/manifest.ts'

const NO_OBJECT = '00000000-0000-4000-8000-000000000000'

/** Navigates inside the running console (as a menu link does), then waits for the page to settle. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(history.state, '', to)
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }))
  }, `/ui${path}`)
  await settle(page)
}

async function settle(page: Page): Promise<void> {
  // the shell marks the page it shows (`data-settled`: the router's address of it); a bare page has no shell
  await page.waitForFunction(() => {
    const main = document.querySelector('main#main')
    const settled = main?.getAttribute('data-settled')
    return !main || (!!settled && decodeURI(location.pathname + location.search).endsWith(decodeURI(settled)))
  })
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  await expect(page.locator('h1, [role="grid"]').first()).toBeVisible()
  // a frame for the layout of what just arrived (a column fit, a lazily drawn header), and the end of what moves in
  // (a message bar slides in: mid-way it reaches past its box)
  await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
    const running = document.getAnimations().filter((a) => a.playState === 'running')
    await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 1000))])
  })
}

/** How far the document and the page's scroller reach past the window, in px (0: nothing scrolls sideways). */
function overflow(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main')
    return {
      document: document.documentElement.scrollWidth - window.innerWidth,
      main: main ? main.scrollWidth - main.clientWidth : 0,
    }
  })
}

/** An object of the resource a page of `:id` shows, from its list; undefined when the list is empty. */
async function objectFor(a: Api, routeName: string): Promise<string | undefined> {
  const resource = RESOURCES.find((r) => Object.values(r.routes).some((ref) => ref?.name === routeName))
  if (!resource) return undefined
  const answer = await a.get(`${resource.url}${resource.url.includes('?') ? '&' : '?'}limit=1`).catch(() => undefined)
  const rows = Array.isArray(answer) ? answer : answer?.results
  const id = rows?.[0]?.id
  return id === undefined ? undefined : String(id)
}

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } })

  test('no page of the console scrolls sideways', async ({ page, request }) => {
    test.setTimeout(600_000)
    const a = await api(request)
    // a few objects, so the pages of an object show one: a host (assets, its node), an account, a permission
    const platform = (await a.get('/api/v1/assets/platforms/?name=Linux')).results?.[0] ?? (await a.get('/api/v1/assets/platforms/'))[0]
    const host = await a.post('/api/v1/assets/hosts/', { name: unique('narrow-host'), address: '10.9.9.9', platform: platform.id, protocols: [{ name: 'ssh', port: 22 }] })
    await a.post('/api/v1/accounts/accounts/', { asset: host.id, name: unique('narrow-acc'), username: 'root', secret_type: 'password', secret: 'Passw0rd!x' })
    const me = await a.get('/api/v1/users/profile/')
    await a.post('/api/v1/perms/asset-permissions/', { name: unique('narrow-perm'), users: [me.id], assets: [host.id], accounts: ['@ALL'], actions: ['connect'] })

    const paths: { name: string; path: string }[] = []
    const withoutObject: string[] = []
    for (const route of PAGE_ROUTES) {
      if (!route.path.includes(':')) {
        paths.push(route)
        continue
      }
      const id = await objectFor(a, route.name)
      if (!id) withoutObject.push(route.name)
      paths.push({ name: route.name, path: route.path.replace(/:[a-z]+/gi, id ?? NO_OBJECT) })
    }
    test.info().annotations.push({ type: 'pages', description: `${paths.length} pages, ${withoutObject.length} of an object shown without one: ${withoutObject.join(', ')}` })

    await login(page, '/console/dashboard')
    await settle(page)
    const wide: string[] = []
    for (const { name, path } of paths) {
      await visit(page, path)
      let o = await overflow(page)
      // measured again once the page has settled further (a "not found" message still sliding in measured +1 px
      // now and then); a pixel is sub-pixel rounding of fractional widths, not a page that scrolls sideways
      if (o.document > 0 || o.main > 0) {
        await settle(page)
        o = await overflow(page)
      }
      if (o.document > 1 || o.main > 1) wide.push(`${name} ${path}: document +${o.document} px, main +${o.main} px`)
    }
    expect(wide, 'pages wider than a 360 px screen').toEqual([])
  })

  test('a long name chosen in a picker is cut inside its field, not pushed past the screen', async ({ page, request }) => {
    const a = await api(request)
    const longName = `${unique('a-very-very-long-user-name')}-of-a-directory`
    const user = await a.post('/api/v1/users/users/', { name: longName, username: longName.slice(0, 60), email: `${unique('long')}@example.com`, password_strategy: 'custom', password: 'Passw0rd!Passw0rd', need_update_password: false })
    const me = await a.get('/api/v1/users/profile/')
    const perm = await a.post('/api/v1/perms/asset-permissions/', { name: unique('narrow-long'), users: [me.id, user.id], accounts: ['@ALL'], actions: ['connect'] })
    await login(page, `/console/perms/asset-permissions/${perm.id}/update`)
    await settle(page)
    const chip = page.locator('[data-field="users"]').getByText(longName.slice(0, 30))
    await expect(chip).toBeVisible()
    expect(await overflow(page)).toEqual({ document: 0, main: 0 })
  })

  test('the header is condensed, the brand leaves room for the switchers, the asset tree folds above the table', async ({ page, request }) => {
    await api(request)
    await login(page, '/console/assets/assets')
    await settle(page)
    const header = page.locator('header')
    // the shortcuts are one menu; the brand does not overlap the view switcher
    await expect(header.getByTestId('header-menu')).toBeVisible()
    await expect(header.getByRole('button', { name: 'System settings' })).toHaveCount(0)
    const switcher = await header.getByRole('button', { name: /Switch view/ }).boundingBox()
    const brand = await header.locator('img, span').first().boundingBox()
    if (brand && switcher) expect(brand.x + brand.width <= switcher.x || brand.x >= switcher.x + switcher.width).toBe(true)
    await header.getByTestId('header-menu').click()
    await expect(page.getByRole('menuitem', { name: 'System settings' })).toBeVisible()
    await expect(page.getByRole('menuitem', { name: 'About' })).toBeVisible()
    await page.keyboard.press('Escape')

    // the tree is folded above the table; the button shows it
    const tree = page.getByRole('navigation', { name: 'Asset tree' })
    await expect(tree).toBeHidden()
    const toggle = page.getByRole('button', { name: 'Show the asset tree' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await toggle.click()
    await expect(tree).toBeVisible()
    await expect(tree.getByText('DEFAULT')).toBeVisible()
    const box = await tree.boundingBox()
    const table = await page.getByRole('grid').boundingBox()
    expect(box && table && box.y + box.height <= table.y).toBe(true)
    expect((await overflow(page)).document).toBe(0)
    await expectNoAxeViolations(page, 'asset list at 360 px, tree shown')
  })
})

/** The column headers of the first grid on the page that are in view and not covered by anything (the sticky column). */
function headersInView(page: Page) {
  return page.evaluate(() => {
    const grid = document.querySelector('[role="grid"]')
    if (!grid) return []
    return [...grid.querySelectorAll<HTMLElement>('[role="columnheader"]')].filter((h) => {
      const r = h.getBoundingClientRect()
      if (r.width === 0 || r.right > window.innerWidth || r.left < 0) return false
      // the header's middle and both ends are the header's, not a cell drawn over it (the left neighbour's resize
      // handle reaches 8 px into it)
      const y = r.top + r.height / 2
      return [r.left + 10, r.left + r.width / 2, r.right - 4].every((x) => h.contains(document.elementFromPoint(x, y)))
    }).map((h) => h.textContent?.trim() ?? '')
  })
}

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  const KEY_COLUMNS: { path: string; columns: string[] }[] = [
    { path: '/console/users/users', columns: ['Name', 'Username', 'Is valid', 'Actions'] },
    { path: '/console/assets/assets', columns: ['Name', 'Address', 'Connectivity', 'Favourite', 'Actions'] },
    { path: '/workbench/assets', columns: ['Name', 'Favourite', 'Connect'] },
    { path: '/audit/audits/login-logs', columns: ['Username', 'Status', 'Datetime'] },
  ]

  test('the key columns of the lists are in view and uncovered, without column settings', async ({ page, request }) => {
    const a = await api(request)
    const platform = (await a.get('/api/v1/assets/platforms/?name=Linux')).results?.[0] ?? (await a.get('/api/v1/assets/platforms/'))[0]
    const host = await a.post('/api/v1/assets/hosts/', { name: unique('wide-host'), address: '10.9.9.8', platform: platform.id, protocols: [{ name: 'ssh', port: 22 }] })
    const me = await a.get('/api/v1/users/profile/')
    await a.post('/api/v1/perms/asset-permissions/', { name: unique('wide-perm'), users: [me.id], assets: [host.id], accounts: ['@ALL'], actions: ['connect'] })
    await login(page, KEY_COLUMNS[0]!.path)
    await settle(page)
    for (const { path, columns } of KEY_COLUMNS) {
      await visit(page, path)
      await expect(page.getByRole('grid').getByRole('row').nth(1)).toBeVisible()
      const shown = await headersInView(page)
      for (const c of columns) expect(shown, `${path}: "${c}" in view`).toContain(c)
      // nothing scrolls sideways: every column shown is whole
      expect(await page.getByRole('grid').evaluate((g) => g.parentElement!.scrollWidth - g.parentElement!.clientWidth), `${path} fits`).toBeLessThanOrEqual(0)
    }
    // the log list leads with the user, not a UUID; the backend and the reason are shown once
    await visit(page, '/audit/audits/login-logs')
    const headers = await page.getByRole('grid').getByRole('columnheader').allTextContents()
    expect(headers[0]).toBe('Username')
    expect(headers).not.toContain('ID')
    expect(headers.filter((h) => h === 'Authentication backend')).toHaveLength(1)
    expect(headers).not.toContain('Reason display')
    // Home's recent logins: the user's format, no zone offset (one formatter for every time)
    await visit(page, '/workbench/home')
    const first = page.getByRole('table').filter({ hasText: 'IP' }).getByRole('row').nth(1).getByRole('cell').first()
    await expect(first).toHaveText(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/)
    // the asset list has a tab for custom assets
    await visit(page, '/console/assets/assets')
    await page.getByRole('tab', { name: 'Custom' }).click()
    await expect(page).toHaveURL(/\/console\/assets\/customs/)
  })
})
