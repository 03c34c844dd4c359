/**
 * Accounts in real Chromium against the real server and a real OpenSSH server on loopback (server/testing/sshd.ts):
 * an administrator with OTP creates an account on a host, views its secret after the OTP confirmation (shown once,
 * with copy), runs a change-secret automation and follows its live log, and the new secret is the one stored.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import type { Page } from '@playwright/test'
import { bindOtp, freshCode, tokenFor } from './support/otp.ts'
import { startSshd, type Sshd, type SshdUser } from '../../server/testing/sshd.ts'
import { ADMIN, expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, row, rowAction, type Api } from './generic-support.ts'

const ROLE_USER = '00000000-0000-0000-0000-000000000003'
const ROLE_ORG_ADMIN = '00000000-0000-0000-0000-000000000005'
const SHOTS = process.env.E2E_SHOTS_DIR
const run = promisify(execFile)

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}


/** An organization administrator with OTP bound through its own profile endpoints; answers the step used. */
async function otpAdmin(a: Api): Promise<{ username: string; password: string; secret: string; usedStep: number }> {
  const suffix = Date.now().toString(36)
  const user = { username: `keeper-${suffix}`, password: `Keeper-Passw0rd-${suffix}!` }
  await a.post('/api/v1/users/users/', {
    name: `Keeper${suffix}`, username: user.username, email: `${user.username}@example.com`, password_strategy: 'custom',
    password: user.password, need_update_password: false, system_roles: [ROLE_USER], org_roles: [ROLE_ORG_ADMIN],
  })
  return bindOtp(user)
}


test.describe('accounts on a real host', () => {
  test.describe.configure({ timeout: 180_000 })
  let sshd: Sshd
  let priv: SshdUser
  const sudoers = `/etc/sudoers.d/e2e-${randomBytes(4).toString('hex')}`
  const pushed: string[] = []

  test.beforeAll(async () => {
    sshd = await startSshd()
    priv = await sshd.addUser()
    await writeFile(sudoers, `${priv.username} ALL=(ALL) NOPASSWD: ALL\n`, { mode: 0o440 })
  })
  test.afterAll(async () => {
    for (const u of pushed) await run('userdel', ['-r', '-f', u]).catch(() => undefined)
    await rm(sudoers, { force: true })
    await sshd?.stop()
  })

  test('create an account, view its secret after the OTP, change it and follow the execution log', async ({ page, request }) => {
    const a = await api(request)
    const user = await otpAdmin(a)
    const host = await a.post('/api/v1/assets/hosts/', { name: `e2e-host-${Date.now().toString(36)}`, address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })
    // The host's administrator account (privileged): the automations log in with it.
    await a.post('/api/v1/accounts/accounts/', { username: priv.username, secret: priv.password, asset: host.id, privileged: true })

    // Log in with password and OTP.
    await page.addInitScript(() => localStorage.setItem('viewSwitcherTip', '1'))
    await page.goto(`/core/auth/login/?next=${encodeURIComponent('/ui/console/accounts/accounts/create')}`)
    await page.locator('input[name="username"]').fill(user.username)
    await page.locator('input[name="password"]').fill(user.password)
    await page.locator('input[name="password"]').press('Enter')
    const login = await freshCode(page, user.secret, user.usedStep)
    await page.locator('input[name="code"]').fill(login.code)
    await page.locator('input[name="code"]').press('Enter')
    await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
    if (!page.url().includes('/accounts/accounts/create')) await page.goto('/ui/console/accounts/accounts/create')

    // Create the account on the host: the secret leaves the browser encrypted (contract §6).
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(priv.username)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`${priv.username}-admin`)
    const picker = page.locator('[data-field="asset"]').getByRole('combobox')
    await picker.fill(host.name)
    await page.getByRole('option', { name: new RegExp(host.name) }).click()
    await page.locator('[data-field="secret"]').locator('input, textarea').first().fill('placeholder-secret')
    await expectNoAxeViolations(page, 'account form')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    // refused: the host already has this username (the administrator account above)
    await expect(page.locator('[data-field="username"]')).toContainText('An account with this username already exists on the asset.')
    const app = `app${randomBytes(3).toString('hex')}`
    pushed.push(app)
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(app)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(app)
    await page.locator('[data-field="secret"]').locator('input, textarea').first().fill('First-Secret-1')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.waitForURL((url) => /\/console\/accounts\/accounts(\?|$|\/[0-9a-f-]{36})/.test(url.pathname + url.search))
    await page.goto(`/ui/console/accounts/accounts?search=${app}`)
    await expect(row(page, app)).toBeVisible()
    await expect(page.getByText('First-Secret-1')).toHaveCount(0)
    await expectNoAxeViolations(page, 'account list')

    // View its secret: the OTP first, then the secret once, with copy.
    await rowAction(page, app, 'View secret')
    const verify = page.getByRole('dialog', { name: 'Multi-factor authentication' })
    await expect(verify).toBeVisible()
    await shot(page, 'accounts-confirm')
    const code = verify.getByRole('textbox', { name: /OTP/ })
    const confirmCode = await freshCode(page, user.secret, login.step)
    await code.fill(confirmCode.code)
    await code.press('Enter')
    const shown = page.getByRole('dialog', { name: new RegExp(`Secret of ${app}`) })
    await expect(shown).toBeVisible()
    await expect(shown.getByRole('textbox', { name: 'Secret' })).toHaveValue('First-Secret-1')
    await expect(shown.getByRole('button', { name: 'Copy the secret' })).toBeVisible()
    await shot(page, 'accounts-secret')
    await expectNoAxeViolations(page, 'secret dialog')
    await shown.getByRole('button', { name: 'Close' }).click()
    await expect(shown).toBeHidden()

    // A change-secret task (random, 20 characters) on the host, executed from its list: the live log opens.
    const account = (await a.get(`/api/v1/accounts/accounts/?search=${app}`))[0]
    await request.post('/api/v1/accounts/accounts/tasks/', { headers: { Authorization: `Bearer ${await tokenFor(request, ADMIN)}` }, data: { action: 'push', accounts: [account.id] } })
    const task = await a.post('/api/v1/accounts/change-secret-automations/', {
      name: `rotate-${app}`, assets: [host.id], accounts: [app], secret_strategy: 'random', password_rules: { length: 20, symbol_set: '' },
    })
    // the OS account must exist before its secret can change: wait for the push above to have logged in
    await expect.poll(async () => (await a.get(`/api/v1/accounts/accounts/${account.id}/`)).connectivity.value, { timeout: 60_000 }).toBe('ok')
    await page.goto(`/ui/console/accounts/account-change-secret?search=${task.name}`)
    await expect(row(page, task.name)).toBeVisible()
    await expectNoAxeViolations(page, 'change secret list')
    const [logPage] = await Promise.all([page.context().waitForEvent('page'), rowAction(page, task.name, 'Execute')])
    await expect(logPage.getByRole('log')).toContainText(`${app}: secret changed, the new secret logs in`, { timeout: 90_000 })
    await expect(logPage.getByRole('log')).toContainText('success: 1 of 1 done, 0 failed')
    await shot(logPage, 'accounts-change-log')
    await logPage.close()

    // The execution is listed with its records; the secret shown now (still confirmed) is the new one.
    await page.goto('/ui/console/accounts/account-change-secret/executions')
    await expect(page.getByRole('grid').first()).toContainText(task.name)
    await page.goto(`/ui/console/accounts/accounts?search=${app}`)
    await rowAction(page, app, 'View secret')
    const again = page.getByRole('dialog', { name: new RegExp(`Secret of ${app}`) })
    await expect(again).toBeVisible()
    const rotated = await again.getByRole('textbox', { name: 'Secret' }).inputValue()
    expect(rotated).toMatch(/^[A-Za-z0-9]{20}$/)
    expect(rotated).not.toBe('First-Secret-1')
  })
})
