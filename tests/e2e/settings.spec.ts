/**
 * Settings → Basic, Security and Clean: each category rendered from OPTIONS, changed, saved (PATCH), reloaded;
 * out-of-range values refused on their field (by the form's rules from the metadata, and by the server for what
 * only it checks) without losing the other typed values; axe on each page. Values are put back afterwards.
 */
import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, permissionId, unique, type Api } from './generic-support.ts'

const API = '/api/v1/settings/setting/?category='
// The last toast: an earlier save's toast may still be showing.
const saved = (page: Page) => expect(page.getByText('Settings saved').last()).toBeVisible()
const field = (page: Page, name: string) => page.locator(`[data-field="${name}"]`)

test.describe('settings', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })
  test.afterAll(async ({ request }) => {
    const back = await api(request)
    await back.patch(`${API}basic`, { GLOBAL_ORG_DISPLAY_NAME: '', TICKETS_ENABLED: true, ANNOUNCEMENT_ENABLED: false })
    await back.patch(`${API}security`, { SECURITY_PASSWORD_MIN_LENGTH: 6, SECURITY_LOGIN_LIMIT_COUNT: 7, SECURITY_LOGIN_LIMIT_TIME: 30, SECURITY_LOGIN_IP_WHITE_LIST: [] })
    await back.patch(`${API}clean`, { LOGIN_LOG_KEEP_DAYS: 180, OPERATE_LOG_KEEP_DAYS: 180 })
  })

  test('basic: change, save, reload and see the values; the root organization takes the new name', async ({ page }) => {
    // other specs on this worker's server point SITE_URL at it (mail links): start from the default
    await a.patch(`${API}basic`, { SITE_URL: 'http://127.0.0.1:8080' })
    await login(page, '/settings/basic')
    await expect(page.getByRole('heading', { name: 'Basic settings' })).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Site url' })).toHaveValue('http://127.0.0.1:8080')
    await expect(page.getByText('The name of global organization to display')).toBeVisible()
    await expectNoAxeViolations(page, 'basic settings')

    await page.getByRole('textbox', { name: 'Global organization name' }).fill('Whole company')
    await page.getByRole('switch', { name: 'Enable tickets' }).uncheck()
    await page.getByRole('switch', { name: 'Enable announcement' }).check()
    await field(page, 'ANNOUNCEMENT').getByRole('textbox', { name: 'Subject' }).fill('Maintenance on Sunday')
    await field(page, 'ANNOUNCEMENT').getByRole('textbox', { name: 'Content' }).fill('The bastion is down from 02:00 to 03:00.')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await saved(page)

    await page.reload()
    await expect(page.getByRole('textbox', { name: 'Global organization name' })).toHaveValue('Whole company')
    await expect(page.getByRole('switch', { name: 'Enable tickets' })).not.toBeChecked()
    await expect(field(page, 'ANNOUNCEMENT').getByRole('textbox', { name: 'Subject' })).toHaveValue('Maintenance on Sunday')
    expect(await a.get(`${API}basic`)).toMatchObject({ GLOBAL_ORG_DISPLAY_NAME: 'Whole company', TICKETS_ENABLED: false, ANNOUNCEMENT_ENABLED: true })
    expect((await a.get('/api/v1/settings/public/')).TICKETS_ENABLED).toBe(false)
    expect((await a.get('/api/v1/orgs/orgs/current/?oid=root')).name).toBe('Whole company')
  })

  test('security: grouped rules; out-of-range values stay on their fields with the rest kept', async ({ page }) => {
    await login(page, '/settings/security')
    await expect(page.getByRole('heading', { name: 'Security' })).toBeVisible()
    for (const group of ['Password rules', 'Login limits', 'MFA and login', 'Sessions']) await expect(page.getByText(group, { exact: true })).toBeVisible()
    await expectNoAxeViolations(page, 'security settings')

    const minLength = page.getByRole('spinbutton', { name: 'Password minimum length', exact: true })
    const limitCount = page.getByRole('spinbutton', { name: 'Limit the number of user login failures', exact: true })
    const limitTime = page.getByRole('spinbutton', { name: 'Block user login interval', exact: true })
    await minLength.fill('31')
    await limitCount.fill('5')
    await limitTime.fill('20')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(field(page, 'SECURITY_PASSWORD_MIN_LENGTH')).toContainText('Ensure this value is less than or equal to 30')
    await expect(limitCount).toHaveValue('5')
    await expect(limitTime).toHaveValue('20')
    expect((await a.get(`${API}security`)).SECURITY_LOGIN_LIMIT_COUNT).toBe(7)

    // an IP rule only the server checks: its error lands on the field, the typed numbers stay
    await minLength.fill('10')
    const white = field(page, 'SECURITY_LOGIN_IP_WHITE_LIST').getByRole('textbox')
    await white.fill('not-an-ip')
    await white.press('Enter')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(field(page, 'SECURITY_LOGIN_IP_WHITE_LIST')).toContainText('IP address invalid')
    await expect(minLength).toHaveValue('10')
    await expect(limitCount).toHaveValue('5')
    expect((await a.get(`${API}security`)).SECURITY_PASSWORD_MIN_LENGTH).toBe(6)
    await expectNoAxeViolations(page, 'security settings with errors')

    await field(page, 'SECURITY_LOGIN_IP_WHITE_LIST').getByRole('button', { name: /Remove/ }).first().click()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await saved(page)
    await page.reload()
    await expect(minLength).toHaveValue('10')
    await expect(limitCount).toHaveValue('5')
    await expect(limitTime).toHaveValue('20')
    expect(await a.get(`${API}security`)).toMatchObject({ SECURITY_PASSWORD_MIN_LENGTH: 10, SECURITY_LOGIN_LIMIT_COUNT: 5, SECURITY_LOGIN_LIMIT_TIME: 20 })
    expect((await a.get('/api/v1/settings/public/')).PASSWORD_RULE.SECURITY_PASSWORD_MIN_LENGTH).toBe(10)
  })

  test('clean: retention days saved and reloaded', async ({ page }) => {
    await login(page, '/settings/clean')
    await expect(page.getByRole('heading', { name: 'Periodic clean-up' })).toBeVisible()
    await expect(page.getByText('Unit: day').first()).toBeVisible()
    await expectNoAxeViolations(page, 'clean settings')
    const login_ = page.getByRole('spinbutton', { name: 'Login log keep days' })
    const operate = page.getByRole('spinbutton', { name: 'Operate log keep days' })
    await expect(login_).toHaveValue('180')
    await login_.fill('0')
    await operate.fill('60')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(field(page, 'LOGIN_LOG_KEEP_DAYS')).toContainText('Ensure this value is greater than or equal to 1')
    await expect(operate).toHaveValue('60')
    await login_.fill('30')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await saved(page)
    await page.reload()
    await expect(login_).toHaveValue('30')
    await expect(operate).toHaveValue('60')
    expect(await a.get(`${API}clean`)).toMatchObject({ LOGIN_LOG_KEEP_DAYS: 30, OPERATE_LOG_KEEP_DAYS: 60, TASK_LOG_KEEP_DAYS: 90 })
  })

  test('basic with only settings.view_setting: read-only, no save', async ({ page, request }) => {
    const role = await a.post('/api/v1/rbac/system-roles/', { name: unique('settings-viewer'), permissions: [await permissionId(a, 'settings.view_setting')] })
    const username = unique('settingsviewer')
    const password = 'Viewer-Passw0rd!'
    await a.post('/api/v1/users/users/', {
      name: username, username, email: `${username}@example.com`, password_strategy: 'custom', password, need_update_password: false,
      system_roles: ['00000000-0000-0000-0000-000000000003', role.id], org_roles: ['00000000-0000-0000-0000-000000000007'],
    })
    const auth = await request.post('/api/v1/authentication/auth/', { data: { username, password } })
    const { token } = (await auth.json()) as { token: string }
    await request.patch('/api/v1/users/profile/', { headers: { Authorization: `Bearer ${token}` }, data: { is_first_login: false } })
    // the server refuses the write as well
    const refused = await request.patch(`${API}basic`, { headers: { Authorization: `Bearer ${token}` }, data: { TICKETS_ENABLED: false } })
    expect(refused.status()).toBe(403)

    await login(page, '/settings/basic', { username, password })
    await expect(page.getByText('You may view these settings but not change them.')).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Site url' })).toBeDisabled()
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0)
    await expectNoAxeViolations(page, 'read-only basic settings')
  })
})
