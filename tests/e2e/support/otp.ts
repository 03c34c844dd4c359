/** OTP for e2e specs: a user binds an authenticator through its own profile endpoints; fresh single-use codes. */
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test'
import { hotp, totpCounter } from '../../../server/auth/totp.ts'
import { expect, workerBaseURL } from '../fixtures.ts'

export async function tokenFor(r: APIRequestContext, creds: { username: string; password: string }): Promise<string> {
  const res = await r.post('/api/v1/authentication/auth/', { data: creds })
  expect([200, 201], await res.text()).toContain(res.status())
  return (await res.json()).token as string
}

/** The user (already created) finishes its first login and binds OTP; answers its secret and the step used. */
export async function bindOtp<U extends { username: string; password: string }>(user: U): Promise<U & { secret: string; usedStep: number }> {
  const own = await playwrightRequest.newContext({ baseURL: workerBaseURL() })
  try {
    const self = { Authorization: `Bearer ${await tokenFor(own, user)}` }
    await own.patch('/api/v1/users/profile/', { headers: self, data: { is_first_login: false } })
    const setup = await own.get('/api/v1/users/profile/otp/setup/', { headers: self })
    expect(setup.status(), await setup.text()).toBe(200)
    const secret = (await setup.json()).secret as string
    const step = totpCounter(Date.now())
    const enable = await own.post('/api/v1/users/profile/otp/enable/', { headers: self, data: { code: hotp(secret, step) } })
    expect(enable.status(), await enable.text()).toBe(200)
    return { ...user, secret, usedStep: step }
  } finally {
    await own.dispose()
  }
}

/**
 * A code of a step after `used` (codes are single-use), no further ahead than the server's window allows
 * (waiting for the clock when needed).
 */
export async function freshCode(page: Page, secret: string, used: number): Promise<{ code: string; step: number }> {
  const step = Math.max(totpCounter(Date.now()), used + 1)
  while (step > totpCounter(Date.now()) + 1) await page.waitForTimeout(1000)
  return { code: hotp(secret, step), step }
}
