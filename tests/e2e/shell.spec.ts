/**
 * The console shell against the real server: start-up and login, views and organizations, guards (404/403),
 * languages, the responsive sidebar, and live site messages. axe runs on every console page visited.
 */
import { ADMIN, expect, test } from './fixtures.ts'
import {
  adminToken, createUser, expectAccessible, totp, finishFirstLogin, login, PASSWORD, profileId, readyAdmin, ROLES, sendSiteMessage,
} from './shell-helpers.ts'

test('a first-login user lands on /profile/improvement, and completing it continues', async ({ page, request }) => {
  const token = await adminToken(request)
  await createUser(request, token, 'first-timer', [ROLES.OrgAdmin])
  await login(page, 'first-timer', PASSWORD, '/ui/console/users/users')
  await expect(page).toHaveURL(/\/ui\/profile\/improvement$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Complete your profile' })).toBeVisible()
  await expectAccessible(page, 'profile improvement')
  // The server's field errors land on the fields.
  await page.getByLabel('Email').fill('not-an-email@')
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByText('Enter a valid email address.')).toBeVisible()
  await page.getByLabel('Email').fill('first-timer@example.org')
  await page.getByLabel('Phone').fill('+86 138 0000 0000')
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page).toHaveURL(/\/ui\/console\/dashboard$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  // The improvement page is not forced any more.
  await page.goto('/ui/console/users/users')
  await expect(page).toHaveURL(/\/ui\/console\/users\/users$/)
})

test('login through the login page lands in the default view', async ({ page, request }) => {
  await readyAdmin(request)
  await login(page, ADMIN.username, ADMIN.password, '/ui/', { keepTip: true })
  await expect(page).toHaveURL(/\/ui\/console\/dashboard$/)
  await expect(page.getByRole('button', { name: /Switch view, current: Console/ })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible()
  await expect(page).toHaveTitle(/^Dashboard - /)
  await expectAccessible(page, 'console dashboard with the view tip')
  await page.getByRole('button', { name: 'Got it' }).click()
  // Navigate through the menu: a group, then a page, and the visited tabs follow.
  await page.getByRole('navigation', { name: 'Main menu' }).getByText('Users', { exact: true }).click()
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'User list' }).click()
  await expect(page).toHaveURL(/\/ui\/console\/users\/users$/)
  const tabs = page.getByRole('navigation', { name: 'Open pages' })
  await expect(tabs.getByRole('link', { name: 'User list' })).toHaveAttribute('aria-current', 'page')
  await tabs.getByRole('button', { name: 'Close User list' }).click()
  await expect(page).toHaveURL(/\/ui\/console\/dashboard$/)
  await expectAccessible(page, 'console dashboard')
})

test('a user without console organizations lands in the workbench', async ({ page, request }) => {
  const token = await adminToken(request)
  await createUser(request, token, 'bench-user', [ROLES.OrgUser])
  await finishFirstLogin(request, 'bench-user', PASSWORD)
  await login(page, 'bench-user', PASSWORD, '/ui/console/dashboard')
  await expect(page).toHaveURL(/\/ui\/workbench\/home$/)
  await page.getByRole('button', { name: /Switch view, current: Workbench/ }).click()
  await expect(page.getByRole('menuitemradio', { name: 'Workbench' })).toBeVisible()
  await expect(page.getByRole('menuitemradio', { name: 'Console' })).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expectAccessible(page, 'workbench home')
})

test('an unknown path shows the 404 page', async ({ page, request }) => {
  await readyAdmin(request)
  await login(page, ADMIN.username, ADMIN.password, '/ui/console/no/such/page')
  await expect(page).toHaveURL(/\/ui\/404$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
  await expectAccessible(page, '404')
})

test('a route the user may not open shows the 403 page', async ({ page, request }) => {
  const token = await adminToken(request)
  await createUser(request, token, 'auditor', [ROLES.OrgAuditor])
  await finishFirstLogin(request, 'auditor', PASSWORD)
  // Ticket flows need tickets.view_ticketflow, which the built-in user roles do not have.
  await login(page, 'auditor', PASSWORD, '/ui/tickets/flow')
  await expect(page).toHaveURL(/\/ui\/tickets\/flow$/)
  await expect(page.getByRole('heading', { level: 1, name: 'You have no permission to view this page' })).toBeVisible()
  await expectAccessible(page, '403')
  // A permitted page of the same view opens.
  await page.goto('/ui/audit/sessions/sessions')
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible()
})

test('view and organization choices persist across reloads, per user', async ({ page, request }) => {
  const token = await readyAdmin(request)
  const org = await request.post('/api/v1/orgs/orgs/', { headers: { Authorization: `Bearer ${token}` }, data: { name: 'Second org' } })
  expect([201, 400]).toContain(org.status())
  await login(page, ADMIN.username, ADMIN.password)
  await page.getByRole('button', { name: /Switch organization, current: DEFAULT/ }).click()
  await page.getByRole('menuitemradio', { name: 'Second org' }).click()
  await expect(page.getByRole('button', { name: /Switch organization, current: Second org/ })).toBeVisible()
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('jms_current_org_admin') ?? '{}').name)).toBe('Second org')
  expect((await page.context().cookies()).find((c) => c.name === 'X-JMS-ORG')?.value).toMatch(/^[0-9a-f-]{36}$/)
  await page.reload()
  await expect(page.getByRole('button', { name: /Switch organization, current: Second org/ })).toBeVisible()

  await page.getByRole('button', { name: /Switch view, current: Console/ }).click()
  await page.getByRole('menuitemradio', { name: 'Audit' }).click()
  await expect(page).toHaveURL(/\/ui\/audit\/dashboard$/)
  await expectAccessible(page, 'audit dashboard')
  await page.goto('/ui/')
  await expect(page).toHaveURL(/\/ui\/audit\/dashboard$/)
  // Another user on the same browser keeps their own organization.
  expect(await page.evaluate(() => localStorage.getItem('jms_current_org_bench-user'))).toBeNull()
})

test('the language switch changes the interface and the language cookie', async ({ page, request }) => {
  await readyAdmin(request)
  await login(page, ADMIN.username, ADMIN.password)
  const menu = page.locator('#main-menu')
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible()
  await page.getByTestId('profile-menu').click()
  await page.getByRole('menuitemradio', { name: '中文' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
  // Menu entries, headings and the page title follow at once, without a reload.
  await expect(menu.getByRole('link', { name: '仪表盘' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: '仪表盘' })).toBeVisible()
  await expect(page).toHaveTitle(/^仪表盘/)
  expect((await page.context().cookies()).find((c) => c.name === 'django_language')?.value).toBe('zh-hans')
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: '仪表盘' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
  // A fresh load starts keyboard focus in the page content.
  await expect(page.locator('main#main')).toBeFocused()
  await expectAccessible(page, 'console in Chinese')
  // By keyboard (the menu's code loads on first use): Enter opens it with the focus inside, Escape gives the focus
  // back to its button, ArrowDown opens it again.
  await page.getByTestId('profile-menu').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('menu').locator(':focus')).toHaveCount(1)
  await page.keyboard.press('Escape')
  await expect(page.getByRole('menu')).toBeHidden()
  await expect(page.getByTestId('profile-menu')).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('menu').locator(':focus')).toHaveCount(1)
  await page.getByRole('menuitemradio', { name: '日本語' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
  await expect(page.getByRole('heading', { level: 1, name: 'ダッシュボード' })).toBeVisible()
  await page.getByTestId('profile-menu').click()
  await page.getByRole('menuitemradio', { name: 'English' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
})

test('the sidebar is collapsed below 992 px and opens over the page', async ({ page, request }) => {
  await readyAdmin(request)
  await page.setViewportSize({ width: 900, height: 800 })
  await login(page, ADMIN.username, ADMIN.password)
  const menu = page.getByRole('navigation', { name: 'Main menu' })
  await expect(menu).toBeHidden()
  // The landing page first: a navigation still under way would close the menu opened over it.
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Show the menu' }).click()
  await expect(menu).toBeVisible()
  await expectAccessible(page, 'sidebar open at 900 px')
  await menu.getByRole('link', { name: 'Dashboard' }).click()
  await expect(menu).toBeHidden()
  await page.setViewportSize({ width: 1280, height: 800 })
  await expect(menu).toBeVisible()
  // The wide-screen state is remembered in the sidebarStatus cookie.
  await page.getByRole('button', { name: 'Hide the menu' }).click()
  await expect(menu).toBeHidden()
  expect((await page.context().cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0')
  await page.reload()
  await expect(page.getByRole('button', { name: 'Show the menu' })).toBeVisible()
  await expect(menu).toBeHidden()
})

test('a site message raises the badge without reload, and the drawer marks it read', async ({ page, request }) => {
  const token = await readyAdmin(request)
  const adminId = await profileId(request, token)
  await request.patch('/api/v1/notifications/site-messages/mark-as-read-all/', { headers: { Authorization: `Bearer ${token}` } })
  await login(page, ADMIN.username, ADMIN.password)
  await expect(page.getByTestId('site-messages-button')).toHaveAccessibleName('Messages')
  await expect(page.getByTestId('site-messages-badge')).toHaveCount(0)
  await sendSiteMessage(request, token, [adminId], 'Maintenance tonight')
  await expect(page.getByTestId('site-messages-badge')).toHaveText('1')
  await sendSiteMessage(request, token, [adminId], 'Second notice')
  await expect(page.getByTestId('site-messages-badge')).toHaveText('2')
  await page.getByTestId('site-messages-button').click()
  const drawer = page.getByRole('dialog', { name: 'Messages' })
  await expect(drawer.getByRole('heading', { name: 'Maintenance tonight' })).toBeVisible()
  await expectAccessible(page, 'site message drawer')
  await drawer.getByRole('button', { name: 'Mark "Second notice" as read' }).click()
  await expect(drawer.getByRole('heading', { name: 'Second notice' })).toHaveCount(0)
  await expect(page.getByTestId('site-messages-badge')).toHaveText('1')
  await drawer.getByRole('button', { name: 'Mark all as read' }).click()
  await expect(drawer.getByText('No unread messages')).toBeVisible()
  await expect(page.getByTestId('site-messages-badge')).toHaveCount(0)
})

test('/ui, /ui/, deep links and old #/ links all reach the right page', async ({ page, request }) => {
  await readyAdmin(request)
  // A deep link before login comes back after it.
  await login(page, ADMIN.username, ADMIN.password, '/ui/audit/audits/login-logs')
  await expect(page).toHaveURL(/\/ui\/audit\/audits\/login-logs$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Login logs' })).toBeVisible()
  await page.goto('/ui')
  await expect(page).toHaveURL(/\/ui\/(console|audit)\/dashboard$/)
  await page.goto('/ui/#/console/users/groups')
  await expect(page).toHaveURL(/\/ui\/console\/users\/groups$/)
  await expect(page.getByRole('heading', { level: 1, name: 'User groups' })).toBeVisible()
  // The same inside the running console (a link written by a server page, followed without a reload).
  await page.evaluate(() => {
    history.pushState(null, '', '/ui/#/audit/audits/operate-logs?limit=15')
    dispatchEvent(new PopStateEvent('popstate'))
  })
  await expect(page).toHaveURL(/\/ui\/audit\/audits\/operate-logs\?limit=15$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Operate logs' })).toBeVisible()
  // View roots and menu groups redirect to their first page; the legacy session link keeps its id and query.
  await page.goto('/ui/settings')
  await expect(page).toHaveURL(/\/ui\/settings\/basic$/)
  await page.goto('/ui/terminal/sessions/abc?oid=00000000-0000-0000-0000-000000000002')
  await expect(page).toHaveURL(/\/ui\/audit\/sessions\/sessions\/abc\?oid=00000000-0000-0000-0000-000000000002$/)
  await expect(page).toHaveTitle(/^Session details - /)
})

test('licence holders are warned about a licence that expires within 7 days', async ({ page, request }) => {
  const token = await readyAdmin(request)
  const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
  const licence = { corporation: 'Shell Tests Ltd', date_expired: soon, asset_count: 1000, edition: 'Enterprise', serial_no: 'E2E-SHELL-1' }
  const res = await request.post('/api/v1/xpack/license/import', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { file: { name: 'license.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(licence)) } },
  })
  expect(res.status(), await res.text()).toBe(200)
  await login(page, ADMIN.username, ADMIN.password)
  const warnings = page.getByRole('region', { name: 'Warnings' })
  await expect(warnings).toContainText('Your license will expire on')
  await expectAccessible(page, 'licence warning')
  await warnings.getByRole('link', { name: 'View the license' }).click()
  await expect(page).toHaveURL(/\/ui\/settings\/license$/)
  await page.getByRole('region', { name: 'Warnings' }).getByRole('button', { name: 'Dismiss' }).click()
  await expect(page.getByRole('region', { name: 'Warnings' })).toHaveCount(0)
  // The About dialog names the licence holder and the version.
  await page.getByRole('button', { name: 'Help' }).click()
  await page.getByRole('menuitem', { name: 'About' }).click()
  await expect(page.getByTestId('about-version')).toHaveText('3.2.2')
  await expect(page.getByRole('dialog', { name: 'About' })).toContainText('Shell Tests Ltd')
  await expectAccessible(page, 'about dialog')
})

test('a first-login user with enforced MFA binds an authenticator on the improvement page', async ({ page, request }) => {
  const token = await adminToken(request)
  await createUser(request, token, 'mfa-first', [ROLES.OrgAdmin], { mfa_level: 2 })
  await login(page, 'mfa-first', PASSWORD)
  await expect(page).toHaveURL(/\/ui\/profile\/improvement$/)
  await expect(page.getByRole('heading', { level: 2, name: 'Multi-factor authentication' })).toBeVisible()
  await expect(page.getByRole('img', { name: 'QR code of the authenticator link' })).toBeVisible()
  await expect(page.getByTestId('otp-uri')).toContainText('otpauth://totp/')
  const secret = (await page.getByTestId('otp-secret').textContent())!.replace(/\s+/g, '')
  // Saving waits for the binding; a wrong code is refused with the reference's message.
  await expect(page.getByRole('button', { name: 'Save and continue' })).toBeDisabled()
  await expectAccessible(page, 'OTP binding')
  await page.getByLabel('Verification code').fill('12345')
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText('MFA error, please check')).toBeVisible()
  await page.getByLabel('Verification code').fill(totp(secret))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText('Your authenticator app is bound.')).toBeVisible()
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page).toHaveURL(/\/ui\/console\/dashboard$/)
})
