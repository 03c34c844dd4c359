/**
 * SMS tools (contract §4.17, `settings.change_sms` at system scope):
 * - `GET /api/v1/settings/sms/backend/` → `[{name, label}]`, the providers;
 * - `POST /api/v1/settings/sms/<backend>/testing/` body = that provider's settings (as on its tab; an empty secret =
 *   the saved one) + `SMS_TEST_PHONE` → sends the test code 666666 through the provider's API → `{msg}`, or 400
 *   `{error}` with the provider's reason; invalid values → 400 `{error: "<field errors>"}` as JumpServer answers.
 */
import type { FastifyInstance } from 'fastify'
import { decryptOrPlain } from '../auth/secret.ts'
import { parseObject } from '../engine/parse.ts'
import { requirePerm } from '../http/context.ts'
import { ApiError, notFound } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { SMS_ALIBABA, SMS_BACKENDS, SMS_CMPP2, SMS_HUAWEI, SMS_TENCENT } from '../settings/declarations-auth.ts'
import type { SettingsCategory } from '../settings/declarations.ts'
import { normalizePhone, PROVIDERS, providerValues, SmsError } from './providers.ts'

const CATEGORIES: Record<string, SettingsCategory> = { alibaba: SMS_ALIBABA, tencent: SMS_TENCENT, huawei: SMS_HUAWEI, cmpp2: SMS_CMPP2 }
const T = {
  sent: 'Test SMS sent to {phone}',
  noPhone: 'Enter a test phone number',
  failed: 'The SMS could not be sent: {reason}',
}
addMessages({
  [T.sent]: ['测试短信已发送至 {phone}', 'テスト SMS を {phone} に送信しました'],
  [T.noPhone]: ['请输入测试手机号', 'テスト用の電話番号を入力してください'],
})

export function registerSms(app: FastifyInstance): void {
  app.get('/api/v1/settings/sms/backend/', async (req) => {
    await requirePerm(req, 'settings.change_sms', ORG_IDS.ROOT)
    return SMS_BACKENDS.map(([name, label]) => ({ name, label: tr(req.ctx.lang, label) }))
  })
  app.post<{ Params: { backend: string } }>('/api/v1/settings/sms/:backend/testing/', async (req) => {
    await requirePerm(req, 'settings.change_sms', ORG_IDS.ROOT)
    const provider = PROVIDERS[req.params.backend]
    const category = CATEGORIES[req.params.backend]
    if (!provider || !category) throw notFound('SMS backend')
    const body = { ...((req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>) }
    const secret = category.fields.find((f) => f.secret)?.name
    if (secret && typeof body[secret] === 'string' && body[secret]) body[secret] = decryptOrPlain(body[secret] as string, req.ctx.session?.data.privateKey)
    const fields = category.fields.filter((f) => !f.secret)
    const { values, errors } = parseObject(fields, body, req.ctx, { partial: true, fillDefaults: false })
    if (Object.keys(errors).length) throw new ApiError(400, { error: JSON.stringify(errors) })
    if (secret && typeof body[secret] === 'string') values[secret] = body[secret]
    const all = await providerValues(req.ctx.db, app.services.config, provider.name, values)
    const phone = normalizePhone(String(all.SMS_TEST_PHONE ?? ''))
    if (!phone) throw new ApiError(400, { error: tr(req.ctx.lang, T.noPhone) })
    try {
      await provider.send(all, phone, '666666', app.services.config)
    } catch (e) {
      if (e instanceof SmsError) throw new ApiError(400, { error: tr(req.ctx.lang, T.failed, { reason: e.message }) })
      throw e
    }
    return { msg: tr(req.ctx.lang, T.sent, { phone }) }
  })
}
