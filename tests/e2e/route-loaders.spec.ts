/**
 * A page's data through its route loader: hovering a menu entry starts the list's metadata and first page (and
 * its code chunk) before the click; the click then asks nothing again; back shows the cached list at once; a
 * detail page's object is asked once although loader and page both read it; a save drops cached answers.
 */
import type { Page, Request } from '@playwright/test'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, grid, login, row, rowAction, unique } from './generic-support.ts'

const USERS = '/api/v1/users/users/'

/** GET/OPTIONS requests to one API list URL (its list answers and its metadata; not detail URLs). */
function watch(page: Page, path: string) {
  const seen: Request[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname === path && (r.method() === 'GET' || r.method() === 'OPTIONS')) seen.push(r)
  })
  return {
    lists: () => seen.filter((r) => r.method() === 'GET').length,
    options: () => seen.filter((r) => r.method() === 'OPTIONS').length,
  }
}

test('hovering a menu entry preloads the page\u2019s data; the click and back ask nothing again', async ({ page, request }) => {
  const a = await api(request)
  const username = unique('ld')
  await a.post(USERS, { name: 'Loader person', username, email: `${username}@example.com` })
  await login(page, '/console/users/groups')
  await expect(grid(page)).toBeVisible()
  const users = watch(page, USERS)

  const menu = page.getByRole('navigation', { name: 'Main menu' })
  const entry = menu.getByRole('link', { name: 'User list' })
  await entry.hover()
  // Started by the hover alone: the list's first page and its metadata.
  await expect.poll(users.lists).toBe(1)
  await expect.poll(users.options).toBe(1)

  await entry.click()
  await expect(page).toHaveURL(/\/ui\/console\/users\/users$/)
  await expect(row(page, username)).toBeVisible()
  expect(users.lists()).toBe(1)
  expect(users.options()).toBe(1)
  await expectNoAxeViolations(page, 'users list after a preload')

  // Another page, then back: the cached list is shown at once, without waiting for an answer.
  await menu.getByRole('link', { name: 'User groups' }).click()
  await expect(page).toHaveURL(/\/console\/users\/groups/)
  await page.goBack()
  await expect(row(page, username)).toBeVisible()
  expect(users.options()).toBe(1)
})

test('a detail page reads its object once; a save drops the cached list', async ({ page, request }) => {
  const a = await api(request)
  const username = unique('ld')
  const created = await a.post(USERS, { name: 'Loader detail', username, email: `${username}@example.com` }) as { id: string }
  const objects: string[] = []
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === `${USERS}${created.id}/`) objects.push(r.url())
  })
  await login(page, `/console/users/users/${created.id}`)
  await expect(page.getByRole('heading', { name: `User: Loader detail` })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(objects).toHaveLength(1)

  // List and object read just before (fresh in the cache); edit in the app and save: the detail page and the
  // list show the new name, because the write dropped the cached answers.
  await page.goto('/ui/console/users/users')
  await expect(row(page, username)).toContainText('Loader detail')
  await rowAction(page, username, 'Edit')
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Loader renamed')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'User: Loader renamed' })).toBeVisible()
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'User list' }).click()
  await expect(row(page, username)).toContainText('Loader renamed')
})
