/** The root app machine's paths driven in Chromium: the UI model is app.ui.ts (what it drives and why). */
import type { Org, UserProfile } from '../../../machines/view-org/view-org.types.ts'
import { ADMIN, expect, test } from '../fixtures.ts'
import { login, readyAdmin } from '../shell-helpers.ts'
import { appUiModel, type AppCtx } from './app.ui.ts'
import { LIST, runModel } from './support.ts'

test.describe('the app in the UI', () => {
  test.describe.configure({ timeout: 240_000 })

  test('every path of the root app machine', async ({ browser, request, baseURL }) => {
    const token = await readyAdmin(request)
    const headers = { Authorization: `Bearer ${token}` }
    const name = 'Model org'
    const created = await request.post('/api/v1/orgs/orgs/', { headers, data: { name } })
    expect([201, 400], await created.text()).toContain(created.status())
    const context = await browser.newContext({ baseURL })
    await login(await context.newPage(), ADMIN.username, ADMIN.password, LIST)
    const storageState = await context.storageState()
    await context.close()
    // the start-up's outcome as the real server gives it
    const profile = (await (await request.get('/api/v1/users/profile/', { headers })).json()) as UserProfile
    const settings = (await (await request.get('/api/v1/settings/public/', { headers })).json()) as Record<string, unknown>
    const license = await (await request.get('/api/v1/xpack/license/detail', { headers })).json().catch(() => null)
    const defaultOrg = profile.console_orgs.find((org) => org.is_default)!
    const second = profile.console_orgs.find((org) => org.name === name)!
    expect(second, 'the second organization is in the profile').toBeTruthy()
    const ctx: AppCtx = { browser, baseURL: baseURL!, storageState, session: null }
    try {
      expect(await runModel(appUiModel({ profile, settings, license, defaultOrg, second: second as Org }), ctx)).toBeGreaterThanOrEqual(3)
    } finally {
      await ctx.session?.context.close()
    }
  })
})
