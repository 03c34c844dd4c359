/**
 * The asset inventory as a new administrator builds it (issue 10's "done when"), in one browser journey: a node
 * tree (create children, rename, move a node under another), one asset of each of the six kinds through the
 * grouped "Create" menu (a custom one with its platform's typed fields), "Test connectivity" on a host on the
 * loopback sshd (ok) and one on a closed port (failed) with the live log, a label and a node given to the six in
 * bulk, then the six found by node (tree click), by label and by search. Only the data the journey is not about
 * (a custom platform, a label) is made through the API.
 */
import type { Page } from '@playwright/test'
import { freePort, startSshd, type Sshd } from '../../server/testing/sshd.ts'
import { expect, test } from './fixtures.ts'
import { api, bulkAction, listSettled, login, results, row, rowIds, selectRows, unique, type Api } from './generic-support.ts'

let sshd: Sshd

test.beforeAll(async () => {
  sshd = await startSshd()
})
test.afterAll(async () => {
  await sshd?.stop()
})

const LIST = '/console/assets/assets'

test('an administrator builds a tree, creates six kinds of assets, tests them, labels and moves them, and finds them', async ({ page, request }) => {
  test.setTimeout(240_000)
  const a: Api = await api(request)
  const tag = unique('j')
  // set-up data the journey is not about: a custom platform (its own type) with typed fields, and a label
  const platformName = `${tag}-platform`
  await a.post('/api/v1/assets/platforms/', {
    name: platformName, category: 'custom', type: 'custom', protocols: [{ name: 'tcp', port: 7000 }],
    custom_fields: [{ name: 'owner', label: 'Owner', type: 'str', required: true }, { name: 'slots', label: 'Slots', type: 'int', default: '4' }],
  })
  const label = { name: 'env', value: tag }
  await a.post('/api/v1/assets/labels/', label)

  await login(page, LIST)
  const tree = page.getByRole('tree', { name: 'Asset tree' })
  const item = (name: string) => tree.getByRole('treeitem', { name: new RegExp(`^${name}\\b`) })
  const nodeMenu = async (name: string, action: string) => {
    const it = item(name)
    await it.locator(':scope > div').first().hover()
    await it.getByRole('button', { name: `More actions for ${name}` }).first().click()
    await page.getByRole('menuitem', { name: action }).click()
  }
  const prompt = async (title: RegExp, value: string) => {
    const dialog = page.getByRole('dialog', { name: title })
    await dialog.getByRole('textbox', { name: 'Node name' }).fill(value)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
  }

  // 1. The tree: two children of the root, one renamed, then moved under the other (its subtree follows).
  const [zone, team, teamRenamed] = [`${tag}-zone`, `${tag}-team`, `${tag}-ops`]
  await expect(item('DEFAULT')).toBeVisible()
  await nodeMenu('DEFAULT', 'Create child node')
  await prompt(/Create child node of DEFAULT/, zone)
  await expect(item(zone)).toBeVisible()
  await nodeMenu('DEFAULT', 'Create child node')
  await prompt(/Create child node of DEFAULT/, team)
  await nodeMenu(team, 'Rename node')
  await prompt(new RegExp(`Rename node ${team}`), teamRenamed)
  await expect(item(teamRenamed)).toBeVisible()
  await nodeMenu(teamRenamed, 'Cut node')
  await nodeMenu(zone, `Paste ${teamRenamed} here`)
  await expect(page.getByText('Node moved')).toBeVisible()
  // the moved node now opens under its new parent
  await expect(item(zone)).toHaveAttribute('aria-expanded', /true|false/)
  if ((await item(zone).getAttribute('aria-expanded')) !== 'true') await item(zone).locator(':scope > div').first().click()
  await expect(item(zone).getByRole('treeitem', { name: new RegExp(`^${teamRenamed}\\b`) })).toBeVisible()
  const zoneNode = results(await a.get(`/api/v1/assets/nodes/?value=${zone}`))[0] as { id: string; key: string }
  expect(results(await a.get(`/api/v1/assets/nodes/?value=${teamRenamed}`))[0]).toMatchObject({ full_value: `/DEFAULT/${zone}/${teamRenamed}` })

  // 2. One asset of each kind through the grouped "Create" menu (category → type → the kind's form).
  const names = { up: `${tag}-up`, down: `${tag}-down`, db: `${tag}-db`, dev: `${tag}-switch`, cloud: `${tag}-k8s`, web: `${tag}-web`, custom: `${tag}-app1` }
  const downPort = await freePort()
  const create = async (type: string | RegExp, name: string, address: string, more?: () => Promise<void>) => {
    await page.getByRole('tab', { name: 'All' }).click()
    await expect(page).toHaveURL(/\/console\/assets\/assets(\?|$)/)
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await page.getByRole('menuitem', typeof type === 'string' ? { name: type, exact: true } : { name: type }).click()
    await expect(page).toHaveURL(/\/create\?.*platform=\d+/)
    await page.locator('[data-field="name"]').getByRole('textbox').fill(name)
    await page.locator('[data-field="address"]').getByRole('textbox').fill(address)
    await more?.()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    // back on the kind's list, the new asset first
    await expect(row(page, name)).toBeVisible()
  }
  const sshPort = (port: number) => async () => {
    const protocols = page.locator('[data-field="protocols"]')
    // the platform's default protocol is there already (issue 35): only its port changes
    await expect(protocols.getByRole('textbox', { name: 'Name' })).toHaveValue('ssh')
    await protocols.getByRole('spinbutton', { name: 'Port' }).fill(String(port))
  }
  await create('Linux', names.up, '127.0.0.1', sshPort(sshd.port))
  await create('Linux', names.down, '127.0.0.1', sshPort(downPort))
  await create('MySQL', names.db, 'db.example.com')
  await create('General', names.dev, '10.9.0.1')
  await create('Kubernetes', names.cloud, 'https://k8s.example.com:6443')
  await create('Website', names.web, 'https://intranet.example.com')
  await create(/^custom$/i, names.custom, 'app.example.com', async () => {
    // the platform picker offers custom platforms only; the chosen one's typed fields follow
    const platform = page.locator('[data-field="platform"]').getByRole('combobox')
    await platform.click()
    await expect(page.getByRole('option', { name: 'Linux', exact: true })).toHaveCount(0)
    await platform.fill(platformName)
    await page.getByRole('option', { name: platformName }).click()
    const info = page.locator('[data-field="custom_info"]')
    await expect(info.getByRole('spinbutton', { name: 'Slots' })).toHaveValue('4')
    await info.getByRole('textbox', { name: 'Owner' }).fill('ops')
  })
  const all = Object.values(names)
  const made = results(await a.get(`/api/v1/assets/assets/?search=${tag}&limit=50`)) as { name: string; category: { value: string }; protocols: { name: string; port: number }[] }[]
  expect(made.map((x) => x.name).sort()).toEqual([...all].sort())
  expect(new Set(made.map((x) => x.category.value))).toEqual(new Set(['host', 'database', 'device', 'cloud', 'web', 'custom']))
  expect(made.find((x) => x.name === names.up)!.protocols).toEqual([{ name: 'ssh', port: sshd.port }])
  expect((await a.get(`/api/v1/assets/customs/?name=${names.custom}`))[0].custom_info).toEqual({ owner: 'ops', slots: 4 })

  // 3. Test connectivity on the two hosts at once: the live log opens in a new tab; the sshd answers, the closed port does not.
  await page.getByRole('tab', { name: 'All' }).click()
  await page.getByRole('search').getByRole('textbox').fill(tag)
  await page.getByRole('search').getByRole('textbox').press('Enter')
  await expect(row(page, names.custom)).toBeVisible()
  await listSettled(page)
  await selectRows(page, [names.up, names.down])
  const popupPromise = page.context().waitForEvent('page')
  await bulkAction(page, 'Test connectivity')
  const popup = await popupPromise
  const log = popup.getByRole('log', { name: 'Task log' })
  await expect(log).toContainText(`${names.up} (127.0.0.1): ok`, { timeout: 30_000 })
  await expect(log).toContainText(sshd.hostKeyFingerprint)
  await expect(log).toContainText(`${names.down} (127.0.0.1): failed`)
  await expect(log).toHaveAttribute('data-state', /SUCCESS|FAILURE/)
  await popup.close()
  await page.reload()
  await expect(row(page, names.up)).toContainText('OK')
  await expect(row(page, names.down)).toContainText('Error')

  // 4. Label the seven and move them to the renamed node, in bulk.
  await listSettled(page)
  await page.getByRole('checkbox', { name: /select all/i }).first().check()
  await bulkAction(page, 'Update selected')
  const bulk = page.getByRole('dialog', { name: /Update 7 selected items/ })
  await bulk.getByRole('checkbox', { name: 'Label' }).check()
  await bulk.locator('[data-field="labels"]').getByRole('combobox').fill(tag)
  await page.getByRole('option', { name: `env:${tag}` }).click()
  await bulk.getByRole('button', { name: 'Confirm' }).click()
  await expect(bulk).toBeHidden()
  await selectRows(page, all)
  // (the tree was drawn again with the page: the renamed node is inside the zone again)
  if ((await item(zone).getAttribute('aria-expanded')) !== 'true') await item(zone).locator(':scope > div').first().click()
  await nodeMenu(teamRenamed, 'Move selected assets here')
  await expect(page.getByText(`Assets moved to ${teamRenamed}`)).toBeVisible()
  const moved = results(await a.get(`/api/v1/assets/assets/?search=${tag}&limit=50`)) as { nodes_display: string[]; labels: { name: string; value: string }[] }[]
  expect(moved.map((x) => x.nodes_display)).toEqual(all.map(() => [`/DEFAULT/${zone}/${teamRenamed}`]))
  expect(moved.map((x) => x.labels.map((l) => `${l.name}:${l.value}`))).toEqual(all.map(() => [`env:${tag}`]))

  // 5. Find them: by node (the parent holds them through its child; the count says so), by label, by search.
  await page.goto(`/ui${LIST}`)
  await expect(item(zone)).toContainText('7')
  await item(zone).locator(':scope > div').first().click()
  await expect(page).toHaveURL(new RegExp(`node_id=${zoneNode.id}`))
  await expectRows(page, all)

  await page.goto(`/ui${LIST}`)
  await page.getByRole('button', { name: 'Filter by field' }).click()
  await page.getByRole('menuitem', { name: 'Label' }).click()
  await page.getByRole('search').getByRole('textbox').fill(`env:${tag}`)
  await page.getByRole('search').getByRole('textbox').press('Enter')
  await expect(page).toHaveURL(/labels=env/)
  await expectRows(page, all)

  await page.goto(`/ui${LIST}`)
  await page.getByRole('search').getByRole('textbox').fill(names.web)
  await page.getByRole('search').getByRole('textbox').press('Enter')
  await expectRows(page, [names.web])
})

/** The list shows exactly these rows (by name). */
async function expectRows(page: Page, names: readonly string[]): Promise<void> {
  await listSettled(page)
  for (const n of names) await expect(row(page, n)).toBeVisible()
  await expect.poll(async () => (await rowIds(page)).length).toBe(names.length)
}
