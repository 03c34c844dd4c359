/**
 * Roles: system and organization roles in two tabs, create, edit, clone (the server copies the permissions),
 * the permission tree with its view dependency, the users bound, delete, bulk delete, bulk update, axe.
 */
import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, bulkAction, confirmDialog, grid, listSettled, login, permissionId, results, row, rowAction, selectRows, unique, type Api } from './generic-support.ts'

const LIST = '/console/users/roles'
const ORG_ROLES = '/api/v1/rbac/org-roles/'

async function heldCodenames(a: Api, id: string): Promise<string[]> {
  const perms = results(await a.get(`${ORG_ROLES}${id}/permissions/`))
  return perms.map((p: { app_label: string; codename: string }) => `${p.app_label}.${p.codename}`).sort()
}

function treeItem(page: Page, path: readonly string[]) {
  let scope = page.getByRole('tree', { name: 'Permissions' })
  for (const [i, name] of path.entries()) {
    const item = scope.getByRole('treeitem', { name, exact: true }).first()
    if (i === path.length - 1) return item
    scope = item.getByRole('group') as never
  }
  throw new Error('empty path')
}

async function expand(page: Page, path: readonly string[]) {
  for (let i = 1; i <= path.length; i++) {
    const item = treeItem(page, path.slice(0, i))
    if ((await item.getAttribute('aria-expanded')) === 'false') await item.locator('> div').first().click({ position: { x: 12, y: 12 } })
    await expect(item).toHaveAttribute('aria-expanded', 'true')
  }
}

test.describe('roles', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })

  test('tabs, create, permission tree with the view dependency, edit and clone', async ({ page }) => {
    await login(page, LIST)
    await expect(page.getByRole('tab', { name: 'System roles' })).toBeVisible()
    await expect(row(page, 'SystemAdmin')).toBeVisible()
    // Built-in roles cannot be edited or deleted.
    await expect(row(page, 'SystemAdmin').getByRole('button', { name: /^Edit/ })).toHaveCount(0)
    await page.getByRole('tab', { name: 'Organization roles' }).click()
    await expect(row(page, 'OrgAdmin')).toBeVisible()
    await expectNoAxeViolations(page, 'role list')

    const name = unique('helpdesk')
    await page.locator('[data-command="create"]').click()
    await expect(page).toHaveURL(/scope=org/)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(row(page, name)).toBeVisible()
    const role = results(await a.get(`${ORG_ROLES}?name=${name}`))[0] as { id: string }

    await grid(page).getByRole('link', { name }).click()
    await expect(page.getByRole('heading', { name: `Organization role: ${name}` })).toBeVisible()
    await page.getByRole('tab', { name: 'Permissions' }).click()
    const userModel = ['Console', 'Users', 'User']
    await expand(page, userModel)
    const create = treeItem(page, [...userModel, 'Create'])
    const view = treeItem(page, [...userModel, 'View'])
    await create.getByRole('checkbox').check()
    // Creating needs viewing: View is ticked with it.
    await expect(view).toHaveAttribute('aria-checked', 'true')
    await expect(treeItem(page, userModel)).toHaveAttribute('aria-checked', 'mixed')
    await expectNoAxeViolations(page, 'permission tree')
    await page.getByRole('button', { name: 'Save permissions' }).click()
    await expect(page.getByText('Permissions saved')).toBeVisible()
    expect(await heldCodenames(a, role.id)).toEqual(['users.add_user', 'users.view_user'])

    // Unticking View clears the model's other permissions.
    await view.getByRole('checkbox').uncheck()
    await expect(create).toHaveAttribute('aria-checked', 'false')
    await page.getByRole('button', { name: 'Save permissions' }).click()
    await expect.poll(() => heldCodenames(a, role.id)).toEqual([])
    await create.getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Save permissions' }).click()
    await expect.poll(() => heldCodenames(a, role.id)).toEqual(['users.add_user', 'users.view_user'])

    // Edit from the detail page.
    await page.locator('[data-command="update"]').click()
    await page.getByRole('textbox', { name: 'Comment', exact: true }).fill('front line')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('heading', { name: `Organization role: ${name}` })).toBeVisible()
    expect((await a.get(`${ORG_ROLES}${role.id}/`)).comment).toBe('front line')

    // Clone: a new role holding the same permissions.
    await page.goto(`/ui${LIST}?search=${name}`)
    await page.getByRole('tab', { name: 'Organization roles' }).click()
    await rowAction(page, name, 'Duplicate')
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`Duplicate from ${name}`)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    // saved (the list shows the copy) before the API is asked: the click returns before the POST does
    await expect(row(page, `Duplicate from ${name}`)).toBeVisible()
    const copy = results(await a.get(`${ORG_ROLES}?name=${encodeURIComponent(`Duplicate from ${name}`)}`))[0] as { id: string }
    expect(copy).toBeTruthy()
    expect(await heldCodenames(a, copy.id)).toEqual(['users.add_user', 'users.view_user'])
  })

  test('users bound to a role, delete, bulk delete and bulk update', async ({ page }) => {
    const prefix = unique('rl')
    const perm = await permissionId(a, 'users.view_user')
    const roles = await Promise.all([0, 1, 2, 3].map((i) => a.post(ORG_ROLES, { name: `${prefix}-${i}`, permissions: [perm] })))
    const username = unique('bound')
    await a.post('/api/v1/users/users/', { name: username, username, email: `${username}@example.com`, org_roles: [roles[3].id] })

    await login(page, `${LIST}/${roles[3].id}?scope=org`)
    await page.getByRole('tab', { name: 'Users' }).click()
    await expect(grid(page).getByRole('row').filter({ hasText: username })).toBeVisible()
    await expectNoAxeViolations(page, 'role users')

    await page.goto(`/ui${LIST}?search=${prefix}`)
    await page.getByRole('tab', { name: 'Organization roles' }).click()
    // The tab's list replaces the other one: type into its own search box, once it is there.
    await expect(page.getByRole('tab', { name: 'Organization roles' })).toHaveAttribute('aria-selected', 'true')
    await listSettled(page)
    await page.getByRole('search').getByRole('textbox').fill(prefix)
    await page.getByRole('search').getByRole('textbox').press('Enter')
    await expect(grid(page).locator('[data-row-id]')).toHaveCount(4)
    await rowAction(page, `${prefix}-0`, 'Delete')
    await confirmDialog(page, 'Delete')
    await expect(row(page, `${prefix}-0`)).toHaveCount(0)

    await selectRows(page, [`${prefix}-1`, `${prefix}-2`])
    await bulkAction(page, 'Update selected')
    const dialog = page.getByRole('dialog', { name: /Update 2 selected items/ })
    await dialog.getByRole('checkbox', { name: 'Comment' }).check()
    await dialog.locator('[data-field="comment"] textarea').fill('bulk')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
    expect((await a.get(`${ORG_ROLES}${roles[2].id}/`)).comment).toBe('bulk')
    await expect(page.locator('[data-command="bulk"]')).toHaveText('Actions')

    await selectRows(page, [`${prefix}-1`, `${prefix}-2`])
    await bulkAction(page, 'Delete selected')
    await confirmDialog(page, 'Delete')
    await expect(grid(page).locator('[data-row-id]')).toHaveCount(1)
    // The role still bound to a user cannot be deleted: the server's reason is shown and the dialog stays.
    await rowAction(page, `${prefix}-3`, 'Delete')
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(page.getByRole('alertdialog')).toContainText("can't be destroy")
  })
})
