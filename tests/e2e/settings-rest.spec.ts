/**
 * Settings → Authentication, SMS, Interface, Terminal and Other in Chromium: every page and tab renders its
 * category with axe passing; a logo uploaded on Interface is what the login page shows (a file that is not an
 * image is refused on its field); and OpenID Connect end to end against a real provider (`oidc-provider` on a
 * loopback port): configured on the OIDC tab, offered by the login page, signed in at the provider, landed in the
 * console as the user created from the provider's claims.
 */
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { startOidcProvider } from '../support/oidc-provider.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'
import { api, login } from './generic-support.ts'

const API = '/api/v1/settings/setting/?category='
const field = (page: Page, name: string) => page.locator(`[data-field="${name}"]`)
// The last toast: an earlier save's toast may still be showing.
const saved = (page: Page) => expect(page.getByText('Settings saved').last()).toBeVisible()

test.describe('settings pages (authentication, SMS, interface, terminal, other)', () => {
  test('every page and tab shows its category, passes axe', async ({ page, request }) => {
    test.setTimeout(180_000)
    await api(request) // past the administrator's first-login page
    await login(page, '/settings/auth')
    const tabs: Record<string, [string, string][]> = {
      '/settings/auth': [['Authentication', 'OPENID Auth'], ['CAS', 'Enable CAS Auth'], ['OIDC', 'Enable OPENID Auth'], ['OAuth2', 'Enable OAuth2 Auth'],
        ['SAML2', 'Enable SAML2 Auth'], ['RADIUS', 'Enable Radius Auth'], ['SSO token', 'Enable SSO auth']],
      '/settings/sms': [['SMS', 'Enable SMS'], ['Alibaba cloud', 'AccessKeyId'], ['Tencent cloud', 'SDK app id'], ['Huawei Cloud', 'App Access Address'],
        ['CMPP v2.0', 'Enterprise code(SP id)']],
    }
    for (const [path, list] of Object.entries(tabs)) {
      await page.goto(`/ui${path}`)
      for (const [tab, label] of list) {
        await page.getByRole('tab', { name: tab, exact: true }).click()
        await expect(page.getByText(label, { exact: true }).first()).toBeVisible()
        await expectNoAxeViolations(page, `${path} ${tab}`)
      }
    }
    const pages: [string, string, string][] = [
      ['/settings/interface', 'Interface', 'Login page logo'],
      ['/settings/terminal', 'Terminal settings', 'Password auth'],
      ['/settings/other', 'Other settings', 'OTP issuer name'],
    ]
    for (const [path, heading, label] of pages) {
      await page.goto(`/ui${path}`)
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
      await expect(page.getByText(label, { exact: true }).first()).toBeVisible()
      await expectNoAxeViolations(page, path)
    }
  })

  test('interface: an uploaded logo and title are what the login page shows; a non-image is refused', async ({ page, browser, request, baseURL }) => {
    const a = await api(request)
    try {
      await login(page, '/settings/interface')
      await page.getByRole('textbox', { name: 'Login title' }).fill('Acme Bastion')
      // a text file named .png: the browser calls it an image, the server reads the bytes and refuses it
      await field(page, 'INTERFACE_LOGO_LOGOUT').locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') })
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await expect(field(page, 'INTERFACE_LOGO_LOGOUT').getByText(/Upload a valid image/)).toBeVisible()
      await expect(page.getByRole('textbox', { name: 'Login title' })).toHaveValue('Acme Bastion')
      expect((await a.get(`${API}interface`)).INTERFACE_LOGIN_TITLE).not.toBe('Acme Bastion')

      const png = readFileSync('server/static/img/login_image.png')
      await field(page, 'INTERFACE_LOGO_LOGOUT').locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png })
      await expect(field(page, 'INTERFACE_LOGO_LOGOUT').getByRole('img', { name: 'Current image' })).toHaveAttribute('src', /^data:image\/png;base64,/)
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await saved(page)
      const stored = await a.get(`${API}interface`)
      expect(stored.INTERFACE_LOGO_LOGOUT).toMatch(/^\/media\/settings\/INTERFACE_LOGO_LOGOUT\/[0-9a-f]{16}\.png$/)

      const anonymous = await browser.newContext({ baseURL })
      const lp = await anonymous.newPage()
      await lp.goto('/core/auth/login/')
      await expect(lp.getByRole('heading', { level: 1, name: 'Acme Bastion' })).toBeVisible()
      const logo = lp.getByRole('img', { name: 'Acme Bastion' })
      await expect(logo).toHaveAttribute('src', stored.INTERFACE_LOGO_LOGOUT)
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
      const served = await lp.request.get(stored.INTERFACE_LOGO_LOGOUT)
      expect(served.headers()['content-type']).toBe('image/png')
      expect(Buffer.compare(await served.body(), png)).toBe(0)
      await anonymous.close()
    } finally {
      await a.patch(`${API}interface`, { INTERFACE_LOGIN_TITLE: 'JumpServer Open Source Bastion Host', INTERFACE_LOGO_LOGOUT: null })
    }
  })

  test('OIDC: set up on its tab, offered on the login page, signed in at the provider, in the console as the mapped user', async ({ page, browser, request, baseURL }) => {
    test.setTimeout(120_000)
    const idp = await startOidcProvider({ redirectUris: [`${baseURL}/core/auth/openid/callback/`] })
    const a = await api(request)
    try {
      await login(page, '/settings/auth')
      await page.getByRole('tab', { name: 'OIDC', exact: true }).click()
      await page.getByRole('switch', { name: 'Enable OPENID Auth' }).check()
      await page.getByRole('textbox', { name: 'Client Id' }).fill(idp.clientId)
      const secret = page.getByLabel('Client Secret', { exact: true })
      await expect(secret).toHaveAttribute('placeholder', 'Not set')
      await secret.fill(idp.clientSecret)
      const endpoints: [string, string][] = [
        ['Provider endpoint', ''], ['Provider auth endpoint', '/auth'], ['Provider token endpoint', '/token'], ['Provider jwks endpoint', '/jwks'],
        ['Provider userinfo endpoint', '/me'], ['Provider end session endpoint', '/session/end'],
      ]
      for (const [label, path] of endpoints) await page.getByRole('textbox', { name: label, exact: true }).fill(`${idp.issuer}${path}`)
      await page.getByRole('switch', { name: 'Enable PKCE' }).check()
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await saved(page)
      // the secret is never shown again: the field says it is set
      await expect(page.getByLabel('Client Secret', { exact: true })).toHaveValue('')
      await expect(page.getByLabel('Client Secret', { exact: true })).toHaveAttribute('placeholder', 'Set — leave empty to keep it')
      expect(JSON.stringify(await a.get(`${API}oidc`))).not.toContain(idp.clientSecret)

      const visitor = await browser.newContext({ baseURL })
      const vp = await visitor.newPage()
      await vp.goto(`/core/auth/login/?next=${encodeURIComponent('/ui/profile/info')}`)
      await vp.getByRole('link', { name: 'Log in with OpenID' }).click()
      await vp.waitForURL((u) => u.origin === idp.issuer)
      await vp.locator('input[name="login"]').fill('oscar')
      await vp.locator('input[name="password"]').fill('anything')
      await vp.getByRole('button', { name: 'Sign-in' }).click()
      await vp.waitForURL((u) => u.origin === baseURL && u.pathname.startsWith('/ui/'))
      const me = await vp.request.get('/api/v1/users/profile/')
      expect(me.status()).toBe(200)
      expect(await me.json()).toMatchObject({ username: 'oscar', name: 'Oscar Example', email: 'oscar@idp.test' })
      await expect(vp).toHaveURL(/\/ui\/profile\/info$/)
      await expect(vp.getByRole('heading', { level: 1, name: 'My profile' })).toBeVisible()
      await visitor.close()
    } finally {
      await a.patch(`${API}oidc`, { AUTH_OPENID: false })
      await idp.close()
    }
  })

  test('license: shows the licence, refuses a file that is not one, imports a new one', async ({ page, request }) => {
    await api(request)
    await login(page, '/settings/license')
    await expect(page.getByRole('heading', { name: 'License', level: 1 })).toBeVisible()
    await expect(page.getByText('Corporation', { exact: true })).toBeVisible()
    await expectNoAxeViolations(page, 'license')
    const file = page.getByTestId('license-file')
    await file.setInputFiles({ name: 'license.json', mimeType: 'application/json', buffer: Buffer.from('{"corporation": "nope"}') })
    await expect(page.getByRole('alert').filter({ hasText: /licen/i })).toBeVisible()
    const next = { corporation: 'Acme Licensing Ltd', date_expired: '2099-12-31', asset_count: 500, edition: 'Enterprise', serial_no: 'E2E-0001' }
    await file.setInputFiles({ name: 'license.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(next)) })
    await expect(page.getByText('Acme Licensing Ltd')).toBeVisible()
    await expect(page.getByText('2099-12-31')).toBeVisible()
  })
})
