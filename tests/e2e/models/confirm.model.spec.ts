/** The confirm machine's paths driven in Chromium: the UI model is confirm.ui.ts (what it drives and why). */
import { ADMIN, expect, test } from '../fixtures.ts'
import { readyAdmin } from '../shell-helpers.ts'
import { confirmUiModel, type ConfirmCtx } from './confirm.ui.ts'
import { newSession, runModel } from './support.ts'

test.describe('confirm machine in the UI', () => {
  test.describe.configure({ timeout: 240_000 })

  test('every path of the confirm machine', async ({ browser, request, baseURL }) => {
    await readyAdmin(request)
    const ctx: ConfirmCtx = { open: () => newSession(browser, baseURL!, ADMIN.username, ADMIN.password), session: null, confirmed: false }
    try {
      const count = await runModel(confirmUiModel(), ctx)
      expect(count).toBeGreaterThanOrEqual(4)
    } finally {
      await ctx.session?.context.close()
    }
  })
})
