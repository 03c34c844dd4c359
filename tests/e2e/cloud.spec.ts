/**
 * Cloud sync in Chromium against the real server (docs/cloud.md): from the asset list's "Cloud sync" to the Cloud
 * center, an account (form, detail, Test), a sync task created in the form over a loopback address where a real
 * OpenSSH server listens (server/testing/sshd.ts), run from its detail (the live log in a new tab), its History
 * and Instances tabs, and the discovered asset under the chosen node. Axe on every page. No packet leaves
 * 127.0.0.0/8.
 */
import { startSshd, type Sshd } from '../../server/testing/sshd.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, results, row, unique } from './generic-support.ts'

let sshd: Sshd
test.beforeAll(async () => {
  sshd = await startSshd({ listenAddress: '127.0.0.6' })
})
test.afterAll(async () => {
  await sshd?.stop()
})

test('cloud sync: Cloud center, account, task, run, history, instances, the asset under the node', async ({ page, request }) => {
  const a = await api(request)
  const nodes = results(await a.get('/api/v1/assets/nodes/')) as Array<{ id: string }>
  const node = await a.post(`/api/v1/assets/nodes/${nodes[0]!.id}/children/`, { value: unique('cloud') }) as { id: string; value: string }

  // the asset list's extra action opens the Cloud center (tasks and accounts, one tab each)
  await login(page, '/console/assets/assets')
  await page.getByRole('button', { name: 'Cloud sync', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Cloud sync' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Sync instance tasks' })).toBeVisible()
  await expectNoAxeViolations(page, 'cloud center, tasks')
  await page.getByRole('tab', { name: 'Cloud accounts' }).click()
  await expect(page.getByRole('grid')).toBeVisible()
  await expectNoAxeViolations(page, 'cloud center, accounts')

  // an account through its form: the scan's ranges and ports as fields of their own
  const accountName = unique('lan')
  await page.goto('/ui/console/assets/cloud/account/create')
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(accountName)
  await page.getByRole('textbox', { name: 'IP network segment group' }).fill('127.0.0.6')
  await page.getByRole('textbox', { name: 'Ports' }).fill(String(sshd.port))
  await page.getByRole('textbox', { name: 'Password' }).fill('never-shown')
  await expectNoAxeViolations(page, 'cloud account form')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page).not.toHaveURL(/create/)
  const account = results(await a.get(`/api/v1/xpack/cloud/accounts/?search=${accountName}`))[0] as { id: string; attrs: Record<string, unknown> }
  expect(account.attrs).toEqual({ ip_group: ['127.0.0.6'], port: [sshd.port] })
  await page.goto(`/ui/console/assets/cloud/account/${account.id}`)
  await expect(page.getByRole('heading', { name: new RegExp(accountName) })).toBeVisible()
  await expectNoAxeViolations(page, 'cloud account detail')
  await page.getByRole('button', { name: /^Test\b/ }).click()
  await expect(page.getByText('Test successful').first()).toBeVisible()

  // a task through the form (account, node and region prefilled, as from the account)
  const taskName = unique('scan')
  await page.goto(`/ui/console/assets/cloud/sync-instance-tasks/create?account=${account.id}&node=${node.id}&regions=127.0.0.6`)
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(taskName)
  await expectNoAxeViolations(page, 'sync task form')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page).not.toHaveURL(/create/)
  const task = results(await a.get(`/api/v1/xpack/cloud/sync-instance-tasks/?search=${taskName}`))[0] as { id: string }
  expect(task).toBeDefined()
  await page.goto('/ui/console/assets/cloud/sync-instance-tasks')
  await expect(row(page, taskName)).toBeVisible()
  await expectNoAxeViolations(page, 'sync task list')

  // run from the detail: the live log opens in a new tab
  await page.goto(`/ui/console/assets/cloud/sync-instance-tasks/${task.id}`)
  await expect(page.getByRole('heading', { name: new RegExp(taskName) })).toBeVisible()
  await expectNoAxeViolations(page, 'sync task detail')
  const popupPromise = page.context().waitForEvent('page')
  await page.getByRole('button', { name: /^Run\b/ }).click()
  const popup = await popupPromise
  const log = popup.getByRole('log', { name: 'Task log' })
  await expect(log).toContainText('new asset 127.0.0.6', { timeout: 60_000 })
  await expect(log).toContainText('Summary: new 1, sync 0, unsync 0, released 0')
  await popup.close()

  await page.getByRole('tab', { name: 'History' }).click()
  await expect(page.getByRole('grid', { name: 'History' }).locator('[role="row"][data-row-id]')).toHaveCount(1)
  await expectNoAxeViolations(page, 'sync task history')
  await page.getByRole('tab', { name: 'Instances' }).click()
  await expect(row(page, '127.0.0.6')).toBeVisible()
  await expectNoAxeViolations(page, 'sync task instances')

  // the asset is under the chosen node, an SSH host on the sshd's port
  const assets = results(await a.get(`/api/v1/assets/assets/?node=${node.id}`)) as Array<{ address: string; protocols: Array<{ name: string; port: number }> }>
  expect(assets.map((x) => [x.address, x.protocols])).toEqual([['127.0.0.6', [{ name: 'ssh', port: sshd.port }]]])

  // the administrator setting that bounds every scan (Settings → Other)
  await page.goto('/ui/settings/other')
  await expect(page.getByText('Networks cloud sync may scan', { exact: true })).toBeVisible()
  await expect(page.getByText('127.0.0.0/8', { exact: true })).toBeVisible()
  await expectNoAxeViolations(page, 'settings other, cloud sync')
})
