/**
 * The confirmation before a protected export, in real Chromium against the real server: a user with OTP bound
 * logs in through the login page (password, then the code), exports a list whose export the server protects
 * (`confirm=mfa` on the users export, see docs/import-export.md), is asked for the OTP, sees a malformed and a
 * wrong code refused, and gets the file after the right one.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { hotp, totpCounter } from '../../server/auth/totp.ts'
import { bindOtp, freshCode, tokenFor } from './support/otp.ts'
import { ADMIN, expect, expectNoAxeViolations, test } from './fixtures.ts'

const USERS = '/api/v1/users/users/'
const ROLE_USER = '00000000-0000-0000-0000-000000000003'
const ROLE_ORG_ADMIN = '00000000-0000-0000-0000-000000000005'
const SHOTS = process.env.E2E_SHOTS_DIR

interface OtpUser {
  username: string
  password: string
  secret: string
}


/** An organization administrator with OTP bound through its own profile endpoints. */
async function otpAdmin(request: APIRequestContext): Promise<OtpUser & { usedStep: number }> {
  const admin = { Authorization: `Bearer ${await tokenFor(request, ADMIN)}` }
  const suffix = Date.now().toString(36)
  const user = { username: `confirm-${suffix}`, password: `Confirm-Passw0rd-${suffix}!` }
  const created = await request.post(USERS, {
    headers: admin,
    data: {
      name: `Confirm ${suffix}`, username: user.username, email: `${user.username}@example.com`,
      password_strategy: 'custom', password: user.password, need_update_password: false,
      system_roles: [ROLE_USER], org_roles: [ROLE_ORG_ADMIN],
    },
  })
  expect(created.status(), await created.text()).toBe(201)
  return bindOtp(user)
}


/** A six-digit code valid at no step near now. */
function wrongCode(secret: string): string {
  const now = totpCounter(Date.now())
  const near = new Set(Array.from({ length: 11 }, (_, i) => hotp(secret, now - 5 + i)))
  for (let d = 0; d < 10; d++) if (!near.has(String(d).repeat(6))) return String(d).repeat(6)
  throw new Error('unreachable')
}

async function loginWithOtp(page: Page, user: OtpUser & { usedStep: number }, path: string): Promise<number> {
  await page.addInitScript(() => localStorage.setItem('viewSwitcherTip', '1'))
  await page.goto(`/core/auth/login/?next=${encodeURIComponent(`/ui${path}`)}`)
  await page.locator('input[name="username"]').fill(user.username)
  await page.locator('input[name="password"]').fill(user.password)
  await page.locator('input[name="password"]').press('Enter')
  const { code, step } = freshCode(user.secret, user.usedStep)
  await page.locator('input[name="code"]').fill(code)
  await page.locator('input[name="code"]').press('Enter')
  await page.waitForURL((url) => url.pathname.startsWith('/ui/'))
  if (!new URL(page.url()).pathname.startsWith(`/ui${path.split('?')[0]}`)) await page.goto(`/ui${path}`)
  return step
}

test.describe('confirmation before a protected export', () => {
  test.describe.configure({ timeout: 120_000 })

  test('asks for the OTP, refuses a malformed and a wrong code, then exports', async ({ page, request }) => {
    const user = await otpAdmin(request)
    const loginStep = await loginWithOtp(page, user, '/console/users/users?confirm=mfa')
    await expect(page.getByRole('grid').first()).toBeVisible()

    await page.locator('[data-command="export"]').click()
    const options = page.getByRole('dialog', { name: 'Export' })
    await expect(options.getByRole('radio', { name: 'Filtered results' })).toBeChecked()
    await options.getByRole('button', { name: 'Export' }).click()

    const verify = page.getByRole('dialog', { name: 'Multi-factor authentication' })
    await expect(verify).toBeVisible()
    const code = verify.getByRole('textbox', { name: /OTP/ })
    await expect(code).toBeFocused()
    await shot(page, 'confirm-otp')
    await expectNoAxeViolations(page, 'confirmation dialog')

    await code.fill('12345')
    await code.press('Enter')
    await expect(verify.getByText('MFA error, please check')).toBeVisible()
    await shot(page, 'confirm-otp-malformed')

    await code.fill(wrongCode(user.secret))
    await code.press('Enter')
    await expect(verify.getByText('OTP code invalid, or server time error')).toBeVisible()
    await expect(verify.getByText('MFA error, please check')).toBeHidden()
    await shot(page, 'confirm-otp-wrong')

    const { code: right } = freshCode(user.secret, loginStep)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await code.fill(right)
        await code.press('Enter')
      })(),
    ])
    await expect(verify).toBeHidden()
    expect(download.suggestedFilename()).toMatch(/^user_.*\.csv$/)
  })

  test('the confirmation can be cancelled, and the export ends', async ({ page, request }) => {
    const user = await otpAdmin(request)
    await loginWithOtp(page, user, '/console/users/users?confirm=mfa')
    await page.locator('[data-command="export"]').click()
    await page.getByRole('dialog', { name: 'Export' }).getByRole('button', { name: 'Export' }).click()
    const verify = page.getByRole('dialog', { name: 'Multi-factor authentication' })
    await expect(verify).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(verify).toBeHidden()
    await expect(page.getByRole('dialog')).toHaveCount(0)
  })
})

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` })
}
