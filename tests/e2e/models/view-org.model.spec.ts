/** The view/organization machine's paths driven in Chromium: the UI model is view-org.ui.ts (what it drives and why). */
import type { UserProfile } from '../../../machines/view-org/view-org.types.ts'
import { ADMIN, expect, test } from '../fixtures.ts'
import { login, readyAdmin } from '../shell-helpers.ts'
import { runModel } from './support.ts'
import { viewOrgUiModel, type ViewOrgCtx } from './view-org.ui.ts'

test.describe('view and organization in the UI', () => {
  test.describe.configure({ timeout: 240_000 })

  test('every path of the view/organization machine', async ({ browser, request, baseURL }) => {
    const token = await readyAdmin(request)
    const headers = { Authorization: `Bearer ${token}` }
    const name = 'Model org'
    const created = await request.post('/api/v1/orgs/orgs/', { headers, data: { name } })
    expect([201, 400], await created.text()).toContain(created.status())
    // the logged-in state every path starts from
    const context = await browser.newContext({ baseURL })
    await login(await context.newPage(), ADMIN.username, ADMIN.password, '/ui/console/users/users')
    const storageState = await context.storageState()
    await context.close()
    // the machine's input is the real profile (the server's organizations and permissions)
    const profile = (await (await request.get('/api/v1/users/profile/', { headers })).json()) as UserProfile
    const second = profile.console_orgs.find((org) => org.name === name)
    expect(second, 'the second organization is in the profile').toBeTruthy()
    const ctx: ViewOrgCtx = { browser, baseURL: baseURL!, storageState, session: null, profile, second: { id: second!.id, name: second!.name } }
    try {
      expect(await runModel(viewOrgUiModel(ctx), ctx)).toBeGreaterThanOrEqual(5)
    } finally {
      await ctx.session?.context.close()
    }
  })
})
