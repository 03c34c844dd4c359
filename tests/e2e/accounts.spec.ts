/**
 * The accounts journey of issue 15 in real Chromium against the real server, a real OpenSSH server on loopback
 * (server/testing/sshd.ts) and a real SMTP server (server/testing/smtp.ts): an administrator with OTP adds an
 * account to a host, pushes it to the host (an account push created in the console's form, executed, its live log
 * followed), views its secret after the OTP confirmation (shown once, with copy) and the test logs in over SSH with
 * it; a change secret executed from its list: the new secret logs in, the old one no longer does; a gathering
 * puts the host's OS accounts in the gathered list; a backup plan executed from its list mails the encrypted
 * archive to the recipient. What the test is not about (the host, its administrator account, the mail server, the
 * other automations' definitions) is set up through the API.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import type { Page } from '@playwright/test'
import ExcelJS from 'exceljs'
import { openZip } from '../../server/testing/zip.ts'
import { bindOtp, freshCode } from './support/otp.ts'
import { passwordLogsIn, startSshd, type Sshd, type SshdUser } from '../../server/testing/sshd.ts'
import { attachments, startSmtp, type TestSmtp } from '../../server/testing/smtp.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, row, rowAction, search, type Api } from './generic-support.ts'

const ROLE_USER = '00000000-0000-0000-0000-000000000003'
const ROLE_ORG_ADMIN = '00000000-0000-0000-0000-000000000005'
const SHOTS = process.env.E2E_SHOTS_DIR
const run = promisify(execFile)

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

/** An organization administrator with OTP bound through its own profile endpoints; answers the step used. */
async function otpAdmin(a: Api): Promise<{ id: string; username: string; email: string; password: string; secret: string; usedStep: number }> {
  const suffix = Date.now().toString(36)
  const user = { username: `keeper-${suffix}`, password: `Keeper-Passw0rd-${suffix}!`, email: `keeper-${suffix}@example.com` }
  const created = await a.post('/api/v1/users/users/', {
    name: `Keeper${suffix}`, username: user.username, email: user.email, password_strategy: 'custom',
    password: user.password, need_update_password: false, system_roles: [ROLE_USER], org_roles: [ROLE_ORG_ADMIN],
  })
  return { id: String(created.id), ...(await bindOtp(user)) }
}

/** "Execute" on the automation's row: the live task log opens in a new tab; answers it once the run has ended. */
async function execute(page: Page, name: string, expected: string): Promise<Page> {
  await expect(row(page, name)).toBeVisible()
  const [log] = await Promise.all([page.context().waitForEvent('page'), rowAction(page, name, 'Execute')])
  await expect(log.getByRole('log')).toContainText(expected, { timeout: 90_000 })
  return log
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

  let smtp: TestSmtp

  test.beforeAll(async () => {
    smtp = await startSmtp()
  })
  test.afterAll(async ({ request }) => {
    await (await api(request)).patch('/api/v1/settings/setting/?category=email', { EMAIL_HOST: '', EMAIL_PORT: '25' })
    await smtp?.stop()
  })

  test('add an account, push it, view its secret after the OTP, change it, gather the host, mail a backup', async ({ page, request }) => {
    const a = await api(request)
    const user = await otpAdmin(a)
    const host = await a.post('/api/v1/assets/hosts/', { name: `e2e-host-${Date.now().toString(36)}`, address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })
    // The host's administrator account (privileged): the automations log in with it.
    await a.post('/api/v1/accounts/accounts/', { username: priv.username, secret: priv.password, asset: host.id, privileged: true })
    const app = `app${randomBytes(3).toString('hex')}`
    pushed.push(app)

    // Log in with password and OTP.
    await page.addInitScript(() => localStorage.setItem('viewSwitcherTip', '1'))
    await page.goto(`/core/auth/login/?next=${encodeURIComponent('/ui/console/accounts/accounts/create')}`)
    await page.locator('input[name="username"]').fill(user.username)
    await page.locator('input[name="password"]').fill(user.password)
    await page.locator('input[name="password"]').press('Enter')
    const login = freshCode(user.secret, user.usedStep)
    await page.locator('input[name="code"]').fill(login.code)
    await page.locator('input[name="code"]').press('Enter')
    await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
    if (!page.url().includes('/accounts/accounts/create')) await page.goto('/ui/console/accounts/accounts/create')

    // Add an account to the host: the secret leaves the browser encrypted (contract §6).
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(priv.username)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(app)
    const picker = page.locator('[data-field="asset"]').getByRole('combobox')
    await picker.fill(host.name)
    await page.getByRole('option', { name: new RegExp(host.name) }).click()
    await page.locator('[data-field="secret"]').locator('input, textarea').first().fill('First-Secret-1')
    await expectNoAxeViolations(page, 'account form')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    // refused: the host already has this username (the administrator account above); nothing is lost
    await expect(page.locator('[data-field="username"]')).toContainText('An account with this username already exists on the asset.')
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(app)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.waitForURL((url) => /\/console\/accounts\/accounts(\?|$|\/[0-9a-f-]{36})/.test(url.pathname + url.search))

    // Push it to the host: an account push made in the form (random secret, the default), executed from its list.
    await page.goto('/ui/console/accounts/account-push/create')
    const pushName = `push-${app}`
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(pushName)
    const assets = page.locator('[data-field="assets"]').getByRole('combobox')
    await assets.fill(host.name)
    await page.getByRole('option', { name: new RegExp(host.name) }).click()
    await page.locator('[data-field="accounts"]').getByRole('textbox').fill(app)
    await page.locator('[data-field="accounts"]').getByRole('textbox').press('Enter')
    await expectNoAxeViolations(page, 'account push form')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.waitForURL((url) => !url.pathname.endsWith('/create'))
    await page.goto(`/ui/console/accounts/account-push?search=${pushName}`)
    const pushLog = await execute(page, pushName, 'success: 1 of 1 done, 0 failed')
    await expect(pushLog.getByRole('log')).toContainText(`${app}: pushed, the new secret logs in`)
    await shot(pushLog, 'accounts-push-log')
    await pushLog.close()

    // View its secret: the OTP first, then the secret once, with copy; it logs in over SSH, the first one does not.
    await page.goto(`/ui/console/accounts/accounts?search=${app}`)
    await expect(row(page, app)).toBeVisible()
    await expect(page.getByText('First-Secret-1')).toHaveCount(0)
    await expectNoAxeViolations(page, 'account list')
    await rowAction(page, app, 'View secret')
    const verify = page.getByRole('dialog', { name: 'Multi-factor authentication' })
    await expect(verify).toBeVisible()
    await shot(page, 'accounts-confirm')
    const code = verify.getByRole('textbox', { name: /OTP/ })
    const confirmCode = freshCode(user.secret, login.step)
    await code.fill(confirmCode.code)
    await code.press('Enter')
    const shown = page.getByRole('dialog', { name: new RegExp(`Secret of ${app}`) })
    await expect(shown.getByRole('textbox', { name: 'Secret' })).toHaveValue(/^.{30}$/)
    await expect(shown.getByRole('button', { name: 'Copy the secret' })).toBeVisible()
    const pushedSecret = await shown.getByRole('textbox', { name: 'Secret' }).inputValue()
    await shot(page, 'accounts-secret')
    await expectNoAxeViolations(page, 'secret dialog')
    await shown.getByRole('button', { name: 'Close' }).click()
    await expect(shown).toBeHidden()
    expect(await passwordLogsIn(sshd, app, pushedSecret)).toBe(true)

    // Change its secret (random, 20 characters), executed from the list: the new secret logs in, the old one not.
    const change = await a.post('/api/v1/accounts/change-secret-automations/', {
      name: `rotate-${app}`, assets: [host.id], accounts: [app], secret_strategy: 'random', password_rules: { length: 20, symbol_set: '' },
    })
    await page.goto(`/ui/console/accounts/account-change-secret?search=${change.name}`)
    await expectNoAxeViolations(page, 'change secret list')
    const changeLog = await execute(page, change.name, 'success: 1 of 1 done, 0 failed')
    await expect(changeLog.getByRole('log')).toContainText(`${app}: secret changed, the new secret logs in`)
    await changeLog.close()
    await page.goto('/ui/console/accounts/account-change-secret/executions')
    await expect(page.getByRole('grid').first()).toContainText(change.name)
    // the secret shown now (the confirmation still holds) is the new one
    await page.goto(`/ui/console/accounts/accounts?search=${app}`)
    await rowAction(page, app, 'View secret')
    const again = page.getByRole('dialog', { name: new RegExp(`Secret of ${app}`) })
    await expect(again.getByRole('textbox', { name: 'Secret' })).toHaveValue(/^[A-Za-z0-9]{20}$/)
    const rotated = await again.getByRole('textbox', { name: 'Secret' }).inputValue()
    await again.getByRole('button', { name: 'Close' }).click()
    expect(await passwordLogsIn(sshd, app, rotated)).toBe(true)
    expect(await passwordLogsIn(sshd, app, pushedSecret)).toBe(false)

    // Gather the host's accounts: they appear in the gathered list.
    const gather = await a.post('/api/v1/accounts/gather-account-automations/', { name: `gather-${app}`, assets: [host.id] })
    await page.goto(`/ui/console/accounts/account-gather?search=${gather.name}`)
    const gatherLog = await execute(page, gather.name, 'success: 1 of 1 done, 0 failed')
    await expect(gatherLog.getByRole('log')).toContainText(app)
    await gatherLog.close()
    await page.getByRole('tab', { name: 'Gathered accounts' }).click()
    // (searched: a machine's own OS users can push these past the first page)
    for (const name of [app, priv.username]) {
      await search(page, name)
      await expect(row(page, name)).toBeVisible()
      // (search terms add up: the next name is searched alone)
      await page.getByRole('search').getByRole('button', { name: 'Clear search' }).click()
    }
    await expectNoAxeViolations(page, 'gathered accounts')
    await shot(page, 'accounts-gathered')

    // A backup plan mailed to the administrator: the encrypted archive arrives, and only its password opens it.
    await a.patch('/api/v1/settings/setting/?category=email', { EMAIL_HOST: smtp.host, EMAIL_PORT: String(smtp.port), EMAIL_USE_SSL: false, EMAIL_USE_TLS: false, EMAIL_FROM: 'bastion@example.org' })
    // Created in the browser's session, which confirmed with the OTP above: a plan decides where secrets go, so it
    // needs what viewing a secret needs (a bearer token is refused, issue 36).
    const csrf = (await page.context().cookies()).find((c) => c.name === 'jms_csrftoken')?.value ?? ''
    const created = await page.request.post('/api/v1/accounts/account-backup-plans/', {
      data: { name: `backup-${app}`, recipients: [user.id], zip_encrypt_password: 'Zip-Password-9' }, headers: { 'X-CSRFToken': csrf },
    })
    expect(created.status(), await created.text()).toBe(201)
    const plan = await created.json() as { id: string; name: string }
    const mailed = smtp.next(user.email, 90_000)
    await page.goto(`/ui/console/accounts/account-backup?search=${plan.name}`)
    const backupLog = await execute(page, plan.name, `Mail to ${user.username}: sent`)
    await backupLog.close()
    const mail = await mailed
    expect(mail.raw).not.toContain(rotated)
    const [zip] = attachments(mail)
    expect(zip?.filename).toMatch(new RegExp(`^backup-${app}-.*\\.zip$`))
    await expect(openZip(zip!.content)).rejects.toThrow()
    const [sheet] = await openZip(zip!.content, 'Zip-Password-9')
    expect(sheet!.name).toMatch(/\.xlsx$/)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(Buffer.from(sheet!.data) as unknown as ArrayBuffer)
    const cells: string[][] = []
    book.eachSheet((ws) => ws.eachRow((r) => cells.push((r.values as unknown[]).map((v) => String(v ?? '')))))
    expect(cells.find((r) => r.includes(app))).toContain(rotated)
  })
})
