/**
 * The quick job in real Chromium against the real server and a real OpenSSH server on loopback (issue 33): the
 * operator picks two granted hosts (one unreachable), runs a command, watches the output arrive in the terminal
 * panel to its end, reads the per-asset results; the run is listed in Audit → Job logs. Axe on both pages.
 */
import type { Page } from '@playwright/test'
import { freePort, startSshd, type Sshd, type SshdUser } from '../../server/testing/sshd.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login } from './generic-support.ts'

const SHOTS = process.env.E2E_SHOTS_DIR
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

test.describe('quick job on real hosts', () => {
  test.describe.configure({ timeout: 120_000 })
  let sshd: Sshd
  let host: SshdUser
  const suffix = Date.now().toString(36)
  const names = { ok: `job-web-${suffix}`, dark: `job-gone-${suffix}` }

  test.beforeAll(async ({ request }) => {
    sshd = await startSshd()
    host = await sshd.addUser()
    const a = await api(request)
    const me = await a.get('/api/v1/users/profile/')
    const ids: string[] = []
    for (const [name, port] of [[names.ok, sshd.port], [names.dark, await freePort()]] as const) {
      const asset = await a.post('/api/v1/assets/hosts/', { name, address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port }] })
      await a.post('/api/v1/accounts/accounts/', { asset: asset.id, name: `${name}-acc`, username: host.username, secret_type: 'password', secret: host.password, privileged: true })
      ids.push(String(asset.id))
    }
    await a.post('/api/v1/perms/asset-permissions/', { name: `jobs-e2e-${suffix}`, users: [me.id], assets: ids, accounts: ['@ALL'] })
  })
  test.afterAll(async () => sshd?.stop())

  test('run a command on two hosts, watch it live, read the results and the job log', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 1000 })
    await login(page, '/workbench/ops/quick-job')
    await expect(page.getByRole('heading', { name: 'Quick job' })).toBeVisible()
    await page.getByRole('searchbox', { name: 'Search assets' }).fill(suffix)
    await page.getByRole('checkbox', { name: new RegExp(names.ok) }).check()
    await page.getByRole('checkbox', { name: new RegExp(names.dark) }).check()
    await expect(page.getByText('2 assets and 0 nodes selected')).toBeVisible()
    await page.getByRole('textbox', { name: 'Command' }).fill('echo "job-$((6*7)) from $(whoami)"')
    await page.getByRole('combobox', { name: 'Account policy' }).click()
    await page.getByRole('option', { name: 'Privileged first' }).click()
    await expectNoAxeViolations(page, 'quick job')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    const output = page.getByTestId('job-output')
    await expect(output).toContainText(`job-42 from ${host.username}`, { timeout: 60_000 })
    await expect(output).toContainText(`${names.dark} | UNREACHABLE!`)
    await expect(output).not.toContainText('Task ops.tasks.run_ops_job_execution')
    const results = page.getByRole('table', { name: 'Results per asset' })
    await expect(results.getByRole('row', { name: new RegExp(names.ok) })).toContainText('Success')
    await expect(results.getByRole('row', { name: new RegExp(names.dark) })).toContainText('Unreachable')
    await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled()
    await expectNoAxeViolations(page, 'quick job with results')
    await shot(page, 'quick-job-1440')
    await page.setViewportSize({ width: 360, height: 900 })
    await shot(page, 'quick-job-360')

    // The command is in the history.
    await page.setViewportSize({ width: 1440, height: 1000 })
    await page.getByRole('textbox', { name: 'Command' }).fill('')
    await page.getByRole('combobox', { name: 'History' }).click()
    await page.getByRole('option', { name: 'echo "job-$((6*7)) from $(whoami)"' }).click()
    await expect(page.getByRole('textbox', { name: 'Command' })).toHaveValue('echo "job-$((6*7)) from $(whoami)"')

    await page.goto('/ui/audit/audits/job-execution-log')
    await expect(page.getByRole('row', { name: /job-\$\(\(6\*7\)\)/ }).first()).toBeVisible()
    await expectNoAxeViolations(page, 'job logs')
    await shot(page, 'job-logs')
  })
})
