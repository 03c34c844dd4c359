/**
 * Assets in the browser: a node created from the tree's menu, a host and a database created through the grouped
 * "Create" menu, the table filtered by a node (the URL keeps it), the detail tabs, a bulk update, axe.
 */
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, bulkAction, grid, login, row, selectRows, unique, type Api } from './generic-support.ts'

const LIST = '/console/assets/assets'

test.describe('assets', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })

  test('builds a small inventory: node, host, database; filters by node; detail tabs; bulk update', async ({ page }) => {
    const nodeName = unique('Prod')
    const host = unique('web')
    const db = unique('db')
    await login(page, LIST)
    const tree = page.getByRole('tree', { name: 'Asset tree' })
    await expect(tree.getByRole('treeitem').first()).toContainText('DEFAULT')
    await expectNoAxeViolations(page, 'asset list')

    // a child node of the root, from the node's menu
    await tree.getByText('DEFAULT', { exact: true }).hover()
    await tree.getByRole('button', { name: 'More actions for DEFAULT' }).click()
    await page.getByRole('menuitem', { name: 'Create child node' }).click()
    const dialog = page.getByRole('dialog', { name: /Create child node of DEFAULT/ })
    await dialog.getByRole('textbox', { name: 'Node name' }).fill(nodeName)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(tree.getByRole('treeitem', { name: new RegExp(nodeName) })).toBeVisible()
    // a bad name stays in the dialog with the server's message
    await tree.getByText('DEFAULT', { exact: true }).hover()
    await tree.getByRole('button', { name: 'More actions for DEFAULT' }).click()
    await page.getByRole('menuitem', { name: 'Create child node' }).click()
    await page.getByRole('textbox', { name: 'Node name' }).fill('a/b')
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect(page.getByRole('dialog')).toContainText('Node value cannot contain "/"')
    await page.getByRole('button', { name: 'Cancel' }).click()

    // select the node: the URL holds it, then create a host there through the grouped menu
    await tree.getByRole('treeitem', { name: new RegExp(nodeName) }).click()
    await expect(page).toHaveURL(/node_id=/)
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Linux' }).click()
    await expect(page).toHaveURL(/\/console\/assets\/hosts\/create\?.*platform=1/)
    await page.locator('[data-field="name"]').getByRole('textbox').fill(host)
    await page.getByRole('textbox', { name: 'IP/Host' }).fill('10.20.0.1')
    await expectNoAxeViolations(page, 'host form')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(async () => (await a.get(`/api/v1/assets/hosts/?name=${host}`))[0]?.nodes_display).toEqual([`/DEFAULT/${nodeName}`])

    // a database at the root
    await page.goto(`/ui${LIST}`)
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await page.getByRole('menuitem', { name: 'MySQL' }).click()
    await page.locator('[data-field="name"]').getByRole('textbox').fill(db)
    await page.getByRole('textbox', { name: 'Address' }).fill('db.example.com')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(async () => (await a.get(`/api/v1/assets/databases/?name=${db}`))[0]?.protocols).toEqual([{ name: 'mysql', port: 3306 }])

    // filter by the node: only the host; a reload keeps the filter
    await page.goto(`/ui${LIST}`)
    await tree.getByRole('treeitem', { name: new RegExp(nodeName) }).click()
    await expect(row(page, host)).toBeVisible()
    await expect(row(page, db)).toHaveCount(0)
    await page.reload()
    await expect(row(page, host)).toBeVisible()
    await expect(row(page, db)).toHaveCount(0)

    // detail tabs
    await row(page, host).getByRole('link', { name: host }).click()
    await expect(page.getByRole('heading', { name: `Asset: ${host}` })).toBeVisible()
    await page.getByRole('tab', { name: 'Protocols' }).click()
    await expect(page.getByRole('table', { name: 'Protocols' })).toContainText('ssh')
    await page.getByRole('tab', { name: 'Accounts' }).click()
    // the accounts module fills the tab with the asset's accounts (a list, empty here)
    await expect(page.getByRole('tab', { name: 'Accounts' })).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('tabpanel').getByRole('table').or(page.getByRole('tabpanel').getByRole('grid')).first()).toBeVisible()
    await expectNoAxeViolations(page, 'asset detail')

    // bulk update: both deactivated
    await page.goto(`/ui${LIST}`)
    await selectRows(page, [host, db])
    await bulkAction(page, 'Update selected')
    const bulk = page.getByRole('dialog', { name: /Update 2 selected items/ })
    await bulk.getByRole('checkbox', { name: 'Active' }).check()
    await bulk.locator('[data-field="is_active"]').getByRole('switch').click()
    await bulk.getByRole('button', { name: 'Confirm' }).click()
    await expect(bulk).toBeHidden()
    await expect.poll(async () => (await a.get(`/api/v1/assets/assets/?name=${host}`))[0]?.is_active).toBe(false)
    expect((await a.get(`/api/v1/assets/assets/?name=${db}`))[0].is_active).toBe(false)
    await expect(grid(page)).toBeVisible()
  })
})
