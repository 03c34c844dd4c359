/**
 * The login page (/core/auth/login/) in real Chromium against the real server: encrypted wire format,
 * wrong password, next handling, the OTP step, language switch, accessibility, and the JS budget.
 */
import { createHmac } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, expect, expectNoAxeViolations, test, workerBaseURL } from './fixtures.ts'

const LOGIN = '/core/auth/login/'
const LOGIN_API = '/api/v1/authentication/login/'
/** 150 kB of gzip (decimal, the stricter reading): every script the page loads, its catalogue included. */
const BUDGET_GZIP_BYTES = 150_000
const ROLE_USER = '00000000-0000-0000-0000-000000000003'
const ROLE_ORG_USER = '00000000-0000-0000-0000-000000000007'

// ------------------------------------------------------------------------------------------------ helpers

const username = (page: Page) => page.locator('input[name="username"]')
const password = (page: Page) => page.locator('input[name="password"]')
const codeInput = (page: Page) => page.locator('input[name="code"]')

async function openLogin(page: Page, query = ''): Promise<void> {
  await page.goto(LOGIN + query)
  await expect(username(page)).toBeFocused()
}

async function fillAndSubmit(page: Page, user: string, pass: string): Promise<void> {
  await username(page).fill(user)
  await password(page).fill(pass)
  await password(page).press('Enter')
}

interface LoginExchange {
  sent: Record<string, unknown>
  answer: Record<string, unknown>
}

/**
 * Records every login POST the page sends and the server's answer. Routed rather than observed: ky sends the
 * body as a stream (duplex: 'half'), which `page.on('request')` cannot read, and the answer's body is gone
 * once the page navigates away.
 */
async function recordLoginPosts(page: Page): Promise<LoginExchange[]> {
  const exchanges: LoginExchange[] = []
  await page.route(`**${LOGIN_API}`, async (route) => {
    const sent = route.request().postDataJSON() as Record<string, unknown>
    const response = await route.fetch()
    exchanges.push({ sent, answer: (await response.json()) as Record<string, unknown> })
    await route.fulfill({ response })
  })
  return exchanges
}

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const ch of text.replace(/=+$/, '').toUpperCase()) {
    const v = alphabet.indexOf(ch)
    if (v < 0) throw new Error(`not base32: ${ch}`)
    bits += v.toString(2).padStart(5, '0')
  }
  const bytes: number[] = []
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2))
  return Buffer.from(bytes)
}

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) for a given time step. */
function totpAt(secret: string, counter: number): string {
  const msg = Buffer.alloc(8)
  msg.writeBigUInt64BE(BigInt(counter))
  const h = createHmac('sha1', base32Decode(secret)).update(msg).digest()
  const o = h[h.length - 1]! & 0x0f
  const n = ((h[o]! & 0x7f) << 24) | (h[o + 1]! << 16) | (h[o + 2]! << 8) | h[o + 3]!
  return String(n % 1_000_000).padStart(6, '0')
}
const stepNow = () => Math.floor(Date.now() / 30_000)

/** A code valid at no step near now. */
function wrongCode(secret: string): string {
  const near = new Set(Array.from({ length: 11 }, (_, i) => totpAt(secret, stepNow() - 5 + i)))
  for (let d = 0; d < 10; d++) {
    const c = String(d).repeat(6)
    if (!near.has(c)) return c
  }
  throw new Error('unreachable')
}

/**
 * Lingui .po translation of one message, or the English source while the catalogue lacks it: the page must
 * show what the catalogue the build was compiled from says (E2E_LOCALES_DIR points at another catalogue folder).
 */
function catalogText(locale: 'zh' | 'ja', source: string): string {
  const dir = process.env.E2E_LOCALES_DIR ?? new URL('../../locales/login/', import.meta.url).pathname
  const file = `${dir.replace(/\/$/, '')}/${locale}.po`
  if (!existsSync(file)) return source
  const po = readFileSync(file, 'utf8')
  const quoted = JSON.stringify(source)
  const m = new RegExp(`msgid ${quoted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\nmsgstr (".*")`).exec(po)
  const text = m ? (JSON.parse(m[1]!) as string) : ''
  return text || source
}

interface OtpUser {
  username: string
  password: string
  secret: string
  /** the time step of the code used to bind; login must use a later one (replay protection) */
  boundAt: number
}

/** A bearer token for `creds` (the token endpoint answers 201, like DRF's create views). */
async function tokenFor(api: APIRequestContext, creds: { username: string; password: string }): Promise<string> {
  const res = await api.post('/api/v1/authentication/auth/', { data: creds })
  expect([200, 201], await res.text()).toContain(res.status())
  return (await res.json()).token as string
}

/**
 * A fresh user with OTP bound: created by the admin (bearer token), then the user binds OTP through the
 * profile endpoints (`GET …/profile/otp/setup/`, `POST …/profile/otp/enable/`) in its own API context,
 * whose cookie jar keeps the session that holds the pending seed.
 */
async function createOtpUser(request: APIRequestContext): Promise<OtpUser> {
  // fixtures.adminToken expects 200, but the token endpoint answers 201 (see the report to the lead).
  const admin = { Authorization: `Bearer ${await tokenFor(request, ADMIN)}` }
  const suffix = Date.now().toString(36)
  const user = { username: `otp-${suffix}`, password: `Otp-Passw0rd-${suffix}!` }
  const created = await request.post('/api/v1/users/users/', {
    headers: admin,
    data: {
      name: `OTP ${suffix}`, username: user.username, email: `${user.username}@example.com`,
      password_strategy: 'custom', password: user.password, need_update_password: false,
      system_roles: [ROLE_USER], org_roles: [ROLE_ORG_USER],
    },
  })
  expect(created.status(), await created.text()).toBe(201)

  const own = await playwrightRequest.newContext({ baseURL: workerBaseURL() })
  try {
    const self = { Authorization: `Bearer ${await tokenFor(own, user)}` }
    const setup = await own.get('/api/v1/users/profile/otp/setup/', { headers: self })
    expect(setup.status(), await setup.text()).toBe(200)
    const secret = (await setup.json()).secret as string
    const boundAt = stepNow()
    const enable = await own.post('/api/v1/users/profile/otp/enable/', { headers: self, data: { code: totpAt(secret, boundAt) } })
    expect(enable.status(), await enable.text()).toBe(200)
    expect((await enable.json()).is_otp_secret_key_bound).toBe(true)
    return { ...user, secret, boundAt }
  } finally {
    await own.dispose()
  }
}

async function reachMfaStep(page: Page, user: OtpUser): Promise<void> {
  await openLogin(page)
  await fillAndSubmit(page, user.username, user.password)
  await expect(codeInput(page)).toBeFocused()
}

// ------------------------------------------------------------------------------------------------ tests

test.describe('login page', () => {
  test('admin logs in with an encrypted password and lands in the console', async ({ page }) => {
    const posts = await recordLoginPosts(page)
    await openLogin(page)
    await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty()
    // Labels are tied to their inputs.
    await expect(page.getByRole('textbox', { name: 'Username' })).toBeFocused()
    await expect(page.getByLabel(/^Password/)).toHaveAttribute('type', 'password')
    await expect(page).toHaveTitle(/.+/)
    await fillAndSubmit(page, ADMIN.username, ADMIN.password)
    await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
    expect(posts).toHaveLength(1)
    const { sent } = posts[0]!
    expect(sent.username).toBe(ADMIN.username)
    expect(sent.password).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/)
    expect(sent.password).not.toContain(ADMIN.password)
  })

  test('a wrong password shows the server message, keeps the username, clears the password', async ({ page }) => {
    await openLogin(page)
    await fillAndSubmit(page, ADMIN.username, 'not-the-password')
    const alert = page.getByRole('alert')
    await expect(alert).toBeVisible()
    await expect(alert).toHaveText(/password/i)
    await expect(username(page)).toHaveValue(ADMIN.username)
    await expect(password(page)).toHaveValue('')
    await expect(password(page)).toBeFocused()
    await expect(page).toHaveURL(new RegExp(`${LOGIN}$`))
  })

  test('empty fields are named and nothing is sent', async ({ page }) => {
    const posts = await recordLoginPosts(page)
    await openLogin(page)
    await username(page).press('Enter')
    await expect(page.getByText('Please enter your username')).toBeVisible()
    await expect(page.getByText('Please enter your password')).toBeVisible()
    expect(posts).toHaveLength(0)
  })

  test('without the public-key cookie nothing is sent and the page asks for a reload', async ({ page, context }) => {
    const posts = await recordLoginPosts(page)
    await openLogin(page)
    await context.clearCookies({ name: 'jms_public_key' })
    await fillAndSubmit(page, ADMIN.username, ADMIN.password)
    await expect(page.getByRole('alert')).toContainText(/reload/i)
    expect(posts).toHaveLength(0)
    await page.getByRole('button', { name: 'Reload' }).click()
    await expect(username(page)).toBeFocused()
    expect((await context.cookies()).some((c) => c.name === 'jms_public_key')).toBe(true)
  })

  test('next pointing into the console is honoured', async ({ page }) => {
    // The console before login leaves for this page with `next`, and logs no start-up failure on the way
    // (issue 17, defect 10: every visit to /ui/ before login logged StartupFailedError).
    const errors: string[] = []
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()) })
    page.on('pageerror', (e) => errors.push(String(e)))
    await page.goto('/ui/console/users/users')
    await page.waitForURL((url) => url.pathname === LOGIN && (url.searchParams.get('next') ?? '').startsWith('/ui/console/users/users'))
    await expect(username(page)).toBeFocused()
    expect(errors.filter((e) => /StartupFailed/i.test(e))).toEqual([])
    const posts = await recordLoginPosts(page)
    await openLogin(page, '?next=/ui/console/users/users')
    const landing = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/ui/console/users/users')
    await fillAndSubmit(page, ADMIN.username, ADMIN.password)
    await landing
    expect(posts[0]!.sent.next).toBe('/ui/console/users/users')
    expect(posts[0]!.answer.next).toBe('/ui/console/users/users')
  })

  test('next pointing off-site is ignored', async ({ page }) => {
    const posts = await recordLoginPosts(page)
    await openLogin(page, '?next=https://evil.example/')
    await fillAndSubmit(page, ADMIN.username, ADMIN.password)
    await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
    expect(new URL(page.url()).host).toBe(new URL(workerBaseURL()).host)
    expect(posts[0]!.sent.next).toBe('https://evil.example/')
    expect(posts[0]!.answer.next).toBe('/ui/')
  })

  test('the language switch changes the page and the server messages', async ({ page, context }) => {
    await openLogin(page)
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh')
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
    await expect(page.getByRole('button', { name: catalogText('zh', 'Log in'), exact: true })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: catalogText('zh', 'Log in to your account') })).toBeVisible()
    await expect(page.getByRole('textbox', { name: catalogText('zh', 'Username') })).toBeVisible()
    expect((await context.cookies()).find((c) => c.name === 'django_language')?.value).toBe('zh-hans')
    // The server answers in the chosen language too.
    await fillAndSubmit(page, 'e2e-nobody', 'whatever')
    await expect(page.getByRole('alert')).toHaveText(/[\u4e00-\u9fff]/)
    // And the choice survives a reload (cookie first).
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
    await expect(page.getByRole('combobox', { name: catalogText('zh', 'Language') })).toHaveValue('zh')
  })

  test('works at 360 px wide', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 640 })
    await openLogin(page)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    const box = await page.getByRole('button', { name: 'Log in' }).boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(360)
  })

  test('the first step is accessible in light and dark', async ({ page }) => {
    await openLogin(page)
    await expectNoAxeViolations(page, 'login (light)')
    await fillAndSubmit(page, 'e2e-nobody-2', 'whatever')
    await expect(page.getByRole('alert')).toBeVisible()
    await expectNoAxeViolations(page, 'login with an error (light)')
    await page.emulateMedia({ colorScheme: 'dark' })
    await expectNoAxeViolations(page, 'login with an error (dark)')
  })

  test('the page loads less than 150 kB of gzipped JavaScript', async ({ page }) => {
    const scripts = new Map<string, Promise<Buffer>>()
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.set(r.url(), r.body())
    })
    await openLogin(page)
    await page.waitForLoadState('networkidle')
    const sizes: string[] = []
    let total = 0
    for (const [url, body] of scripts) {
      const size = gzipSync(await body, { level: 9 }).length
      sizes.push(`${new URL(url).pathname.split('/').pop()} ${size}`)
      total += size
    }
    test.info().annotations.push({ type: 'login JS gzip bytes', description: `${total} = ${sizes.join(' + ')}` })
    expect(scripts.size).toBeGreaterThan(0)
    expect(total).toBeLessThan(BUDGET_GZIP_BYTES)
  })
})

test.describe('login with OTP', () => {
  let user: OtpUser

  test.beforeAll(async ({ request }) => {
    user = await createOtpUser(request)
  })

  test('asks for the code, refuses a wrong one, accepts the right one', async ({ page }) => {
    await reachMfaStep(page, user)
    await expect(page.getByRole('textbox', { name: 'Verification code' })).toBeFocused()
    await expect(codeInput(page)).toHaveAttribute('inputmode', 'numeric')
    await expect(codeInput(page)).toHaveAttribute('autocomplete', 'one-time-code')
    await expect(codeInput(page)).toHaveAttribute('maxlength', '6')

    await codeInput(page).fill('123')
    await codeInput(page).press('Enter')
    await expect(page.getByRole('alert')).toHaveText('MFA error, please check')

    await codeInput(page).fill(wrongCode(user.secret))
    await codeInput(page).press('Enter')
    await expect(page.getByRole('alert')).not.toHaveText('MFA error, please check')
    await expect(page.getByRole('alert')).toBeVisible()
    await expect(codeInput(page)).toHaveValue('')
    await expect(page).toHaveURL(new RegExp(`${LOGIN}$`))

    // A later time step than the one used to bind, still inside the server's window.
    await codeInput(page).fill(totpAt(user.secret, Math.max(stepNow(), user.boundAt + 1)))
    await codeInput(page).press('Enter')
    await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
  })

  test('Back returns to the first step with the username kept', async ({ page }) => {
    await reachMfaStep(page, user)
    await page.getByRole('button', { name: 'Back' }).click()
    await expect(username(page)).toHaveValue(user.username)
    await expect(password(page)).toBeFocused()
  })

  test('the MFA step is accessible in light and dark', async ({ page }) => {
    await reachMfaStep(page, user)
    await expectNoAxeViolations(page, 'MFA step (light)')
    await codeInput(page).fill('12')
    await codeInput(page).press('Enter')
    await expect(page.getByRole('alert')).toBeVisible()
    await page.emulateMedia({ colorScheme: 'dark' })
    await expectNoAxeViolations(page, 'MFA step with an error (dark)')
  })
})
