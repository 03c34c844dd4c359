/**
 * Saved jobs, templates and playbooks in real Chromium against the real server, a real OpenSSH server on loopback
 * and Debian's real ansible-playbook (issue 33): a command template; a saved job on a schedule, its schedule
 * triggered through Settings → Tasks' "run now" call (no clock is waited on), its execution listed on the job and
 * in Audit → Job logs; a playbook created and edited in the console's YAML editor, run by a job, its file written
 * on the host; a job with a parameter and a node, run from the console: the value asked in a dialog (a blank value
 * refused by the server under its field), the command run on the node's granted asset with the value as one word,
 * the output and the value shown on the execution. Axe on every new page, screenshots at 1440 and 360 px.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startSshd, type Sshd, type SshdUser } from '../../server/testing/sshd.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login } from './generic-support.ts'

const SHOTS = process.env.E2E_SHOTS_DIR
async function shots(page: Page, name: string) {
  await expectNoAxeViolations(page, name)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-1440.png`, fullPage: true })
  await page.setViewportSize({ width: 360, height: 900 })
  await expectNoAxeViolations(page, `${name} at 360 px`)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-360.png`, fullPage: true })
  await page.setViewportSize({ width: 1440, height: 1000 })
}

test.describe('saved jobs and playbooks on real hosts', () => {
  test.describe.configure({ timeout: 180_000 })
  let sshd: Sshd
  let host: SshdUser
  let dir: string
  const suffix = Date.now().toString(36)
  const hostName = `pbhost-${suffix}`
  const nodeName = `e2e-node-${suffix}`
  const nodeHostName = `nodehost-${suffix}`

  test.beforeAll(async ({ request }) => {
    sshd = await startSshd()
    host = await sshd.addUser()
    const a = await api(request)
    const me = await a.get('/api/v1/users/profile/')
    const asset = await a.post('/api/v1/assets/hosts/', { name: hostName, address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })
    await a.post('/api/v1/accounts/accounts/', { asset: asset.id, name: `${hostName}-acc`, username: host.username, secret_type: 'password', secret: host.password, privileged: true })
    // A node holding a second host (the job with a parameter runs on it through the node).
    const root = (await a.get('/api/v1/assets/nodes/?limit=1')).results[0].id
    const node = await a.post(`/api/v1/assets/nodes/${root}/children/`, { value: nodeName })
    const inNode = await a.post('/api/v1/assets/hosts/', { name: nodeHostName, address: sshd.host, platform: 1, nodes: [node.id], protocols: [{ name: 'ssh', port: sshd.port }] })
    await a.post('/api/v1/accounts/accounts/', { asset: inNode.id, name: `${nodeHostName}-acc`, username: host.username, secret_type: 'password', secret: host.password, privileged: true })
    await a.post('/api/v1/perms/asset-permissions/', { name: `jobs-saved-e2e-${suffix}`, users: [me.id], assets: [asset.id, inNode.id], accounts: ['@ALL'] })
    dir = mkdtempSync(join(tmpdir(), 'e2e-jobs-'))
    chmodSync(dir, 0o777)
  })
  test.afterAll(async () => sshd?.stop())

  const pickAsset = async (page: Page) => {
    await page.getByRole('searchbox', { name: 'Search assets' }).fill(suffix)
    await page.getByRole('checkbox', { name: new RegExp(hostName) }).check()
  }

  test('a command template, a saved job on a schedule, its run in the job and in Job logs', async ({ page, request }) => {
    await page.setViewportSize({ width: 1440, height: 1000 })
    // A command template.
    await login(page, '/workbench/ops/templates')
    await expect(page.getByRole('heading', { name: 'Templates' })).toBeVisible()
    await page.getByRole('button', { name: 'Create command' }).click()
    await page.getByRole('textbox', { name: 'Name' }).fill(`marker-${suffix}`)
    await page.getByRole('textbox', { name: 'Command' }).fill(`echo scheduled-$((40+2)) > ${dir}/scheduled-$(whoami)`)
    await shots(page, 'adhoc-form')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('table', { name: 'Commands' }).getByRole('row', { name: new RegExp(`marker-${suffix}`) })).toBeVisible()
    await shots(page, 'templates')

    // A saved job from it, on an interval.
    await page.goto('/ui/workbench/ops/job/create')
    await expect(page.getByRole('heading', { name: 'Create job' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Name' }).fill(`nightly-${suffix}`)
    await page.getByRole('combobox', { name: 'Template' }).click()
    await page.getByRole('option', { name: `marker-${suffix}` }).click()
    await expect(page.getByRole('textbox', { name: 'Command' })).toHaveValue(/scheduled-\$\(\(40\+2\)\)/)
    await pickAsset(page)
    await page.getByRole('combobox', { name: 'Account policy' }).click()
    await page.getByRole('option', { name: 'Privileged first' }).click()
    await page.getByRole('switch', { name: 'Run on a schedule' }).check()
    await page.getByRole('radio', { name: 'Interval' }).check()
    await page.getByRole('spinbutton', { name: 'Interval (hours)' }).fill('6')
    await shots(page, 'job-form')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('heading', { name: `Job: nightly-${suffix}` })).toBeVisible()
    await expect(page.getByText('Every 6 h')).toBeVisible()
    await expect(page.getByText('No executions yet.')).toBeVisible()
    const jobId = page.url().split('/').filter(Boolean).pop()!

    // The schedule fires: Settings → Tasks' "run now" queues the schedule's task, as the runner would in 6 hours.
    const a = await api(request)
    const tasks = await a.get(`/api/v1/ops/tasks/?search=${encodeURIComponent(`ops.tasks.run_ops_job:${jobId}`)}`) as unknown as Array<{ id: string; name: string; interval: number }>
    const schedule = tasks.find((x) => x.name === `ops.tasks.run_ops_job:${jobId}`)!
    expect(schedule.interval).toBe(6)
    await a.post(`/api/v1/ops/tasks/${schedule.id}/run/`, {})
    await expect.poll(() => existsSync(join(dir, `scheduled-${host.username}`)), { timeout: 60_000 }).toBe(true)
    expect(readFileSync(join(dir, `scheduled-${host.username}`), 'utf8')).toBe('scheduled-42\n')

    await page.reload()
    const executions = page.getByRole('table', { name: 'Executions' })
    await expect(executions.getByRole('row').nth(1)).toContainText('Success', { timeout: 30_000 })
    await shots(page, 'job-detail')
    await executions.getByRole('row').nth(1).getByRole('link').click()
    await expect(page.getByRole('heading', { name: 'Execution details' })).toBeVisible()
    await expect(page.getByTestId('job-output')).toContainText(`${hostName} | CHANGED | rc=0`)
    await expect(page.getByRole('table', { name: 'Results per asset' }).getByRole('row', { name: new RegExp(hostName) })).toContainText('Success')
    await shots(page, 'execution-detail')

    await page.goto('/ui/workbench/ops/job')
    await expect(page.getByRole('row', { name: new RegExp(`nightly-${suffix}`) })).toContainText('6')
    await shots(page, 'job-list')
    await page.goto('/ui/workbench/ops/executions')
    await expect(page.getByRole('row', { name: new RegExp(`nightly-${suffix}`) }).first()).toBeVisible()
    await shots(page, 'execution-list')

    // Auditors find it in Job logs.
    await page.goto('/ui/audit/audits/job-execution-log')
    await expect(page.getByRole('row', { name: /scheduled-\$\(\(40\+2\)\)/ }).first()).toBeVisible()
  })

  test('a playbook created and edited in the console, run by a job: its file is written on the host', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 1000 })
    await login(page, '/workbench/ops/playbook/create')
    await expect(page.getByRole('heading', { name: 'Create playbook' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Name' }).fill(`write-${suffix}`)
    await shots(page, 'playbook-create')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('heading', { name: `Playbook: write-${suffix}` })).toBeVisible()
    const editor = page.getByRole('textbox', { name: 'Content of main.yml' })
    await expect(editor).toContainText('## write your playbook here')
    await editor.click()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.insertText(`- hosts: all\n  gather_facts: no\n  tasks:\n    - name: write from the console\n      shell: echo "edited in the console on {{ jms_asset.name }}" > ${dir}/playbook-$(whoami)\n`)
    // YAML highlighting: CodeMirror's highlighted spans.
    await expect(page.locator('.cm-content span').first()).toBeVisible()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByText('Saved main.yml')).toBeVisible()
    await shots(page, 'playbook-editor')

    await page.goto('/ui/workbench/ops/job/create')
    await page.getByRole('textbox', { name: 'Name' }).fill(`play-${suffix}`)
    await page.getByRole('radio', { name: 'Playbook' }).check()
    await page.getByRole('combobox', { name: 'Playbook' }).click()
    await page.getByRole('option', { name: `write-${suffix}` }).click()
    await pickAsset(page)
    await page.getByRole('combobox', { name: 'Account policy' }).click()
    await page.getByRole('option', { name: 'Privileged first' }).click()
    // Saved, then run at once (no parameters to ask): its execution's page.
    await page.getByRole('button', { name: 'Save and run' }).click()
    await expect(page.getByRole('heading', { name: 'Execution details' })).toBeVisible()
    await expect(page.getByRole('link', { name: `play-${suffix}` })).toBeVisible()
    const output = page.getByTestId('job-output')
    await expect(output).toContainText('TASK [write from the console]', { timeout: 60_000 })
    await expect(output).toContainText('PLAY RECAP', { timeout: 60_000 })
    await expect(page.getByRole('table', { name: 'Results per asset' }).getByRole('row', { name: new RegExp(hostName) })).toContainText('Success')
    expect(readFileSync(join(dir, `playbook-${host.username}`), 'utf8')).toBe(`edited in the console on ${hostName}\n`)
  })

  test('a job with a parameter and a node, run from the console: its value asked, checked, run as one word, shown with the output', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 1000 })
    await login(page, '/workbench/ops/job/create')
    await expect(page.getByRole('heading', { name: 'Create job' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Name' }).fill(`param-${suffix}`)
    await page.getByRole('textbox', { name: 'Command' }).fill(`printf '%s\\n' {{ greeting }} {{ mode }} | tee ${dir}/param-$(whoami)`)
    // The node from the granted tree, beside the assets (none picked: the node is enough).
    await page.getByRole('treeitem', { name: new RegExp(nodeName) }).click()
    await expect(page.getByRole('group', { name: 'Chosen nodes' }).getByRole('button', { name: `Remove node ${nodeName}` })).toBeVisible()
    await page.getByRole('combobox', { name: 'Account policy' }).click()
    await page.getByRole('option', { name: 'Privileged first' }).click()
    // One text parameter.
    await page.getByRole('button', { name: 'Add parameter' }).click()
    const param = page.getByRole('group', { name: 'Parameter 1' })
    await param.getByRole('textbox', { name: 'Name' }).fill('greeting')
    await param.getByRole('textbox', { name: 'Label' }).fill('Greeting')
    // And a choice, its options one per line (`value | label`).
    await page.getByRole('button', { name: 'Add parameter' }).click()
    const choice = page.getByRole('group', { name: 'Parameter 2' })
    await choice.getByRole('textbox', { name: 'Name' }).fill('mode')
    await choice.getByRole('combobox', { name: 'Kind' }).click()
    await page.getByRole('option', { name: 'Choice' }).click()
    await choice.getByRole('textbox', { name: 'Options' }).fill('fast\nslow | Slow and steady')
    await choice.getByRole('textbox', { name: 'Default' }).fill('fast')
    await shots(page, 'job-form-parameters')
    if (SHOTS) {
      await page.setViewportSize({ width: 360, height: 900 })
      await param.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${SHOTS}/job-form-parameters-360-editor.png` })
      await page.setViewportSize({ width: 1440, height: 1000 })
    }
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('heading', { name: `Job: param-${suffix}` })).toBeVisible()
    await expect(page.getByText(new RegExp(`/${nodeName}$`))).toBeVisible()
    await expect(page.getByText(/greeting — Greeting/)).toBeVisible()
    await expect(page.getByText(/mode — mode \(choice of fast, slow, default fast\)/)).toBeVisible()
    await shots(page, 'job-detail-parameters')

    // Run now: the dialog asks the value; a blank one is refused by the server under its field.
    await page.getByRole('button', { name: 'Run now' }).click()
    const dialog = page.getByRole('dialog', { name: `Run param-${suffix}` })
    await expect(dialog).toBeVisible()
    await shots(page, 'run-dialog')
    await dialog.getByRole('button', { name: 'Run' }).click()
    await expect(dialog.getByText('This field may not be blank.')).toBeVisible()
    const value = `it's "quoted"; echo injected`
    await dialog.getByRole('textbox', { name: 'Greeting' }).fill(value)
    await expect(dialog.getByRole('combobox', { name: 'mode' })).toHaveText('fast')
    await dialog.getByRole('combobox', { name: 'mode' }).click()
    await page.getByRole('option', { name: 'Slow and steady' }).click()
    await dialog.getByRole('button', { name: 'Run' }).click()

    await expect(page.getByRole('heading', { name: 'Execution details' })).toBeVisible()
    await expect(page.getByTestId('job-output')).toContainText(`${nodeHostName} | CHANGED | rc=0`, { timeout: 60_000 })
    await expect(page.getByTestId('job-output')).toContainText(value)
    await expect(page.getByRole('table', { name: 'Results per asset' }).getByRole('row', { name: new RegExp(nodeHostName) })).toContainText('Success')
    await expect(page.getByRole('list', { name: 'Parameter values' })).toContainText(`greeting = ${value}`)
    await expect(page.getByRole('list', { name: 'Parameter values' })).toContainText('mode = slow')
    await shots(page, 'execution-parameters')
    // The whole value was one word on the host.
    expect(readFileSync(join(dir, `param-${host.username}`), 'utf8')).toBe(`${value}\nslow\n`)
  })
})
