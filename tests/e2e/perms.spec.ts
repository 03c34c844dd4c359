/**
 * Asset permissions and My assets (issue 11), in real Chromium against the real server: an administrator grants a
 * user group two nodes with `@ALL` and connect + upload through the console form; an ordinary user (logged in
 * through the login page) sees exactly those assets in My assets with the actions merged with a second, direct
 * grant, and creates a connection token; the permission is expired (API) and its assets disappear.
 */
import { adminToken, expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login as adminLogin, unique } from './generic-support.ts'
import { createUser, finishFirstLogin, login, PASSWORD, ROLES } from './shell-helpers.ts'

const PERMS = '/api/v1/perms/asset-permissions/'

async function rootNode(a: Awaited<ReturnType<typeof api>>): Promise<string> {
  const tree = await a.get('/api/v1/assets/nodes/children/tree/') as { meta: { data: { id: string } }; pId: string }[]
  return tree.find((n) => !n.pId)!.meta.data.id
}

test('grant a group two nodes in the form; the user sees exactly those assets, connects, and loses them when the permission expires', async ({ page, browser, request }) => {
  const a = await api(request)
  const tag = unique('pm')
  const root = await rootNode(a)
  const node = async (value: string) => (await a.post(`/api/v1/assets/nodes/${root}/children/`, { value })) as { id: string; full_value: string }
  const [n1, n2, n3] = [await node(`${tag}-n1`), await node(`${tag}-n2`), await node(`${tag}-n3`)]
  const host = async (name: string, nodeId: string) => {
    const h = await a.post('/api/v1/assets/hosts/', { name, address: '10.20.0.1', platform: 1, nodes: [nodeId], protocols: [{ name: 'ssh', port: 22 }] }) as { id: string }
    await a.post('/api/v1/accounts/accounts/', { asset: h.id, username: 'root', secret_type: 'password', secret: 'pw' })
    return h.id
  }
  const h1 = await host(`${tag}-h1`, n1.id)
  await host(`${tag}-h2`, n2.id)
  await host(`${tag}-h3`, n3.id)
  const admin = await adminToken(request)
  const username = `${tag}-user`
  const userId = await createUser(request, admin, username, [ROLES.OrgUser])
  await finishFirstLogin(request, username, PASSWORD)
  const group = await a.post('/api/v1/users/groups/', { name: `${tag}-group`, users: [userId] }) as { id: string; name: string }
  // a second, direct grant of h1 with download: My assets shows the union
  await a.post(PERMS, { name: `${tag}-direct`, users: [userId], assets: [h1], accounts: ['@ALL'], actions: ['download'] })

  // The administrator grants the group the two nodes in the console form.
  await adminLogin(page, '/console/perms/asset-permissions/create')
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`${tag}-nodes`)
  const pick = async (field: string, text: string) => {
    const box = page.locator(`[data-field="${field}"]`).getByRole('combobox')
    await box.fill(text)
    await page.getByRole('option', { name: new RegExp(text) }).first().click()
  }
  await pick('user_groups', group.name)
  await pick('nodes', `${tag}-n1`)
  await pick('nodes', `${tag}-n2`)
  await expect(page.getByRole('checkbox', { name: 'All accounts' })).toBeChecked()
  const actions = page.getByRole('tree', { name: 'Action' })
  const item = (name: string) => actions.getByRole('treeitem', { name, exact: true })
  // a new permission starts with every action checked (JumpServer 3.2's default); clear them, then pick two
  await expect(actions.getByRole('checkbox', { name: 'All', exact: true })).toBeChecked()
  await expect(item('Connect').getByRole('checkbox')).toBeChecked()
  await actions.getByRole('checkbox', { name: 'All', exact: true }).click()
  await expect(item('Connect').getByRole('checkbox')).not.toBeChecked()
  await item('Connect').getByRole('checkbox').click()
  await actions.getByText('Transfer', { exact: true }).click()
  await item('Upload').getByRole('checkbox').click()
  await expectNoAxeViolations(page, 'asset permission form')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await page.waitForURL(/asset-permissions(\?|$)/)
  const saved = (await a.get(`${PERMS}?name=${tag}-nodes`) as { id: string; actions: { value: string }[]; nodes: unknown[] }[])[0]!
  expect(saved.actions.map((x) => x.value).sort()).toEqual(['connect', 'upload'])
  expect(saved.nodes).toHaveLength(2)

  // The ordinary user logs in through the login page and opens My assets.
  const ctx = await browser.newContext()
  const user = await ctx.newPage()
  await login(user, username, PASSWORD, '/ui/workbench/assets')
  const rows = user.getByRole('row')
  await expect(rows.filter({ hasText: `${tag}-h1` })).toHaveCount(1)
  await expect(rows.filter({ hasText: `${tag}-h2` })).toHaveCount(1)
  await expect(rows.filter({ hasText: `${tag}-h3` })).toHaveCount(0)
  const h1Row = rows.filter({ hasText: `${tag}-h1` })
  for (const label of ['Connect', 'Upload', 'Download']) await expect(h1Row.getByText(label, { exact: true }).first()).toBeVisible()
  await expect(rows.filter({ hasText: `${tag}-h2` }).getByText('Download', { exact: true })).toHaveCount(0)
  await expectNoAxeViolations(user, 'my assets')

  // Connect: a connection token for the granted account, shown once.
  await user.getByRole('button', { name: `Connect to ${tag}-h1` }).click()
  const dialog = user.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Create connection token' }).click()
  await expect(dialog.locator('[data-token-value]')).toHaveValue(/^[\w-]{30,}$/)
  await dialog.getByRole('button', { name: 'Close' }).click()

  // The permission expires: its assets disappear, the direct grant stays with its own action only.
  await a.patch(`${PERMS}${saved.id}/`, { date_start: '2000-01-01 00:00:00', date_expired: '2001-01-01 00:00:00' })
  await user.reload()
  await expect(rows.filter({ hasText: `${tag}-h1` })).toHaveCount(1)
  await expect(rows.filter({ hasText: `${tag}-h2` })).toHaveCount(0)
  await expect(rows.filter({ hasText: `${tag}-h1` }).getByText('Upload', { exact: true })).toHaveCount(0)
  await ctx.close()
})
