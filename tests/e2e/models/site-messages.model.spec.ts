/** The site-messages machine's paths driven in Chromium: the UI model is site-messages.ui.ts (what it drives and why). */
import { ADMIN, expect, test } from '../fixtures.ts'
import { login, readyAdmin } from '../shell-helpers.ts'
import { siteMessagesUiModel, type SiteMessagesCtx } from './site-messages.ui.ts'
import { LIST, runModel } from './support.ts'

test.describe('site messages in the UI', () => {
  test.describe.configure({ timeout: 300_000 })

  test('every path of the site-messages machine', async ({ browser, request, baseURL }) => {
    const adminToken = await readyAdmin(request)
    const profile = await request.get('/api/v1/users/profile/', { headers: { Authorization: `Bearer ${adminToken}` } })
    expect(profile.status()).toBe(200)
    const first = await browser.newContext({ baseURL })
    await login(await first.newPage(), ADMIN.username, ADMIN.password, LIST)
    const storageState = await first.storageState()
    await first.close()
    const ctx: SiteMessagesCtx = {
      browser, baseURL: baseURL!, storageState, request, adminToken, adminId: ((await profile.json()) as { id: string }).id,
      prefix: `model-msg-${Date.now().toString(36)}`, context: null, page: null, sockets: [], socketsAtDrop: 0,
    }
    try {
      expect(await runModel(siteMessagesUiModel(), ctx)).toBeGreaterThanOrEqual(10)
    } finally {
      for (const socket of ctx.sockets) socket.settle(false)
      await ctx.context?.close()
    }
  })
})
