/**
 * A user's login ACLs, nested under the user (`/console/users/users/user-acl?user=<id>`): from the user's
 * detail tab to create (the user fixed by the page), nested server errors on the rules field, edit, clone,
 * detail, delete, bulk delete, bulk update, axe.
 */
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, bulkAction, confirmDialog, grid, login, results, row, rowAction, selectRows, unique, type Api } from './generic-support.ts'

const ACLS = '/api/v1/acls/login-acls/'

test.describe('user login ACLs', () => {
  let a: Api
  let userId: string
  test.beforeEach(async ({ request }) => {
    a = await api(request)
    const username = unique('acluser')
    userId = (await a.post('/api/v1/users/users/', { name: username, username, email: `${username}@example.com` })).id
  })

  test('create from the user page, nested errors on the rules, edit, clone and detail', async ({ page }) => {
    await login(page, `/console/users/users/${userId}`)
    await page.getByRole('tab', { name: 'Login ACLs' }).click()
    await expect(page.getByText('No data')).toBeVisible()
    await page.locator('[data-command="create"]').click()
    await expect(page).toHaveURL(new RegExp(`/ui/console/users/users/user-acl/create\\?user=${userId}`))
    const name = unique('office-only')
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    // An address the server refuses: its message lands on the rule's IP input, inside the Rules field.
    const ips = page.locator('[data-field="rules"]').getByRole('textbox').first()
    await ips.fill('not-an-ip')
    await ips.press('Enter')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.locator('[data-field="rules"]').getByRole('alert')).toContainText('IP address invalid: `not-an-ip`')
    await expect(page.locator('[data-field="rules"]').getByRole('textbox', { name: 'IP' })).toHaveAttribute('aria-invalid', 'true')
    await expectNoAxeViolations(page, 'login ACL form with errors')
    await page.locator('[data-field="rules"]').getByRole('button', { name: 'Remove' }).last().click()
    await ips.fill('10.0.0.0/8')
    await ips.press('Enter')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    // back where the form was opened: the user's page (issue 35, return to origin)
    await expect(page).toHaveURL(new RegExp(`/ui/console/users/users/${userId}(\\?|$)`))
    await page.goto(`/ui/console/users/users/user-acl?user=${userId}`)
    await expect(row(page, name)).toContainText('10.0.0.0/8')
    await expectNoAxeViolations(page, 'login ACL list')
    const acl = results(await a.get(`${ACLS}?user=${userId}`)).find((x: { name: string }) => x.name === name) as { id: string; user: { id: string } }
    expect(acl.user.id).toBe(userId)

    await rowAction(page, name, 'Edit')
    await expect(page).toHaveURL(new RegExp(`user=${userId}`))
    await page.getByRole('spinbutton', { name: 'Priority' }).or(page.getByRole('textbox', { name: 'Priority' })).fill('5')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('heading', { name: `Login ACL: ${name}` })).toBeVisible()
    expect((await a.get(`${ACLS}${acl.id}/`)).priority).toBe(5)
    await expectNoAxeViolations(page, 'login ACL detail')

    await page.goto(`/ui/console/users/users/user-acl?user=${userId}`)
    await rowAction(page, name, 'Duplicate')
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`Duplicate from ${name}`)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(row(page, `Duplicate from ${name}`)).toBeVisible()
    expect(results(await a.get(`${ACLS}?user=${userId}`))).toHaveLength(2)
  })

  test('delete, bulk delete and bulk update', async ({ page }) => {
    const prefix = unique('rule')
    await Promise.all([0, 1, 2].map((i) => a.post(ACLS, { name: `${prefix}-${i}`, user: userId, rules: { ip_group: ['*'], time_period: [] }, action: 'reject' })))
    await login(page, `/console/users/users/user-acl?user=${userId}`)
    await expect(grid(page).locator('[data-row-id]')).toHaveCount(3)
    // The user filter is the page's, not a removable search tag.
    await expect(page.getByRole('search').getByText(/^user:/)).toHaveCount(0)

    await rowAction(page, `${prefix}-0`, 'Delete')
    await confirmDialog(page, 'Delete')
    await expect(row(page, `${prefix}-0`)).toHaveCount(0)

    await selectRows(page, [`${prefix}-1`, `${prefix}-2`])
    await bulkAction(page, 'Update selected')
    const dialog = page.getByRole('dialog', { name: /Update 2 selected items/ })
    await dialog.getByRole('checkbox', { name: 'Active' }).check()
    await dialog.locator('[data-field="is_active"]').getByRole('switch').uncheck()
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
    expect(results(await a.get(`${ACLS}?user=${userId}`)).map((x: { is_active: boolean }) => x.is_active)).toEqual([false, false])

    await selectRows(page, [`${prefix}-1`, `${prefix}-2`])
    await bulkAction(page, 'Delete selected')
    await confirmDialog(page, 'Delete')
    await expect(page.getByText('No data')).toBeVisible()
    expect(results(await a.get(`${ACLS}?user=${userId}`))).toHaveLength(0)
  })
})
