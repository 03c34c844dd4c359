/**
 * SMS through the providers' HTTP APIs against a local HTTP server playing Alibaba Cloud, Tencent Cloud and Huawei
 * Cloud: it checks each request's signature with its own implementation of the provider's documented scheme
 * (below, written from the providers' documentation, independent of server/sms) and answers as the provider does.
 */
import { createHash, createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer } from '../auth/test-support.ts'
import { invalidateSettingsCache } from '../settings/store.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'

interface Sent { provider: string; phone: string; code: string; sign: string; template: string }

const SECRETS = { alibaba: 'ali-secret', tencent: 'tc-secret', huawei: 'hw-secret' }
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
const readBody = (req: IncomingMessage) => new Promise<string>((r) => { let b = ''; req.on('data', (d) => (b += d)); req.on('end', () => r(b)) })

function aliyun(url: URL, sent: Sent[]): unknown {
  const params = [...url.searchParams].filter(([k]) => k !== 'Signature').sort(([a], [b]) => (a < b ? -1 : 1))
  const canonical = params.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&')
  const expected = createHmac('sha1', `${SECRETS.alibaba}&`).update(`GET&%2F&${rfc3986(canonical)}`).digest('base64')
  const q = Object.fromEntries(params)
  if (url.searchParams.get('Signature') !== expected || q.AccessKeyId !== 'ali-key') return { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' }
  if (q.Action !== 'SendSms' || q.Version !== '2017-05-25' || q.SignatureMethod !== 'HMAC-SHA1' || !q.SignatureNonce) return { Code: 'InvalidParameter', Message: 'bad request' }
  sent.push({ provider: 'alibaba', phone: q.PhoneNumbers!, code: JSON.parse(q.TemplateParam!).code, sign: q.SignName!, template: q.TemplateCode! })
  return { Code: 'OK', Message: 'OK', BizId: '1', RequestId: 'r' }
}

function tencent(req: IncomingMessage, body: string, sent: Sent[]): unknown {
  const h = (n: string) => String(req.headers[n] ?? '')
  const m = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/sms\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(h('authorization'))
  if (!m) return { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'malformed' }, RequestId: 'r' } }
  const [, id, date, signature] = m
  const sha = (s: string) => createHash('sha256').update(s).digest('hex')
  const canonical = `POST\n/\n\ncontent-type:${h('content-type')}\nhost:${h('host')}\n\ncontent-type;host\n${sha(body)}`
  const toSign = `TC3-HMAC-SHA256\n${h('x-tc-timestamp')}\n${date}/sms/tc3_request\n${sha(canonical)}`
  let key: Buffer = createHmac('sha256', `TC3${SECRETS.tencent}`).update(date!).digest()
  key = createHmac('sha256', key).update('sms').digest()
  key = createHmac('sha256', key).update('tc3_request').digest()
  const dateOk = new Date(Number(h('x-tc-timestamp')) * 1000).toISOString().slice(0, 10) === date
  if (id !== 'tc-id' || !dateOk || createHmac('sha256', key).update(toSign).digest('hex') !== signature || h('x-tc-action') !== 'SendSms') {
    return { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'The provided credentials could not be validated.' }, RequestId: 'r' } }
  }
  const p = JSON.parse(body)
  sent.push({ provider: 'tencent', phone: p.PhoneNumberSet[0], code: p.TemplateParamSet[0], sign: p.SignName, template: p.TemplateId })
  return { Response: { SendStatusSet: [{ Code: 'Ok', Message: 'send success', PhoneNumber: p.PhoneNumberSet[0] }], RequestId: 'r' } }
}

function huawei(req: IncomingMessage, body: string, sent: Sent[]): unknown {
  const w = /^UsernameToken Username="([^"]+)",PasswordDigest="([^"]+)",Nonce="([^"]+)",Created="([^"]+)"$/.exec(String(req.headers['x-wsse'] ?? ''))
  const digest = w && createHash('sha256').update(w[3]! + w[4]! + SECRETS.huawei).digest('base64')
  if (!w || w[1] !== 'hw-key' || w[2] !== digest || !String(req.headers.authorization).startsWith('WSSE realm="SDP"')) {
    return { code: 'E000102', description: 'Invalid app_key.' }
  }
  const f = new URLSearchParams(body)
  sent.push({ provider: 'huawei', phone: f.get('to')!, code: JSON.parse(f.get('templateParas')!)[0], sign: f.get('signature')!, template: f.get('templateId')! })
  return { code: '000000', description: 'Success', result: [] }
}

describe(`SMS through the providers' APIs (${dbKind()})`, () => {
  let provider: Server
  let base: string
  const sent: Sent[] = []
  let server: TestServer
  let admin: TestClient

  beforeAll(async () => {
    provider = createServer(async (req, res) => {
      const url = new URL(req.url!, 'http://x')
      const body = await readBody(req)
      const answer = url.pathname.startsWith('/aliyun/') ? aliyun(url, sent)
        : url.pathname === '/tencent/' ? tencent(req, body, sent)
          : url.pathname === '/huawei/sms/batchSendSms/v1' ? huawei(req, body, sent) : { error: 'not found' }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(answer))
    })
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(provider.address() as { port: number }).port}`
    invalidateSettingsCache()
    server = await authTestServer({ smsEndpoints: { alibaba: `${base}/aliyun/`, tencent: `${base}/tencent/` } })
    admin = await asEnglish(server, 'admin')
  })
  afterAll(async () => {
    await server?.close()
    await new Promise((r) => provider?.close(r))
  })

  const save = async (category: string, values: Record<string, unknown>) => {
    const r = await admin.patch(`/api/v1/settings/setting/?category=${category}`, values)
    expect(r.statusCode, r.body).toBe(200)
  }

  it('"Test SMS" of each provider reaches its API signed as the provider checks it; a wrong secret is the provider\'s refusal', async () => {
    expect((await admin.get('/api/v1/settings/sms/backend/')).json().map((b: { name: string }) => b.name)).toEqual(['alibaba', 'tencent', 'huawei', 'cmpp2'])
    await save('alibaba', { ALIBABA_ACCESS_KEY_ID: 'ali-key', ALIBABA_ACCESS_KEY_SECRET: SECRETS.alibaba, ALIBABA_VERIFY_SIGN_NAME: 'Bastion', ALIBABA_VERIFY_TEMPLATE_CODE: 'SMS_1' })
    const ok = await admin.post('/api/v1/settings/sms/alibaba/testing/', { SMS_TEST_PHONE: '+86 138-0013-8000' })
    expect(ok.json()).toEqual({ msg: 'Test SMS sent to +8613800138000' })
    expect(sent.at(-1)).toEqual({ provider: 'alibaba', phone: '+8613800138000', code: '666666', sign: 'Bastion', template: 'SMS_1' })

    const wrong = await admin.post('/api/v1/settings/sms/alibaba/testing/', { SMS_TEST_PHONE: '13800138000', ALIBABA_ACCESS_KEY_SECRET: 'not-it' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().error).toBe('The SMS could not be sent: SignatureDoesNotMatch: Specified signature is not matched with our calculation.')

    // values typed on the tab (not saved yet) are tested as typed
    const tc = await admin.post('/api/v1/settings/sms/tencent/testing/', { TENCENT_SECRET_ID: 'tc-id', TENCENT_SECRET_KEY: SECRETS.tencent, TENCENT_SDKAPPID: '1400000000',
      TENCENT_VERIFY_SIGN_NAME: 'Bastion', TENCENT_VERIFY_TEMPLATE_CODE: '101', SMS_TEST_PHONE: '13800138000' })
    expect(tc.json(), tc.body).toEqual({ msg: 'Test SMS sent to 13800138000' })
    expect(sent.at(-1)).toEqual({ provider: 'tencent', phone: '+8613800138000', code: '666666', sign: 'Bastion', template: '101' })
    expect((await admin.post('/api/v1/settings/sms/tencent/testing/', { TENCENT_SECRET_ID: 'tc-id', TENCENT_SECRET_KEY: 'x', SMS_TEST_PHONE: '1380013' })).json().error)
      .toContain('AuthFailure.SignatureFailure')

    const hw = await admin.post('/api/v1/settings/sms/huawei/testing/', { HUAWEI_APP_KEY: 'hw-key', HUAWEI_APP_SECRET: SECRETS.huawei, HUAWEI_SMS_ENDPOINT: `${base}/huawei`,
      HUAWEI_SIGN_CHANNEL_NUM: '8820', HUAWEI_VERIFY_SIGN_NAME: 'Bastion', HUAWEI_VERIFY_TEMPLATE_CODE: 'tpl-1', SMS_TEST_PHONE: '+8613800138000' })
    expect(hw.json(), hw.body).toEqual({ msg: 'Test SMS sent to +8613800138000' })
    expect(sent.at(-1)).toMatchObject({ provider: 'huawei', code: '666666', template: 'tpl-1' })

    expect((await admin.post('/api/v1/settings/sms/cmpp2/testing/', { CMPP2_SP_ID: '1', SMS_TEST_PHONE: '13800138000' })).json().error)
      .toBe('The SMS could not be sent: CMPP v2.0 delivery is not supported by this server')
    expect((await admin.post('/api/v1/settings/sms/alibaba/testing/', { SMS_TEST_PHONE: 'call me' })).statusCode).toBe(400)
    expect((await admin.post('/api/v1/settings/sms/nope/testing/', {})).statusCode).toBe(404)
    await server.createUser({ username: 'plain' })
    expect((await (await asEnglish(server, 'plain')).post('/api/v1/settings/sms/alibaba/testing/', { SMS_TEST_PHONE: '138' })).statusCode).toBe(403)
  })

  it('the MFA SMS code goes out through the chosen provider and is accepted once', async () => {
    await save('tencent', { TENCENT_SECRET_ID: 'tc-id', TENCENT_SECRET_KEY: SECRETS.tencent, TENCENT_SDKAPPID: '1400000000', TENCENT_VERIFY_SIGN_NAME: 'Bastion', TENCENT_VERIFY_TEMPLATE_CODE: '101' })
    await save('sms', { SMS_ENABLED: true, SMS_BACKEND: 'tencent' })
    const id = await server.createUser({ username: 'mobile', password: 'Passw0rd!' })
    await sql`update users set phone = '+86 13900139000' where id = ${id}`.execute(server.database.db)
    const c = await asEnglish(server, 'mobile')
    expect((await c.post('/api/v1/authentication/mfa/select/', { type: 'sms' })).statusCode).toBe(201)
    const got = sent.at(-1)!
    expect(got).toMatchObject({ provider: 'tencent', phone: '+8613900139000' })
    expect(got.code).toMatch(/^\d{6}$/)
    expect(got.code).not.toBe('666666')
    expect((await c.post('/api/v1/authentication/confirm/', { confirm_type: 'mfa', mfa_type: 'sms', secret_key: got.code })).json()).toBe('ok')

    // a refusing provider: 400 with its reason, and no code is kept
    await save('tencent', { TENCENT_SECRET_KEY: 'rotated-elsewhere' })
    const other = await asEnglish(server, 'mobile')
    const r = await other.post('/api/v1/authentication/mfa/select/', { type: 'sms' })
    expect(r.statusCode).toBe(400)
    expect(r.json().error).toContain('AuthFailure.SignatureFailure')
  })
})
