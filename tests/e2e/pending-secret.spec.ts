/**
 * A new secret the host took but that did not verify is not lost (issue 35): a real sshd whose host refuses the
 * account's own logins (`DenyUsers`) while its administrator changes the password; the execution's Records tab says
 * the new secret is kept, "View new secret" asks for the OTP and shows it once, and it is the host's password (it
 * logs in through the host's other sshd).
 */
import { randomBytes } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { passwordLogsIn, startSshd, type Sshd, type SshdUser } from '../../server/testing/sshd.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, row, rowAction } from './generic-support.ts'
import { bindOtp, freshCode } from './support/otp.ts'

const ROLE_USER = '00000000-0000-0000-0000-000000000003'
const ROLE_ORG_ADMIN = '00000000-0000-0000-0000-000000000005'

test.describe('a new secret kept when the outcome is unknown', () => {
  test.describe.configure({ timeout: 180_000 })
  let sshd: Sshd
  let refusing: Sshd
  let priv: SshdUser
  let target: SshdUser
  const sudoers = `/etc/sudoers.d/e2e-${randomBytes(4).toString('hex')}`

  test.beforeAll(async () => {
    sshd = await startSshd()
    priv = await sshd.addUser()
    target = await sshd.addUser()
    await writeFile(sudoers, `${priv.username} ALL=(ALL) NOPASSWD: ALL\n`, { mode: 0o440 })
    refusing = await startSshd({ extraConfig: [`DenyUsers ${target.username}`] })
  })
  test.afterAll(async () => {
    await rm(sudoers, { force: true })
    await refusing?.stop()
    await sshd?.stop()
  })

  test('the Records tab offers the kept secret after the OTP, and it is the host\'s password', async ({ page, request }) => {
    const a = await api(request)
    const suffix = Date.now().toString(36)
    const keeper = { username: `kept-${suffix}`, password: `Kept-Passw0rd-${suffix}!`, email: `kept-${suffix}@example.com` }
    await a.post('/api/v1/users/users/', {
      name: `Kept${suffix}`, username: keeper.username, email: keeper.email, password_strategy: 'custom',
      password: keeper.password, need_update_password: false, system_roles: [ROLE_USER], org_roles: [ROLE_ORG_ADMIN],
    })
    const otp = await bindOtp(keeper)
    const host = await a.post('/api/v1/assets/hosts/', { name: `refusing-${suffix}`, address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: refusing.port }] })
    await a.post('/api/v1/accounts/accounts/', { username: priv.username, secret: priv.password, asset: host.id, privileged: true })
    await a.post('/api/v1/accounts/accounts/', { username: target.username, secret: target.password, asset: host.id })
    const change = await a.post('/api/v1/accounts/change-secret-automations/', {
      name: `rotate-${suffix}`, assets: [host.id], accounts: [target.username], secret_strategy: 'random', password_rules: { length: 20, symbol_set: '' },
    })
    const execution = await a.post('/api/v1/accounts/change-secret-executions/', { automation: change.id })
    await expect.poll(async () => (await a.get(`/api/v1/accounts/change-secret-executions/${execution.id}/`)).status.value, { timeout: 90_000 }).toBe('failed')

    await page.addInitScript(() => localStorage.setItem('viewSwitcherTip', '1'))
    const detail = `/ui/console/accounts/account-change-secret/executions/${execution.id}`
    await page.goto(`/core/auth/login/?next=${encodeURIComponent(detail)}`)
    await page.locator('input[name="username"]').fill(keeper.username)
    await page.locator('input[name="password"]').fill(keeper.password)
    await page.locator('input[name="password"]').press('Enter')
    const login = freshCode(otp.secret, otp.usedStep)
    await page.locator('input[name="code"]').fill(login.code)
    await page.locator('input[name="code"]').press('Enter')
    await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
    if (!page.url().includes(String(execution.id))) await page.goto(detail)

    await page.getByRole('tab', { name: 'Records' }).click()
    await expect(row(page, target.username)).toContainText('Unknown: kept in this record')
    await expectNoAxeViolations(page, 'execution records with a kept secret')
    await rowAction(page, target.username, 'View new secret')
    const verify = page.getByRole('dialog', { name: 'Multi-factor authentication' })
    const code = verify.getByRole('textbox', { name: /OTP/ })
    await code.fill(freshCode(otp.secret, login.step).code)
    await code.press('Enter')
    const shown = page.getByRole('dialog', { name: new RegExp(`Secret of ${target.username}`) })
    await expect(shown.getByRole('textbox', { name: 'Secret' })).toHaveValue(/^[A-Za-z0-9]{20}$/)
    const kept = await shown.getByRole('textbox', { name: 'Secret' }).inputValue()
    await expectNoAxeViolations(page, 'kept secret dialog')
    await shown.getByRole('button', { name: 'Close' }).click()
    expect(await passwordLogsIn(sshd, target.username, kept)).toBe(true)
    expect(await passwordLogsIn(sshd, target.username, target.password)).toBe(false)
  })
})
