/** Set-up helpers of the shell suites: users through the real API, login through the real login page. */
import { createHmac } from 'node:crypto'
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, expectNoAxeViolations } from './fixtures.ts'

/** axe on the page (see `expectNoAxeViolations` in fixtures.ts: Tabster's focus sentinels are left out). */
export const expectAccessible = (page: Page, context: string): Promise<void> => expectNoAxeViolations(page, context)

export const ROLES = {
  User: '00000000-0000-0000-0000-000000000003',
  OrgAdmin: '00000000-0000-0000-0000-000000000005',
  OrgAuditor: '00000000-0000-0000-0000-000000000006',
  OrgUser: '00000000-0000-0000-0000-000000000007',
} as const
export const PASSWORD = 'Shell-Passw0rd!'

export async function tokenFor(request: APIRequestContext, username: string, password: string): Promise<string> {
  const res = await request.post('/api/v1/authentication/auth/', { data: { username, password } })
  expect([200, 201], await res.text()).toContain(res.status())
  return (await res.json()).token as string
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

/** Creates a user (system role User + the given org roles in DEFAULT) and returns its id. */
export async function createUser(request: APIRequestContext, adminToken: string, username: string, orgRoles: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await request.post('/api/v1/users/users/', {
    headers: bearer(adminToken),
    data: {
      name: username, username, email: `${username}@example.com`, password: PASSWORD, password_strategy: 'custom',
      system_roles: [ROLES.User], org_roles: orgRoles, ...extra,
    },
  })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()).id as string
}

/** Ends the first-login state of a user through its own profile (so a test can start past the improvement page). */
export async function finishFirstLogin(request: APIRequestContext, username: string, password: string): Promise<void> {
  const token = await tokenFor(request, username, password)
  const res = await request.patch('/api/v1/users/profile/', { headers: bearer(token), data: { is_first_login: false } })
  expect(res.status(), await res.text()).toBe(200)
}

export const adminToken = (request: APIRequestContext) => tokenFor(request, ADMIN.username, ADMIN.password)

export async function readyAdmin(request: APIRequestContext): Promise<string> {
  await finishFirstLogin(request, ADMIN.username, ADMIN.password)
  return tokenFor(request, ADMIN.username, ADMIN.password)
}

/**
 * Logs in through the real login page, starting from a console URL; resolves once back in the console. The view
 * switcher tip (shown once per browser) is marked as seen first unless `keepTip`.
 */
export async function login(page: Page, username: string, password: string, start = '/ui/', opts: { keepTip?: boolean } = {}): Promise<void> {
  if (!opts.keepTip) await page.addInitScript(() => localStorage.setItem('viewSwitcherTip', '1'))
  await page.goto(start)
  await page.waitForURL(/\/core\/auth\/login\//)
  await page.getByLabel('Username').fill(username)
  await page.locator('input[type=password]').fill(password)
  await page.keyboard.press('Enter')
  await page.waitForURL(/\/ui\//)
  await page.locator('main').first().waitFor({ timeout: 15_000 })
}

/** The view switcher tip shows once; tests that do not look at it dismiss it up front. */
export async function dismissViewTip(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('viewSwitcherTip', '1'))
}

export async function sendSiteMessage(request: APIRequestContext, token: string, userIds: string[], subject: string): Promise<void> {
  const res = await request.post('/api/v1/notifications/site-messages/send/', {
    headers: bearer(token),
    data: { subject, message: `${subject} body`, user_ids: userIds },
  })
  expect(res.status(), await res.text()).toBe(201)
}

export async function profileId(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.get('/api/v1/users/profile/', { headers: bearer(token) })
  return (await res.json()).id as string
}

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) of a base32 secret, as an authenticator app computes it. */
export function totp(secret: string, now = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const ch of secret.replace(/[\s=]/g, '').toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0')
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)))
  const mac = createHmac('sha1', key).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0xf
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}
