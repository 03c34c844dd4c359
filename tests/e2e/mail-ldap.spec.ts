/**
 * Mail and LDAP in Chromium against real servers started by the test on loopback: an SMTP server (smtp-server)
 * and OpenLDAP (Debian's slapd). Settings → Email saved and "Test mail" received; the reset link of a received
 * mail followed in the browser to set a new password, then a login with it; Settings → Authentication → LDAP saved,
 * "Test connection", "Test login", a directory user imported, and a login through the login page with an LDAP
 * password. Axe on each page.
 */
import type { Page } from '@playwright/test'
import { startSlapd, type Slapd } from '../../server/testing/slapd.ts'
import { startSmtp, type TestSmtp } from '../../server/testing/smtp.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, unique, type Api } from './generic-support.ts'

const API = '/api/v1/settings/setting/?category='
// The last toast: an earlier save's toast may still be showing.
const saved = (page: Page) => expect(page.getByText('Settings saved').last()).toBeVisible()

test.describe('mail and LDAP against real servers', () => {
  let a: Api
  let smtp: TestSmtp
  let slapd: Slapd
  test.beforeAll(async () => {
    ;[smtp, slapd] = await Promise.all([
      startSmtp({ user: 'mailer', password: 'smtp-secret' }),
      startSlapd([
        { uid: 'lina', cn: 'Lina Directory', mail: 'lina@ldap.example.org', password: 'Lina-ldap-pw1' },
        { uid: 'omar', cn: 'Omar Directory', mail: 'omar@ldap.example.org', password: 'Omar-ldap-pw1' },
      ]),
    ])
  })
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })
  test.afterAll(async ({ request }) => {
    const back = await api(request)
    await back.patch(`${API}email`, { EMAIL_HOST: '', EMAIL_PORT: '25' })
    await back.patch(`${API}ldap`, { AUTH_LDAP: false })
    await Promise.all([smtp?.stop(), slapd?.stop()])
  })

  test('email: save the mail server, the password shown as set, and a test mail received', async ({ page }) => {
    await login(page, '/settings/email')
    await expect(page.getByRole('heading', { name: 'Email' })).toBeVisible()
    await page.getByRole('textbox', { name: 'SMTP host' }).fill(smtp.host)
    await page.getByRole('textbox', { name: 'SMTP port' }).fill(String(smtp.port))
    await page.getByRole('textbox', { name: 'SMTP account' }).fill('mailer')
    const password = page.getByLabel('SMTP password')
    await expect(password).toHaveAttribute('placeholder', 'Not set')
    await password.fill('smtp-secret')
    await page.getByRole('textbox', { name: 'Send user' }).fill('bastion@example.org')
    await page.getByRole('textbox', { name: 'Test recipient' }).fill('ops@example.org')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await saved(page)
    await expect(password).toHaveValue('')
    await expect(password).toHaveAttribute('placeholder', 'Set — leave empty to keep it')
    await expectNoAxeViolations(page, 'email settings')

    await page.getByRole('button', { name: 'Test mail' }).click()
    await expect(page.getByText('Test mail sent to ops@example.org, please check')).toBeVisible()
    const mail = await smtp.next('ops@example.org')
    expect(mail).toMatchObject({ from: 'bastion@example.org', user: 'mailer', subject: '[JMS] Test mail' })

    await page.getByRole('tab', { name: 'Email content' }).click()
    await page.getByRole('textbox', { name: 'Create user email subject' }).fill('Your bastion account')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await saved(page)
    await expectNoAxeViolations(page, 'email content settings')
    expect(await a.get(`${API}email_content`)).toMatchObject({ EMAIL_CUSTOM_USER_CREATED_SUBJECT: 'Your bastion account' })
  })

  test('the reset link of a received mail sets a new password in the browser', async ({ page, baseURL }) => {
    await a.patch(`${API}email`, { EMAIL_HOST: smtp.host, EMAIL_PORT: String(smtp.port), EMAIL_HOST_USER: 'mailer', EMAIL_HOST_PASSWORD: 'smtp-secret' })
    await a.patch(`${API}basic`, { SITE_URL: baseURL })
    const username = unique('mailed')
    await a.post('/api/v1/users/users/', { name: 'Mailed User', username, email: `${username}@example.org`, password_strategy: 'email' })
    const mail = await smtp.next(`${username}@example.org`)
    const link = /https?:\/\/\S+\/core\/auth\/password\/reset\/\?token=[\w-]+/.exec(mail.text)?.[0]
    expect(link, mail.text).toBeTruthy()

    await page.goto(link!)
    await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible()
    await expect(page.getByText(`Set a new password for Mailed User (${username})`)).toBeVisible()
    await page.locator('input[name="new_password"]').fill('abc')
    await page.locator('input[name="new_password_again"]').fill('abc')
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page.getByRole('alert').filter({ hasText: /at least 6/i })).toBeVisible() // the server's rule, on its field
    await expectNoAxeViolations(page, 'reset password page')
    await page.locator('input[name="new_password"]').fill('Mailed-Passw0rd!')
    await page.locator('input[name="new_password_again"]').fill('Mailed-Passw0rd!')
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page.getByText('Your password has been reset. You can log in with it now.')).toBeVisible()
    await page.getByRole('link', { name: 'Go to the login page' }).click()
    await page.locator('input[name="username"]').fill(username)
    await page.locator('input[name="password"]').fill('Mailed-Passw0rd!')
    await page.locator('input[name="password"]').press('Enter')
    await page.waitForURL((url) => url.pathname.startsWith('/ui/'))

    // the same link again is refused
    await page.goto(link!)
    await expect(page.getByRole('alert')).toContainText('invalid or has expired')
  })

  test('LDAP: save, test connection and login, import a user, then log in with the LDAP password', async ({ page, browser }) => {
    await login(page, '/settings/auth/ldap')
    await expect(page.getByRole('heading', { name: 'LDAP' })).toBeVisible()
    await page.getByRole('textbox', { name: 'LDAP server' }).fill(slapd.url)
    await page.getByRole('textbox', { name: 'Bind DN' }).fill(slapd.adminDn)
    await page.getByLabel('Password', { exact: true }).fill(slapd.adminPassword)
    await page.getByRole('textbox', { name: 'User OU' }).fill(slapd.usersOu)
    await page.getByRole('textbox', { name: 'User search filter' }).fill('(uid=%(user)s)')
    await page.getByRole('textbox', { name: 'User attr map' }).fill('{"username": "uid", "name": "cn", "email": "mail"}')
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(page.getByText('Succeed: Match 2 s user')).toBeVisible()
    await page.getByRole('switch', { name: 'Enable LDAP auth' }).check()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await saved(page)
    await expectNoAxeViolations(page, 'LDAP settings')

    await page.getByRole('button', { name: 'Test login' }).click()
    const dialog = page.getByRole('dialog', { name: 'Test LDAP login' })
    await dialog.getByRole('textbox', { name: 'Username' }).fill('lina')
    await dialog.getByLabel('Password').fill('wrong')
    await dialog.getByRole('button', { name: 'Test', exact: true }).click()
    await expect(dialog.getByText(/Authentication failed \(username or password incorrect\)/)).toBeVisible()
    await dialog.getByLabel('Password').fill('Lina-ldap-pw1')
    await dialog.getByRole('button', { name: 'Test', exact: true }).click()
    await expect(dialog.getByText('Authentication success: lina')).toBeVisible()
    await dialog.getByRole('button', { name: 'Close' }).click()

    await page.getByRole('button', { name: 'LDAP users' }).click()
    const users = page.getByRole('dialog', { name: 'LDAP users' })
    await expect(users.getByRole('cell', { name: 'omar@ldap.example.org' })).toBeVisible()
    await expectNoAxeViolations(page, 'LDAP users dialog')
    await users.getByRole('checkbox', { name: 'Select omar' }).check()
    await users.getByRole('button', { name: 'Import selected' }).click()
    await expect(page.getByText('Imported 1 users successfully (Organization: Default)')).toBeVisible()
    const omar = (await a.get('/api/v1/users/users/?username=omar')) as Array<{ source: { value: string } }>
    expect(omar[0]!.source.value).toBe('ldap')
    await users.getByRole('button', { name: 'Close' }).click()

    // a fresh browser logs in through the login page with the directory's password
    const context = await browser.newContext()
    const other = await context.newPage()
    await other.goto('/core/auth/login/')
    await other.locator('input[name="username"]').fill('lina')
    await other.locator('input[name="password"]').fill('Lina-ldap-pw1')
    await other.locator('input[name="password"]').press('Enter')
    await other.waitForURL((url) => url.pathname.startsWith('/ui/'))
    await context.close()
    const lina = (await a.get('/api/v1/users/users/?username=lina')) as Array<{ name: string; source: { value: string } }>
    expect(lina[0]).toMatchObject({ name: 'Lina Directory', source: { value: 'ldap' } })
  })
})
