/** The confirm machine's paths driven in Chromium: the UI model is confirm.ui.ts (what it drives and why). */
import { createServer, type Server } from 'node:http'
import type { APIRequestContext } from '@playwright/test'
import { ADMIN, expect, test } from '../fixtures.ts'
import { createUser, finishFirstLogin, PASSWORD, readyAdmin, ROLES } from '../shell-helpers.ts'
import { confirmUiModel, type ConfirmCtx, type SmsInbox } from './confirm.ui.ts'
import { newSession, runModel } from './support.ts'

/** A loopback HTTP server answering as Huawei Cloud's `batchSendSms/v1`: it records the phone and the code. */
async function huaweiProvider(inbox: SmsInbox): Promise<{ server: Server; endpoint: string }> {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on('end', () => {
      const form = new URLSearchParams(body)
      const [code] = JSON.parse(form.get('templateParas') ?? '[]') as string[]
      const ok = req.url === '/sms/batchSendSms/v1' && (req.headers['x-wsse'] ?? '').includes('Username="model-key"') && !!code
      if (ok) inbox.codes.push({ phone: form.get('to') ?? '', code })
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify(ok ? { code: '000000', description: 'Success' } : { code: 'E000510', description: 'refused' }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { server, endpoint: `http://127.0.0.1:${port}` }
}

async function saveSettings(request: APIRequestContext, token: string, category: string, data: Record<string, unknown>): Promise<void> {
  const res = await request.patch(`/api/v1/settings/setting/?category=${category}`, { headers: { Authorization: `Bearer ${token}` }, data })
  expect(res.status(), await res.text()).toBe(200)
}

test.describe('confirm machine in the UI', () => {
  test.describe.configure({ timeout: 240_000 })

  test('every path of the confirm machine, by password and by SMS', async ({ browser, request, baseURL }) => {
    const adminToken = await readyAdmin(request)
    // SMS through the real settings API: the Huawei provider at the loopback endpoint; a user with a phone
    const inbox: SmsInbox = { codes: [] }
    const provider = await huaweiProvider(inbox)
    const read = async (category: string) =>
      (await (await request.get(`/api/v1/settings/setting/?category=${category}`, { headers: { Authorization: `Bearer ${adminToken}` } })).json()) as Record<string, unknown>
    const before = await read('sms')
    const { HUAWEI_APP_SECRET: _secret, ...huaweiBefore } = await read('huawei')
    await saveSettings(request, adminToken, 'huawei', {
      HUAWEI_APP_KEY: 'model-key', HUAWEI_APP_SECRET: 'model-secret', HUAWEI_SMS_ENDPOINT: provider.endpoint,
      HUAWEI_SIGN_CHANNEL_NUM: '8820', HUAWEI_VERIFY_SIGN_NAME: 'Bastion', HUAWEI_VERIFY_TEMPLATE_CODE: 'tpl-1',
    })
    await saveSettings(request, adminToken, 'sms', { SMS_ENABLED: true, SMS_BACKEND: 'huawei' })
    const username = `model-sms-${Date.now().toString(36)}`
    const phone = '+8613800138000'
    await createUser(request, adminToken, username, [ROLES.OrgAdmin], { phone })
    await finishFirstLogin(request, username, PASSWORD)
    const ctx: ConfirmCtx = {
      open: () => newSession(browser, baseURL!, ADMIN.username, ADMIN.password),
      session: null,
      confirmed: false,
      sms: { open: () => newSession(browser, baseURL!, username, PASSWORD, { clock: true }), inbox, phone },
    }
    try {
      const count = await runModel(confirmUiModel({ sms: true }), ctx)
      expect(count).toBeGreaterThanOrEqual(7)
      // one code per SMS path, each to the user's phone
      expect(inbox.codes.map((c) => c.phone)).toEqual([phone, phone, phone])
    } finally {
      await ctx.session?.context.close()
      // the worker's server runs other specs next: its SMS settings as they were (the secret stays: never returned)
      await saveSettings(request, adminToken, 'sms', { SMS_ENABLED: before.SMS_ENABLED ?? false, SMS_BACKEND: before.SMS_BACKEND ?? 'alibaba' })
      await saveSettings(request, adminToken, 'huawei', huaweiBefore)
      await new Promise((resolve) => provider.server.close(resolve))
    }
  })
})
