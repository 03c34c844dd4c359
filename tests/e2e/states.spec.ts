/**
 * States and defaults a user sees (issue 35) in real Chromium against the real server: no 401 before the login
 * page, one product name on the login page and in the header, a host form that shows the node and protocols the
 * server fills, an account saved from an asset's Accounts tab going back to that tab, visited tabs per view without
 * the 404 page, an operate log showing what changed, and structured values instead of raw JSON. Axe on each page;
 * with E2E_SHOTS_DIR set, screenshots at 1440 and 360 px.
 */
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login, results, shots, unique, type Api } from './generic-support.ts'


test.describe('states and defaults (issue 35)', () => {
  let a: Api
  test.beforeEach(async ({ request }) => {
    a = await api(request)
  })

  test('a fresh visit asks nothing that answers 401; the login page and the header say the same product name', async ({ page }) => {
    const unauthorized: string[] = []
    const consoleErrors: string[] = []
    page.on('response', (r) => { if (r.status() === 401) unauthorized.push(r.url()) })
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()) })
    await page.goto('/ui/console/dashboard')
    await page.waitForURL(/\/core\/auth\/login\//)
    const open = await page.request.get('/api/v1/settings/public/open/', { headers: { 'accept-language': 'en' } })
    const title = String((await open.json()).INTERFACE.login_title)
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible()
    expect(unauthorized).toEqual([])
    expect(consoleErrors).toEqual([])
    await page.locator('input[name="username"]').fill('admin')
    await page.locator('input[name="password"]').fill(process.env.E2E_ADMIN_PASSWORD ?? 'Admin-Passw0rd!')
    await page.locator('input[name="password"]').press('Enter')
    await page.waitForURL(/\/ui\/console\/dashboard/)
    await expect(page.getByRole('banner').getByText(title, { exact: true })).toBeVisible()
    await expect(page.getByRole('banner').getByText('BASTION', { exact: true })).toHaveCount(0)
  })

  test('the host form shows the node and protocols the server fills', async ({ page }) => {
    await login(page, '/console/assets/hosts/create?platform=1', undefined, { reuse: true })
    const protocols = page.locator('[data-field="protocols"]')
    await expect(protocols.getByRole('textbox', { name: 'Name' })).toHaveValue('ssh')
    await expect(protocols.getByRole('spinbutton', { name: 'Port' })).toHaveValue('22')
    await expect(page.locator('[data-field="nodes"]')).toContainText('DEFAULT')
    await expectNoAxeViolations(page, 'host form with its defaults')
    await shots(page, 'host-form-defaults')
  })

  test('an account saved from an asset’s Accounts tab goes back to that tab, and the notice offers no list already shown', async ({ page }) => {
    const host = await a.post('/api/v1/assets/hosts/', { name: unique('origin-host'), address: '10.35.0.1', platform: 1 })
    await login(page, `/console/assets/assets/${host.id}?activeTab=Accounts`, undefined, { reuse: true })
    const panel = page.getByRole('tabpanel')
    await panel.getByRole('button', { name: 'Create', exact: true }).click()
    await expect(page).toHaveURL(/\/console\/accounts\/accounts\/create\?.*asset=/)
    const username = unique('web').slice(0, 30)
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(username)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/console/assets/assets/${host.id}`))
    await expect(page.getByRole('tab', { name: 'Accounts', selected: true })).toBeVisible()
    await expect(page.getByRole('tabpanel').getByText(username).first()).toBeVisible()
    const notice = page.getByText(`Created “${username}”`)
    await expect(notice).toBeVisible()
    // not on the accounts list: the notice may offer it; the object's details are offered
    await expect(page.getByRole('link', { name: 'View details' })).toBeVisible()
    // saved from the accounts list itself: back on that list, and no "Back to the list"
    await page.goto('/ui/console/accounts/accounts')
    await page.getByRole('button', { name: 'Create', exact: true }).first().click()
    const other = unique('db').slice(0, 30)
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(other)
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(other)
    const picker = page.locator('[data-field="asset"]').getByRole('combobox')
    await picker.fill(host.name)
    await page.getByRole('option', { name: new RegExp(host.name) }).click()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page).toHaveURL(/\/console\/accounts\/accounts(\?|$)/)
    await expect(page.getByText(`Created “${other}”`)).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to the list' })).toHaveCount(0)
  })

  test('visited tabs: one strip per view, no tab for the 404 page', async ({ page }) => {
    await login(page, '/console/users/users', undefined, { reuse: true })
    const tabs = page.getByRole('navigation', { name: 'Open pages' })
    await expect(tabs.getByRole('link', { name: 'User list' })).toBeVisible()
    await page.goto('/ui/console/no/such/page')
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
    await expect(tabs.getByRole('link', { name: 'Page not found' })).toHaveCount(0)
    await page.goto('/ui/audit/audits/operate-logs')
    await expect(tabs.getByRole('link', { name: 'Operate logs' })).toBeVisible()
    await expect(tabs.getByRole('link', { name: 'User list' })).toHaveCount(0)
    await page.goto('/ui/console/users/users')
    await expect(tabs.getByRole('link', { name: 'User list' })).toBeVisible()
    await expect(tabs.getByRole('link', { name: 'Operate logs' })).toHaveCount(0)
    await expectNoAxeViolations(page, 'users list with the console strip')
  })

  test('an operate log shows what changed, before and after', async ({ page }) => {
    const name = unique('diffed')
    const group = await a.post('/api/v1/users/groups/', { name })
    await a.patch(`/api/v1/users/groups/${group.id}/`, { name: `${name}-2`, comment: 'a note' })
    const logs = results(await a.get(`/api/v1/audits/operate-logs/?action=update&search=${name}&limit=5`))
    expect(logs.length).toBeGreaterThan(0)
    await login(page, `/audit/audits/operate-logs/${logs[0]!.id}`, undefined, { reuse: true })
    const changes = page.getByRole('table', { name: 'Changes' })
    await expect(changes.getByRole('row', { name: new RegExp(`Name ${name} ${name}-2`) })).toBeVisible()
    await expect(changes.getByRole('row', { name: /Comment .* a note/ })).toBeVisible()
    await expectNoAxeViolations(page, 'operate log detail')
    await shots(page, 'operate-log-diff')
  })

  test('structured values are shown as labelled entries, not JSON', async ({ page }) => {
    await login(page, '/console/assets/platforms/1', undefined, { reuse: true })
    const main = page.locator('#main')
    await expect(main.getByText('Ping enabled', { exact: true })).toBeVisible()
    await expect(main.getByText(/"ping_enabled"|\{"/)).toHaveCount(0)
    await expectNoAxeViolations(page, 'platform detail')
    await shots(page, 'platform-structured')
  })

  test('a storage’s meta is its type’s own typed fields, and a secret left empty keeps the stored one', async ({ page }) => {
    const name = unique('s3-typed')
    await login(page, '/settings/terminal/replay-storage/create?type=s3', undefined, { reuse: true })
    const meta = page.locator('[data-field="meta"]')
    await expect(meta.getByRole('textbox', { name: 'Bucket' })).toBeVisible()
    await page.locator('[data-field="name"]').getByRole('textbox').fill(name)
    await meta.getByRole('textbox', { name: 'Bucket' }).fill('replays')
    await meta.getByRole('textbox', { name: 'Endpoint' }).fill('http://127.0.0.1:9')
    await meta.getByLabel('Access key secret').fill('typed-secret')
    await expectNoAxeViolations(page, 'storage form with typed meta')
    await shots(page, 'storage-typed-meta')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(async () => results(await a.get(`/api/v1/terminal/replay-storages/?name=${name}`))[0]?.meta).toMatchObject({ BUCKET: 'replays', ENDPOINT: 'http://127.0.0.1:9', SECRET_KEY_SET: true })
    // edited again without the secret: the stored one stays
    const made = results(await a.get(`/api/v1/terminal/replay-storages/?name=${name}`))[0]!
    await page.goto(`/ui/settings/terminal/replay-storage/${made.id}/update`)
    await page.locator('[data-field="meta"]').getByRole('textbox', { name: 'Bucket' }).fill('replays-2')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(async () => results(await a.get(`/api/v1/terminal/replay-storages/?name=${name}`))[0]?.meta).toMatchObject({ BUCKET: 'replays-2', SECRET_KEY_SET: true })
  })

  test('the dashboard chart’s date axis speaks the console’s language', async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: 'django_language', value: 'zh-hans', url: baseURL! }])
    await login(page, '/audit/dashboard')
    const chart = page.locator('#main svg').filter({ hasText: /\d+月\d+日/ })
    await expect(chart.first()).toBeVisible({ timeout: 20_000 })
    await expect(page.locator('#main svg').filter({ hasText: /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/ })).toHaveCount(0)
    await shots(page, 'audit-dashboard-zh')
  })
})
