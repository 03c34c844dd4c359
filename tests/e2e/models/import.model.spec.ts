/** The import-task machine's paths driven in Chromium: the UI model is import.ui.ts (what it drives and why). */
import { ADMIN, expect, test } from '../fixtures.ts'
import { login, readyAdmin } from '../shell-helpers.ts'
import { importUiModel, type ImportCtx } from './import.ui.ts'
import { LIST, runModel } from './support.ts'

test.describe('import dialog in the UI', () => {
  test.describe.configure({ timeout: 420_000 })

  test('every path of the import task', async ({ browser, request, baseURL }) => {
    const adminToken = await readyAdmin(request)
    const first = await browser.newContext({ baseURL })
    await login(await first.newPage(), ADMIN.username, ADMIN.password, LIST)
    const storageState = await first.storageState()
    await first.close()
    const context = await browser.newContext({ baseURL, storageState })
    await context.clock.install()
    const ctx: ImportCtx = { context, page: null, request, adminToken, prefix: `model-import-${Date.now().toString(36)}`, path: 0, held: null }
    try {
      expect(await runModel(importUiModel(ctx.prefix), ctx)).toBeGreaterThanOrEqual(10)
    } finally {
      ctx.held?.drop()
      await context.close()
    }
  })
})
