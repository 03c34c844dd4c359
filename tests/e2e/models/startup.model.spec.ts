/** The start-up machine's paths driven in Chromium: the UI model is startup.ui.ts (what it drives and why). */
import { expect, test } from '../fixtures.ts'
import { adminToken as tokenOf, createUser, finishFirstLogin, PASSWORD, readyAdmin } from '../shell-helpers.ts'
import { runModel } from './support.ts'
import { startupUiModel, type StartupCtx } from './startup.ui.ts'

test.describe('start-up in the UI', () => {
  test.describe.configure({ timeout: 240_000 })

  test('every path of the start-up machine', async ({ browser, request, baseURL }) => {
    await readyAdmin(request)
    const username = `model-noorg-${Date.now().toString(36)}`
    await createUser(request, await tokenOf(request), username, [])
    await finishFirstLogin(request, username, PASSWORD)
    const ctx: StartupCtx = { browser, baseURL: baseURL!, noOrgUser: { username, password: PASSWORD }, session: null }
    try {
      expect(await runModel(startupUiModel(), ctx)).toBeGreaterThanOrEqual(4)
    } finally {
      await ctx.session?.context.close()
    }
  })
})
