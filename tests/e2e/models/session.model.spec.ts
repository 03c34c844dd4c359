/** The session-mark and session-refresh machines' paths driven in Chromium: the UI models are session.ui.ts. */
import { ADMIN, expect, test } from '../fixtures.ts'
import { login, readyAdmin } from '../shell-helpers.ts'
import { sessionMarkUiModel, sessionRefreshUiModel, type SessionCtx } from './session.ui.ts'
import { LIST } from './support.ts'
import { runModel } from './support.ts'

test.describe('session keeping in the UI', () => {
  test.describe.configure({ timeout: 240_000 })

  test('every path of the session-mark and session-refresh machines', async ({ browser, request, baseURL }) => {
    await readyAdmin(request)
    const context = await browser.newContext({ baseURL })
    await login(await context.newPage(), ADMIN.username, ADMIN.password, LIST)
    const storageState = await context.storageState()
    await context.close()
    const ctx: SessionCtx = { browser, baseURL: baseURL!, storageState, session: null, profileReads: 0, markExpires: null }
    try {
      expect(await runModel(sessionMarkUiModel('close'), ctx)).toBe(1)
      expect(await runModel(sessionMarkUiModel('age'), ctx)).toBe(1)
      expect(await runModel(sessionRefreshUiModel(), ctx)).toBeGreaterThanOrEqual(2)
    } finally {
      await ctx.session?.context.close()
    }
  })
})
