/**
 * The profile pages (issue 34) in real Chromium against the real server: an ordinary user's My profile (edit, a
 * password change that ends their other session, MFA bound and unbound with the improvement page's QR flow, an SSH
 * key set and removed), Preferences, Temporary password; the administrator's API keys — a key created on the page
 * and used from this test, as a script would, to list users. axe on every page; screenshots at 1440 and 360 px.
 */
import { mkdirSync } from 'node:fs'
import { generateKeyPairSync } from 'node:crypto'
import type { Page } from '@playwright/test'
import { signRequest } from '../../server/auth/signature.ts'
import { ADMIN, expect, expectNoAxeViolations, test } from './fixtures.ts'
import { createUser, finishFirstLogin, login, PASSWORD, readyAdmin, ROLES, totp } from './shell-helpers.ts'

const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/profile-shots'
mkdirSync(SHOTS, { recursive: true })

async function shots(page: Page, name: string) {
  for (const width of [1440, 360]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1440, height: 900 })
}

function sshKeyLine(comment: string): string {
  const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)
  const blob = Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 32]), raw])
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`
}

test.describe('profile pages', () => {
  test('an ordinary user edits their profile, binds and unbinds MFA, sets an SSH key and changes the password', async ({ page, browser, request }) => {
    const token = await readyAdmin(request)
    const username = `prof-${Date.now().toString(36)}`
    await createUser(request, token, username, [ROLES.OrgUser])
    await finishFirstLogin(request, username, PASSWORD)

    // a second session of the same user, in another browser context
    const other = await browser.newContext()
    const otherPage = await other.newPage()
    await login(otherPage, username, PASSWORD, '/ui/profile/info')

    await login(page, username, PASSWORD, '/ui/profile/info')
    await expect(page.getByRole('heading', { name: 'My profile' })).toBeVisible()
    await expect(page.getByText(`${username}@example.com`)).toBeVisible()
    await expectNoAxeViolations(page, 'My profile')
    await shots(page, 'profile-info')

    // edit the name
    await page.getByRole('button', { name: 'Edit' }).click()
    const edit = page.getByRole('dialog')
    await edit.getByLabel('Name').fill('Profile Person')
    await expectNoAxeViolations(page, 'edit dialog')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByText('Profile Person')).toBeVisible()

    // SSH key: a bad one is refused in the form, a good one is set, then removed
    await page.getByRole('button', { name: 'Set', exact: true }).click()
    const key = page.getByRole('dialog')
    await key.getByLabel('SSH public key').fill('ssh-ed25519 not-a-key')
    await key.getByRole('button', { name: 'Save' }).click()
    await expect(key.getByText(/SSH public key/).last()).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(1)
    await key.getByLabel('SSH public key').fill(sshKeyLine('me@laptop'))
    await key.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText(/me@laptop · MD5/)).toBeVisible()
    await page.getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByText('Not set')).toBeVisible()

    // MFA: bind with the QR flow's secret, then unbind with a later code
    await page.getByRole('button', { name: 'Bind', exact: true }).click()
    const bind = page.getByRole('dialog')
    const secret = (await bind.getByTestId('otp-secret').textContent())!.replace(/\s+/g, '')
    await expectNoAxeViolations(page, 'MFA bind dialog')
    await shots(page, 'profile-mfa-bind')
    const t0 = Date.now()
    await bind.getByLabel('Verification code').fill(totp(secret, t0))
    await bind.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByText('Bound', { exact: true })).toBeVisible()
    await page.getByRole('button', { name: 'Unbind' }).click()
    const unbind = page.getByRole('dialog')
    await unbind.getByLabel('Code from your authenticator app').fill(totp(secret, t0 + 30_000))
    await unbind.getByRole('button', { name: 'Unbind' }).click()
    await expect(page.getByText('Not bound')).toBeVisible()

    // the password: a wrong current one is refused on its field; the right one ends the other session only
    await page.getByRole('button', { name: 'Change password' }).click()
    const pw = page.getByRole('dialog')
    // password inputs have no role: by order (current, new, again)
    const secretInputs = pw.locator('input[type=password]')
    await secretInputs.nth(0).fill('Wrong-Passw0rd!')
    await secretInputs.nth(1).fill('Changed-Passw0rd-1!')
    await secretInputs.nth(2).fill('Changed-Passw0rd-1!')
    await expectNoAxeViolations(page, 'password dialog')
    await pw.getByRole('button', { name: 'Change password' }).click()
    await expect(pw.getByText('The old password is incorrect')).toBeVisible()
    await secretInputs.nth(0).fill(PASSWORD)
    await pw.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByText('Password changed: your other sessions have ended')).toBeVisible()
    // this session goes on
    await page.reload()
    await expect(page.getByRole('heading', { name: 'My profile' })).toBeVisible()
    // the other one is over
    await otherPage.goto('/ui/profile/setting')
    await otherPage.waitForURL(/\/core\/auth\/login\//)
    await other.close()

    // Preferences: a change is saved at once and kept
    await page.goto('/ui/profile/setting')
    await expect(page.getByRole('heading', { name: 'Preferences', exact: true })).toBeVisible()
    const size = page.getByLabel('Character terminal font size')
    await size.fill('18')
    await size.blur()
    await expect(page.getByText('Saved').first()).toBeVisible()
    await expectNoAxeViolations(page, 'Preferences')
    await shots(page, 'profile-setting')
    await page.reload()
    await expect(page.getByLabel('Character terminal font size')).toHaveValue('18')
  })

  test('the administrator creates an API key that a script then uses, and turns it off', async ({ page, request }) => {
    await readyAdmin(request)
    await login(page, ADMIN.username, ADMIN.password, '/ui/profile/key')
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible()
    await expectNoAxeViolations(page, 'API keys')
    await page.getByRole('button', { name: 'Create API key' }).click()
    const made = page.getByRole('dialog')
    const id = await made.getByRole('textbox', { name: 'Access key ID' }).inputValue()
    const secret = await made.getByRole('textbox', { name: 'Access key secret' }).inputValue()
    expect(secret.length).toBeGreaterThan(20)
    await expectNoAxeViolations(page, 'API key created')
    await shots(page, 'profile-key-created')
    await made.getByRole('button', { name: 'Close' }).click()

    // a script signs its request with the key
    const url = '/api/v1/users/users/?limit=10'
    const listed = await request.get(url, { headers: signRequest(id, secret, 'GET', url) })
    expect(listed.status(), await listed.text()).toBe(200)
    expect((await listed.json()).results.map((u: { username: string }) => u.username)).toContain('admin')

    // turned off on the page: refused at once
    const row = page.getByRole('row').filter({ hasText: id })
    await expect(row).toBeVisible()
    await shots(page, 'profile-key')
    await row.getByRole('button', { name: /Disable|More/ }).first().click()
    if (await page.getByRole('menuitem', { name: 'Disable' }).count()) await page.getByRole('menuitem', { name: 'Disable' }).click()
    await expect.poll(async () => (await request.get(url, { headers: signRequest(id, secret, 'GET', url) })).status()).toBe(401)
  })

  test('the temporary password page makes a one-time password when the setting is on', async ({ page, request }) => {
    const token = await readyAdmin(request)
    const on = await request.patch('/api/v1/settings/setting/?category=auth', { headers: { Authorization: `Bearer ${token}` }, data: { AUTH_TEMP_TOKEN: true } })
    expect(on.status(), await on.text()).toBe(200)
    await login(page, ADMIN.username, ADMIN.password, '/ui/profile/temp-password')
    await expect(page.getByRole('heading', { name: 'Temporary password' })).toBeVisible()
    await page.getByRole('button', { name: 'Generate' }).click()
    await expect(page.getByRole('textbox', { name: 'Temporary password' })).toHaveValue(/^[A-Za-z0-9]{36}$/)
    await expectNoAxeViolations(page, 'Temporary password')
    await shots(page, 'profile-temp-password')
  })
})

test.describe('preferences and more information', () => {
  test('language, theme, default view and time zone apply at once, and follow the user to a new login in another browser', async ({ page, browser, request, server }) => {
    const token = await readyAdmin(request)
    const username = `pref-${Date.now().toString(36)}`
    await createUser(request, token, username, [ROLES.OrgUser, ROLES.OrgAuditor])
    await finishFirstLogin(request, username, PASSWORD)
    await login(page, username, PASSWORD, '/ui/profile/setting')
    await expect(page.getByRole('heading', { name: 'Preferences', exact: true })).toBeVisible()
    const colorScheme = (p: Page) => p.evaluate(() => document.documentElement.style.colorScheme)
    const stored = (p: Page, key: string) => p.evaluate((k) => localStorage.getItem(k), key)

    // time zone: the next request of the console carries it (X-TZ), with no reload
    const zone = page.getByLabel('Time zone', { exact: true })
    await zone.fill('Asia/Tokyo')
    await zone.blur()
    await expect(page.getByText('Saved').first()).toBeVisible()
    // theme: the page turns dark at once
    const nextRequest = page.waitForRequest((r) => r.url().includes('/api/v1/users/preference/') && r.method() === 'PATCH')
    await page.getByLabel('Theme', { exact: true }).selectOption('dark')
    expect((await nextRequest).headers()['x-tz']).toBe('Asia/Tokyo')
    await expect.poll(() => colorScheme(page)).toBe('dark')
    // default view: the view the console opens first
    await page.getByLabel('Default view', { exact: true }).selectOption('audit')
    await expect.poll(() => stored(page, 'PreView')).toBe('audit')
    // language: the page speaks Japanese at once
    await page.getByLabel('Language', { exact: true }).selectOption('ja')
    await expect(page.getByRole('heading', { name: '環境設定', exact: true })).toBeVisible()
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja')
    await expectNoAxeViolations(page, 'Preferences in Japanese, dark')
    await shots(page, 'profile-setting-ja-dark')

    // log out; a new login in another browser (nothing of this one's storage) gets them all from the server
    await page.goto('/core/auth/logout/')
    await page.waitForURL(/\/core\/auth\/login\//)
    const other = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US' })
    const fresh = await other.newPage()
    await login(fresh, username, PASSWORD, '/ui/profile/setting')
    await expect.poll(() => fresh.evaluate(() => document.documentElement.lang)).toBe('ja')
    await expect(fresh.getByRole('heading', { name: '環境設定', exact: true })).toBeVisible()
    await expect.poll(() => colorScheme(fresh)).toBe('dark')
    await expect.poll(() => stored(fresh, 'PreView')).toBe('audit')
    const later = fresh.waitForRequest((r) => r.url().includes('/api/v1/') && r.headers()['x-tz'] !== undefined)
    await fresh.goto('/ui/')
    expect((await later).headers()['x-tz']).toBe('Asia/Tokyo')
    // the console opens the chosen view
    await expect(fresh).toHaveURL(/\/ui\/audit\//)
    await other.close()
  })

  test('a host\'s "more information" is edited, saved and shown on its detail page', async ({ page, request }) => {
    const token = await readyAdmin(request)
    const made = await request.post('/api/v1/assets/hosts/', { headers: { authorization: `Bearer ${token}` }, data: { name: `hw-${Date.now().toString(36)}`, address: '192.0.2.10', platform: 1 } })
    expect(made.status(), await made.text()).toBe(201)
    const id = (await made.json()).id as string
    await login(page, ADMIN.username, ADMIN.password, `/ui/console/assets/assets/${id}`)
    await expect(page.getByText('No hardware info yet')).toBeVisible()
    await page.getByRole('tabpanel').getByRole('button', { name: 'Edit', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/ui/console/assets/assets/detail/${id}/update$`))
    await expect(page.getByLabel('Vendor')).toBeVisible()
    await expectNoAxeViolations(page, 'more information form')
    await page.getByLabel('Vendor').fill('Acme Servers')
    await page.getByLabel('CPU model').fill('Xeon E-2388G')
    await page.getByLabel('Memory').fill('64G')
    await shots(page, 'asset-more-information')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/ui/console/assets/assets/${id}$`))
    for (const value of ['Acme Servers', 'Xeon E-2388G', '64G']) await expect(page.getByText(value, { exact: true })).toBeVisible()
    const saved = await request.get(`/api/v1/assets/hosts/${id}/`, { headers: { authorization: `Bearer ${token}` } })
    expect((await saved.json()).gathered_info).toMatchObject({ vendor: 'Acme Servers', cpu_model: 'Xeon E-2388G', memory: '64G' })
    // the form opens with the saved values
    await page.getByRole('tabpanel').getByRole('button', { name: 'Edit', exact: true }).click()
    await expect(page.getByLabel('Vendor')).toHaveValue('Acme Servers')
  })
})
