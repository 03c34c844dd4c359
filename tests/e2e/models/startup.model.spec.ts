/** The start-up machine's paths driven in Chromium: the UI model is startup.ui.ts (what it drives and why). */
import { expect, test } from '../fixtures.ts'
import { readyAdmin } from '../shell-helpers.ts'
import { runModel } from './support.ts'
import { startupUiModel, type StartupCtx } from './startup.ui.ts'

test.describe('start-up in the UI', () => {
  test.describe.configure({ timeout: 240_000 })

  test('every path of the start-up machine', async ({ browser, request, baseURL }) => {
    await readyAdmin(request)
    const ctx: StartupCtx = { browser, baseURL: baseURL!, session: null }
    try {
      expect(await runModel(startupUiModel(), ctx)).toBeGreaterThanOrEqual(3)
    } finally {
      await ctx.session?.context.close()
    }
  })
})
