/**
 * Domains, gateways and "Test connectivity" against a real OpenSSH server on loopback (server/testing/sshd.ts):
 * a domain created in the browser, a gateway on the sshd and one on a closed port, each tested from the domain's
 * Gateways tab — the live log opens in a new tab and the connectivity column shows the result. Axe on each page.
 */
import type { Page } from '@playwright/test'
import { freePort, startSshd, type Sshd } from '../../server/testing/sshd.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, results, row, rowAction, unique, type Api } from './generic-support.ts'

let sshd: Sshd

test.beforeAll(async () => {
  sshd = await startSshd()
})
test.afterAll(async () => {
  await sshd?.stop()
})

async function testFromRow(page: Page, name: string): Promise<Page> {
  const popupPromise = page.context().waitForEvent('page')
  await rowAction(page, name, 'Test connectivity')
  const popup = await popupPromise
  await popup.waitForLoadState()
  return popup
}

test.describe('domains and gateways', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })

  test('create a domain, test its gateways over SSH, see the live log and the result', async ({ page }) => {
    const domainName = unique('zone')
    await login(page, '/console/assets/domains/create')
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(domainName)
    await expectNoAxeViolations(page, 'domain form')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(row(page, domainName)).toBeVisible()
    await expectNoAxeViolations(page, 'domain list')

    const domain = results(await a.get(`/api/v1/assets/domains/?name=${domainName}`))[0] as { id: string }
    const up = unique('gw-up')
    const down = unique('gw-down')
    await a.post('/api/v1/assets/gateways/', { name: up, address: '127.0.0.1', domain: domain.id, protocols: [{ name: 'ssh', port: sshd.port }] })
    await a.post('/api/v1/assets/gateways/', { name: down, address: '127.0.0.1', domain: domain.id, protocols: [{ name: 'ssh', port: await freePort() }] })

    await row(page, domainName).getByRole('link', { name: domainName }).click()
    await expect(page.getByRole('heading', { name: new RegExp(domainName) })).toBeVisible()
    await page.getByRole('tab', { name: 'Gateways' }).click()
    await expect(row(page, up)).toBeVisible()
    await expectNoAxeViolations(page, 'domain gateways')

    // the gateway on the real sshd: the SSH handshake answers
    let popup = await testFromRow(page, up)
    let log = popup.getByRole('log', { name: 'Task log' })
    await expect(log).toContainText(`${up} (127.0.0.1): ok`)
    await expect(log).toContainText('SSH handshake')
    await expect(log).toContainText(sshd.hostKeyFingerprint)
    await expect(log).toHaveAttribute('data-state', 'SUCCESS')
    await expectNoAxeViolations(popup, 'task log')
    await popup.close()

    // the gateway on a closed port: failed, and the log says why
    popup = await testFromRow(page, down)
    log = popup.getByRole('log', { name: 'Task log' })
    await expect(log).toContainText(`${down} (127.0.0.1): failed`)
    await expect(log).toContainText('unreachable')
    await popup.close()

    await page.reload()
    await page.getByRole('tab', { name: 'Gateways' }).click()
    await expect(row(page, up)).toContainText('OK')
    await expect(row(page, down)).toContainText('Error')

    // a host on the sshd with a privileged account: "Refresh hardware info" (through the API) fills the detail's
    // Hardware card; the favourite star on the detail page shows in the list too
    const user = await sshd.addUser()
    const hostName = unique('hw-host')
    const host = await a.post('/api/v1/assets/hosts/', { name: hostName, address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] }) as { id: string }
    await a.post('/api/v1/accounts/accounts/', { username: user.username, secret: user.password, asset: host.id, privileged: true })
    const { task } = await a.post('/api/v1/assets/assets/tasks/', { action: 'refresh', assets: [host.id] }) as { task: string }
    await expect.poll(async () => (await a.get(`/api/v1/ops/celery/task/x/task-execution/${task}/result/`) as { state: string }).state, { timeout: 60_000 }).toBe('SUCCESS')
    expect((await a.get(`/api/v1/ops/celery/task/x/task-execution/${task}/log/`) as { data: string }).data).toContain(`${hostName} (127.0.0.1): ok`)
    await page.goto(`/ui/console/assets/assets/${host.id}`)
    await expect(page.getByRole('heading', { name: new RegExp(hostName) })).toBeVisible()
    await expect(page.getByText('Hardware', { exact: true })).toBeVisible()
    await expect(page.getByText('vCPUs', { exact: true })).toBeVisible()
    await expect(page.getByText('Architecture', { exact: true })).toBeVisible()
    await page.getByRole('button', { name: `Add ${hostName} to favourites` }).click()
    await expect(page.getByRole('button', { name: `Remove ${hostName} from favourites` })).toHaveAttribute('aria-pressed', 'true')
    await expectNoAxeViolations(page, 'host detail with hardware')
    await page.goto(`/ui/console/assets/assets?search=${hostName}`)
    await expect(row(page, hostName).getByRole('button', { name: `Remove ${hostName} from favourites` })).toHaveAttribute('aria-pressed', 'true')
    // and off again from the list
    await row(page, hostName).getByRole('button', { name: `Remove ${hostName} from favourites` }).click()
    await expect(row(page, hostName).getByRole('button', { name: `Add ${hostName} to favourites` })).toHaveAttribute('aria-pressed', 'false')
    expect(results(await a.get('/api/v1/assets/favorite-assets/')).map((f) => (f as { asset: unknown }).asset)).not.toContain(host.id)
  })
})
