/**
 * Organizations under settings: create, edit, clone, the detail with resource statistics, delete (and the
 * server's refusal shown for an organization that still has members), no bulk delete, bulk update, axe.
 */
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, bulkAction, confirmDialog, grid, login, results, row, rowAction, selectRows, unique, type Api } from './generic-support.ts'

const LIST = '/settings/orgs'
const ORGS = '/api/v1/orgs/orgs/'

test.describe('organizations', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })

  test('no bulk delete, duplicate name, edit, clone and the detail with its statistics', async ({ page }) => {
    const name = unique('Branch')
    // (List, plain create, detail, edit, export and delete with axe are the conformance suite's.)
    await a.post(ORGS, { name })
    await login(page, LIST)
    await expect(row(page, 'DEFAULT')).toBeVisible()
    await expect(page.locator('[data-command="bulk"]')).toBeVisible()
    await page.locator('[data-command="bulk"]').click()
    await expect(page.getByRole('menuitem', { name: /^Delete/ })).toHaveCount(0)
    await page.keyboard.press('Escape')

    // A duplicate name is refused on its field.
    await page.goto(`/ui${LIST}/create`)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.locator('[data-field="name"]')).toContainText('must be unique')

    await page.goto(`/ui${LIST}?search=${name}`)
    await rowAction(page, name, 'Edit')
    await page.getByRole('textbox', { name: 'Comment', exact: true }).fill('regional office')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('heading', { name: `Organization: ${name}` })).toBeVisible()
    await expect(page.getByText('regional office')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Resource statistics' })).toBeVisible()
    await expect(page.getByText('Users amount')).toBeVisible()
    await expectNoAxeViolations(page, 'organization detail')

    await page.goto(`/ui${LIST}?search=${name}`)
    await rowAction(page, name, 'Duplicate')
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`Duplicate from ${name}`)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page).toHaveURL(/order=-date_updated/)
    expect(results(await a.get(`${ORGS}?name=${encodeURIComponent(`Duplicate from ${name}`)}`))).toHaveLength(1)
  })

  test('delete, a refused delete, and bulk update', async ({ page }) => {
    const prefix = unique('Site')
    const orgs = await Promise.all([0, 1, 2].map((i) => a.post(ORGS, { name: `${prefix}-${i}` })))
    await login(page, `${LIST}?search=${prefix}`)
    await expect(grid(page).locator('[data-row-id]')).toHaveCount(3)

    await selectRows(page, [`${prefix}-1`, `${prefix}-2`])
    await bulkAction(page, 'Update selected')
    const dialog = page.getByRole('dialog', { name: /Update 2 selected items/ })
    await dialog.getByRole('checkbox', { name: 'Comment' }).check()
    await dialog.locator('[data-field="comment"] textarea').fill('closing')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
    expect((await a.get(`${ORGS}${orgs[2].id}/`)).comment).toBe('closing')

    await rowAction(page, `${prefix}-0`, 'Delete')
    await confirmDialog(page, 'Delete')
    await expect(row(page, `${prefix}-0`)).toHaveCount(0)

    // The DEFAULT organization holds resources: the server refuses and says why; the dialog stays open.
    await page.goto(`/ui${LIST}?search=DEFAULT`)
    await rowAction(page, 'DEFAULT', 'Delete')
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(page.getByRole('alertdialog').getByRole('alert').or(page.getByRole('alertdialog').locator('.fui-MessageBar'))).toBeVisible()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
    expect(results(await a.get(`${ORGS}?name=DEFAULT`))).toHaveLength(1)
  })
})
