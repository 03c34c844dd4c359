/**
 * OTP for e2e specs: a user binds an authenticator through its own profile endpoints; fresh single-use codes.
 *
 * No test waits for the clock's next 30 s step. The server accepts a code of any step within `OTP_VALID_WINDOW`
 * steps of its own (a setting of at least 1, 2 by default): an authenticator running a step behind is what the
 * window is for. So the binding uses the previous step's code, and the codes after it take the current step and
 * the next — three single-use codes (bind, sign in, confirm) without waiting, whatever the time within the step.
 */
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test'
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
    // the previous step: within the window (see above), and it leaves the current and the next step for the codes after it
    const step = totpCounter(Date.now()) - 1
    const enable = await own.post('/api/v1/users/profile/otp/enable/', { headers: self, data: { code: hotp(secret, step) } })
    expect(enable.status(), await enable.text()).toBe(200)
    return { ...user, secret, usedStep: step }
  } finally {
    await own.dispose()
  }
}

/**
 * A code of a step after `used` (codes are single-use), at most one step ahead of now (the smallest window the
 * server can be set to). A flow that would need a code further ahead fails here, with why, instead of waiting for
 * the clock: bind earlier or use fewer codes.
 */
export function freshCode(secret: string, used: number): { code: string; step: number } {
  const now = totpCounter(Date.now())
  const step = Math.max(now, used + 1)
  if (step > now + 1) throw new Error(`an OTP code for step ${step} is ${step - now} steps ahead of now: more single-use codes than the window holds`)
  return { code: hotp(secret, step), step }
}
