/**
 * Settings → Tasks against the real server: the daily clean-up listed with its schedule, "Run now" opening the
 * live log (streamed over the websocket), the execution in the task's history opening its log again and running
 * again, the schedule editor (a bad cron refused on its field), the enable switch, axe on every page.
 */
import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, row, rowAction, results, type Api } from './generic-support.ts'

const LIST = '/settings/tasks'
const TASKS = '/api/v1/ops/tasks/'
const CLEANUP = 'Clean up expired logs and data'
const CLEANUP_NAME = 'audits.tasks.clean_audits_log_period'

test.describe('tasks', () => {
  let a: Api
  let cleanup: { id: string }
  test.beforeEach(async ({ request }) => {
    a = await api(request)
    cleanup = results(await a.get(`${TASKS}?name=${CLEANUP_NAME}`))[0]
    await a.patch(`${TASKS}${cleanup.id}/`, { enabled: true, crontab: '0 2 * * *', interval: null })
  })

  /** Waits for the log page opened by `open` and checks it shows the clean-up's log to its successful end. */
  async function expectLiveCleanupLog(page: Page, open: () => Promise<void>): Promise<Page> {
    const popupPromise = page.context().waitForEvent('page')
    await open()
    const popup = await popupPromise
    await popup.waitForLoadState()
    const log = popup.getByRole('log', { name: 'Task log' })
    await expect(log).toContainText('Deleting login logs older than')
    await expect(log).toContainText('Clean-up finished')
    await expect(log).toHaveAttribute('data-state', 'SUCCESS')
    await expect(popup.getByText('The task has finished.')).toBeVisible()
    return popup
  }

  test('run the clean-up now, watch its live log, find it in the history', async ({ page }) => {
    await login(page, LIST)
    const cleanupRow = row(page, CLEANUP)
    await expect(cleanupRow).toBeVisible()
    await expect(cleanupRow).toContainText('0 2 * * *')
    await expect(cleanupRow).toContainText('02:00:00')
    await expect(cleanupRow.getByRole('switch')).toBeChecked()
    await expectNoAxeViolations(page, 'task list')

    // The log page subscribes over the websocket: capture its frames from the start.
    const frames: string[] = []
    page.context().on('page', (p) => p.on('websocket', (ws) => {
      if (ws.url().includes('/ws/ops/tasks/log/')) ws.on('framereceived', (f) => frames.push(String(f.payload)))
    }))
    const popup = await expectLiveCleanupLog(page, () => rowAction(page, CLEANUP, 'Run now'))
    await expectNoAxeViolations(popup, 'task log')
    const streamed = frames.map((f) => JSON.parse(f) as { message: string; end?: boolean })
    expect(streamed.map((m) => m.message).join('')).toContain('Clean-up finished')
    expect(streamed.at(-1)?.end).toBe(true)
    const executionId = new URL(popup.url()).pathname.split('/').at(-2)!
    await popup.close()

    // The execution is in the task's history, with who started it; its log opens again.
    await page.getByRole('link', { name: CLEANUP }).first().click()
    await expect(page.getByRole('heading', { name: `Task: ${CLEANUP}` })).toBeVisible()
    await expect(page.getByText(CLEANUP_NAME)).toBeVisible()
    await expectNoAxeViolations(page, 'task detail')
    await page.getByRole('tab', { name: 'Executions' }).click()
    const history = page.getByRole('grid').first()
    const execution = history.locator(`[role="row"][data-row-id="${executionId}"]`)
    await expect(execution).toBeVisible()
    await expect(execution).toContainText('Success')
    await expect(execution).toContainText('Administrator(admin)')
    await expectNoAxeViolations(page, 'task executions')
    const again = await expectLiveCleanupLog(page, () => execution.getByRole('button', { name: /^Log\b/ }).click())
    await again.close()

    // "Run again" starts a new execution with the same arguments and opens its log.
    const rerun = await expectLiveCleanupLog(page, () => execution.getByRole('button', { name: /^Run again\b/ }).click())
    const rerunId = new URL(rerun.url()).pathname.split('/').at(-2)!
    expect(rerunId).not.toBe(executionId)
    await rerun.close()
    await expect(history.locator(`[role="row"][data-row-id="${rerunId}"]`)).toBeVisible()

    // JumpServer's link form (`/core/ops/celery/task/<id>/log/`) and the trailing-slash route reach the same log.
    const direct = await page.context().newPage()
    await direct.goto(`/core/ops/celery/task/${executionId}/log/`)
    await expect(direct.getByRole('log', { name: 'Task log' })).toContainText('Clean-up finished')
    await direct.close()
  })

  test('edit the schedule, refuse a bad cron, switch it off and on', async ({ page }) => {
    await login(page, `${LIST}/${cleanup.id}`)
    await expect(page.getByRole('heading', { name: `Task: ${CLEANUP}` })).toBeVisible()
    await page.getByRole('button', { name: 'Edit schedule' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit schedule' })
    const crontab = dialog.getByRole('textbox', { name: 'Crontab' })
    await expect(crontab).toHaveValue('0 2 * * *')
    await expectNoAxeViolations(page, 'schedule editor')
    await crontab.fill('0 25 * * *')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog.locator('[data-field="crontab"]')).toContainText('Not a valid cron expression')
    await crontab.fill('30 3 * * 1')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByText('30 3 * * 1')).toBeVisible()
    await expect(page.getByText(/03:30:00/)).toBeVisible()
    const stored = await a.get(`${TASKS}${cleanup.id}/`)
    expect(stored.crontab).toBe('30 3 * * 1')
    // "YYYY/MM/DD 03:30:00 +0800", a Monday in Shanghai.
    const [, y, mo, d] = /^(\d{4})\/(\d\d)\/(\d\d) 03:30:00 \+0800$/.exec(stored.next_exec_time)!
    expect(new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d))).getUTCDay()).toBe(1)

    // The list's switch turns the schedule off (no next run) and on again.
    await page.goto(`/ui${LIST}`)
    const toggle = row(page, CLEANUP).getByRole('switch')
    await toggle.click()
    await expect.poll(async () => (await a.get(`${TASKS}${cleanup.id}/`)).enabled).toBe(false)
    expect((await a.get(`${TASKS}${cleanup.id}/`)).next_exec_time).toBeNull()
    await page.reload()
    await expect(row(page, CLEANUP).getByRole('switch')).not.toBeChecked()
    await row(page, CLEANUP).getByRole('switch').click()
    await expect.poll(async () => (await a.get(`${TASKS}${cleanup.id}/`)).enabled).toBe(true)
  })
})
