/** The export-flow machine's paths driven in Chromium: the UI models are in export.ui.ts (what they drive and why). */
import { expect, test } from '../fixtures.ts'
import { createUser, finishFirstLogin, PASSWORD, readyAdmin, ROLES } from '../shell-helpers.ts'
import { exportConfirmUiModel, exportUiModel, type ExportCtx } from './export.ui.ts'
import { newSession, runModel } from './support.ts'

test.describe('export flow in the UI', () => {
  test.describe.configure({ timeout: 300_000 })

  test('every path of the export flow, and of its confirmation', async ({ browser, request, baseURL }) => {
    const adminToken = await readyAdmin(request)
    const username = `model-export-${Date.now().toString(36)}`
    const userId = await createUser(request, adminToken, username, [ROLES.OrgAdmin])
    await finishFirstLogin(request, username, PASSWORD)
    const ctx: ExportCtx = {
      open: () => newSession(browser, baseURL!, username, PASSWORD),
      session: null, request, adminToken, userId, username, password: PASSWORD, allowed: true, confirmed: false,
    }
    try {
      expect(await runModel(exportUiModel(), ctx)).toBeGreaterThanOrEqual(6)
      ctx.confirmed = true // a new session for the confirmation model
      expect(await runModel(exportConfirmUiModel(), ctx)).toBeGreaterThanOrEqual(2)
    } finally {
      await ctx.session?.context.close()
    }
  })
})
