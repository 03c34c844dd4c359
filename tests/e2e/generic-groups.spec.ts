/**
 * User groups on the generic pages: create with members from the related picker, a duplicate name refused on
 * its field, edit, clone, members added and removed on the detail page, bulk delete, bulk update, axe. List,
 * plain create, detail, edit, export and delete are the conformance suite's (conformance.spec.ts).
 */
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, bulkAction, confirmDialog, grid, login, results, row, rowAction, search, selectRows, unique, type Api } from './generic-support.ts'

const LIST = '/console/users/groups'
const GROUPS = '/api/v1/users/groups/'

async function user(a: Api, prefix: string) {
  const username = unique(prefix)
  return a.post('/api/v1/users/users/', { name: `${prefix} person`, username, email: `${username}@example.com` }) as Promise<{ id: string; username: string; name: string }>
}

test.describe('user groups', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })

  test('create with members, duplicate name on its field, edit and clone', async ({ page }) => {
    const member = await user(a, 'gm')
    const name = unique('ops')
    await login(page, `${LIST}/create`)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    const picker = page.locator('[data-field="users"]').getByRole('combobox')
    await picker.fill(member.username)
    await page.getByRole('option', { name: new RegExp(member.username) }).click()
    await expect(page.locator('[data-field="users"]').getByText(member.username)).toBeVisible()
    await expectNoAxeViolations(page, 'group form')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page).toHaveURL(/order=-date_updated/)
    await expect(row(page, name)).toContainText('1')
    await expectNoAxeViolations(page, 'group list')

    // Same name again: refused on the name field, the members stay chosen.
    await page.goto(`/ui${LIST}/create`)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.locator('[data-field="name"]')).toContainText('This field must be unique.')

    // Edit, then clone.
    await page.goto(`/ui${LIST}?search=${name}`)
    await rowAction(page, name, 'Edit')
    await expect(page.locator('[data-field="users"]').getByText(member.username)).toBeVisible()
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`${name}-x`)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('heading', { name: `User group: ${name}-x` })).toBeVisible()
    await page.goto(`/ui${LIST}?search=${name}`)
    await rowAction(page, `${name}-x`, 'Duplicate')
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`Duplicate from ${name}-x`)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page).toHaveURL(/order=-date_updated/)
    const copies = results(await a.get(`${GROUPS}?name=${encodeURIComponent(`Duplicate from ${name}-x`)}`))
    expect(copies).toHaveLength(1)
    expect(copies[0].users.map((u: { id: string }) => u.id)).toEqual([member.id])
  })

  test('members on the detail page, delete, bulk delete and bulk update', async ({ page }) => {
    const [u1, u2] = [await user(a, 'mem'), await user(a, 'mem')]
    const prefix = unique('team')
    const groups = await Promise.all([0, 1, 2].map((i) => a.post(GROUPS, { name: `${prefix}-${i}`, users: [u1!.id] })))
    await login(page, `${LIST}/${groups[0].id}`)
    await page.getByRole('tab', { name: 'Members' }).click()
    const members = page.getByRole('list', { name: 'Members' })
    await expect(members.getByText(u1!.username)).toBeVisible()
    const add = page.locator('[data-relation-add]')
    await add.getByRole('combobox').fill(u2!.username)
    await page.getByRole('option', { name: new RegExp(u2!.username) }).click()
    await add.getByRole('button', { name: 'Add' }).click()
    await expect(members.getByText(u2!.username)).toBeVisible()
    expect((await a.get(`${GROUPS}${groups[0].id}/`)).users).toHaveLength(2)
    await expectNoAxeViolations(page, 'group members')
    await members.getByRole('button', { name: new RegExp(`Remove .*${u1!.username}`) }).click()
    await expect(members.getByText(u1!.username)).toHaveCount(0)
    expect((await a.get(`${GROUPS}${groups[0].id}/`)).users.map((u: { id: string }) => u.id)).toEqual([u2!.id])

    // (Delete from the detail page is the conformance suite's.)
    await page.goto(`/ui${LIST}`)
    await search(page, prefix)
    await expect(grid(page).locator('[data-row-id]')).toHaveCount(3)
    await selectRows(page, [`${prefix}-1`, `${prefix}-2`])
    await bulkAction(page, 'Update selected')
    const dialog = page.getByRole('dialog', { name: /Update 2 selected items/ })
    await dialog.getByRole('checkbox', { name: 'Comment' }).check()
    await dialog.locator('[data-field="comment"] textarea').fill('two of three')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
    expect((await a.get(`${GROUPS}${groups[1].id}/`)).comment).toBe('two of three')

    await selectRows(page, [`${prefix}-1`, `${prefix}-2`])
    await bulkAction(page, 'Delete selected')
    await confirmDialog(page, 'Delete')
    await expect(grid(page).locator('[data-row-id]')).toHaveCount(1)
    expect(results(await a.get(`${GROUPS}?search=${prefix}`)).map((g: { id: string }) => g.id)).toEqual([groups[0].id])
  })
})
