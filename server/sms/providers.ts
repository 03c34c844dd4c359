/**
 * SMS delivery through the providers' HTTP APIs, each signed as the provider requires:
 * - Alibaba Cloud `SendSms` (dysmsapi 2017-05-25, RPC style): HMAC-SHA1 over the sorted, RFC 3986-encoded query
 *   (`GET&%2F&…`, key = AccessKeySecret + "&"); answer `{Code: "OK"}`.
 * - Tencent Cloud `SendSms` (sms 2021-01-11): TC3-HMAC-SHA256 (canonical request → string to sign → key derived
 *   from "TC3" + SecretKey, date, "sms", "tc3_request"); answer `Response.SendStatusSet[].Code = "Ok"`.
 * - Huawei Cloud `batchSendSms/v1`: WSSE UsernameToken (PasswordDigest = base64(sha256(nonce + created + secret)));
 *   answer `{code: "000000"}`.
 * The code goes in the provider's template (`{"code": …}` / `[code]`). CMPP v2.0 is a binary TCP protocol to an
 * operator's gateway, not an HTTP API: it is refused with a message (docs/settings.md).
 * Every call is bounded: 10 s, answers over 64 KB are cut.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto'
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import { allSettings, getSecretSetting } from '../settings/store.ts'

export class SmsError extends Error {}

const TIMEOUT_MS = 10_000
const MAX_ANSWER = 64 * 1024

/** Settings of one provider: stored values, overridden by `values` (a test from the settings page). */
export type Values = Record<string, unknown>

export interface Provider {
  name: string
  /** the settings key that tells whether the provider is configured at all */
  keyField: string
  send(values: Values, phone: string, code: string, config: ServerConfig): Promise<void>
}

async function call(url: string, init: RequestInit): Promise<{ status: number; json: unknown }> {
  let res: Response
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch (e) {
    throw new SmsError(`cannot reach ${new URL(url).host}: ${(e as Error).message}`)
  }
  const text = (await res.text()).slice(0, MAX_ANSWER)
  try {
    return { status: res.status, json: JSON.parse(text) }
  } catch {
    throw new SmsError(`HTTP ${res.status}: ${text.slice(0, 200)}`)
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v))

/** RFC 3986 percent-encoding as Alibaba's signature requires. */
export const percentEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

const alibaba: Provider = {
  name: 'alibaba',
  keyField: 'ALIBABA_ACCESS_KEY_ID',
  async send(v, phone, code, config) {
    const params: Record<string, string> = {
      AccessKeyId: str(v.ALIBABA_ACCESS_KEY_ID), Action: 'SendSms', Format: 'JSON', PhoneNumbers: phone, RegionId: 'cn-hangzhou',
      SignName: str(v.ALIBABA_VERIFY_SIGN_NAME), SignatureMethod: 'HMAC-SHA1', SignatureNonce: randomUUID(), SignatureVersion: '1.0',
      TemplateCode: str(v.ALIBABA_VERIFY_TEMPLATE_CODE), TemplateParam: JSON.stringify({ code }),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), Version: '2017-05-25',
    }
    const query = Object.keys(params).sort().map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`).join('&')
    const toSign = `GET&${percentEncode('/')}&${percentEncode(query)}`
    const signature = createHmac('sha1', `${str(v.ALIBABA_ACCESS_KEY_SECRET)}&`).update(toSign).digest('base64')
    const { json } = await call(`${config.smsEndpoints.alibaba.replace(/\/?$/, '/')}?Signature=${percentEncode(signature)}&${query}`, { method: 'GET' })
    const a = json as { Code?: string; Message?: string }
    if (a.Code !== 'OK') throw new SmsError(`${a.Code ?? 'error'}: ${a.Message ?? ''}`.trim())
  },
}

const sha256hex = (s: string) => createHash('sha256').update(s).digest('hex')
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest()

const tencent: Provider = {
  name: 'tencent',
  keyField: 'TENCENT_SECRET_ID',
  async send(v, phone, code, config) {
    const url = new URL(config.smsEndpoints.tencent)
    const host = url.host
    const payload = JSON.stringify({
      PhoneNumberSet: [phone.startsWith('+') ? phone : `+86${phone}`], SmsSdkAppId: str(v.TENCENT_SDKAPPID),
      SignName: str(v.TENCENT_VERIFY_SIGN_NAME), TemplateId: str(v.TENCENT_VERIFY_TEMPLATE_CODE), TemplateParamSet: [code],
    })
    const timestamp = Math.floor(Date.now() / 1000)
    const date = new Date(timestamp * 1000).toISOString().slice(0, 10)
    const contentType = 'application/json; charset=utf-8'
    const canonical = ['POST', '/', '', `content-type:${contentType}\nhost:${host}\n`, 'content-type;host', sha256hex(payload)].join('\n')
    const scope = `${date}/sms/tc3_request`
    const toSign = ['TC3-HMAC-SHA256', String(timestamp), scope, sha256hex(canonical)].join('\n')
    const key = hmac(hmac(hmac(`TC3${str(v.TENCENT_SECRET_KEY)}`, date), 'sms'), 'tc3_request')
    const signature = createHmac('sha256', key).update(toSign).digest('hex')
    const { json } = await call(url.toString(), {
      method: 'POST', body: payload,
      headers: {
        Authorization: `TC3-HMAC-SHA256 Credential=${str(v.TENCENT_SECRET_ID)}/${scope}, SignedHeaders=content-type;host, Signature=${signature}`,
        'Content-Type': contentType, Host: host, 'X-TC-Action': 'SendSms', 'X-TC-Timestamp': String(timestamp), 'X-TC-Version': '2021-01-11',
        'X-TC-Region': 'ap-guangzhou',
      },
    })
    const r = (json as { Response?: { Error?: { Code: string; Message: string }; SendStatusSet?: { Code: string; Message: string }[] } }).Response
    if (r?.Error) throw new SmsError(`${r.Error.Code}: ${r.Error.Message}`)
    const status = r?.SendStatusSet?.[0]
    if (!status || status.Code !== 'Ok') throw new SmsError(`${status?.Code ?? 'error'}: ${status?.Message ?? 'no send status'}`)
  },
}

const huawei: Provider = {
  name: 'huawei',
  keyField: 'HUAWEI_APP_KEY',
  async send(v, phone, code) {
    const endpoint = str(v.HUAWEI_SMS_ENDPOINT)
    if (!/^https?:\/\//.test(endpoint)) throw new SmsError('the App Access Address must be an http(s) URL')
    return sendHuawei(v, endpoint, phone, code)
  },
}

async function sendHuawei(v: Values, endpoint: string, phone: string, code: string): Promise<void> {
  const nonce = randomBytes(16).toString('hex')
  const created = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
  const digest = createHash('sha256').update(nonce + created + str(v.HUAWEI_APP_SECRET)).digest('base64')
  const body = new URLSearchParams({
    from: str(v.HUAWEI_SIGN_CHANNEL_NUM), to: phone, templateId: str(v.HUAWEI_VERIFY_TEMPLATE_CODE),
    templateParas: JSON.stringify([code]), signature: str(v.HUAWEI_VERIFY_SIGN_NAME),
  })
  const { json } = await call(`${endpoint.replace(/\/+$/, '')}/sms/batchSendSms/v1`, {
    method: 'POST', body: body.toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'WSSE realm="SDP",profile="UsernameToken",type="Appkey"',
      'X-WSSE': `UsernameToken Username="${str(v.HUAWEI_APP_KEY)}",PasswordDigest="${digest}",Nonce="${nonce}",Created="${created}"`,
    },
  })
  const a = json as { code?: string; description?: string }
  if (a.code !== '000000') throw new SmsError(`${a.code ?? 'error'}: ${a.description ?? ''}`.trim())
}

const cmpp2: Provider = {
  name: 'cmpp2',
  keyField: 'CMPP2_SP_ID',
  async send() {
    throw new SmsError('CMPP v2.0 delivery is not supported by this server')
  },
}

export const PROVIDERS: Record<string, Provider> = { alibaba, tencent, huawei, cmpp2 }

/** Secret settings of each provider (opened from their sealed form when not given in `values`). */
const SECRETS: Record<string, string> = { alibaba: 'ALIBABA_ACCESS_KEY_SECRET', tencent: 'TENCENT_SECRET_KEY', huawei: 'HUAWEI_APP_SECRET', cmpp2: 'CMPP2_SP_SECRET' }

/** The provider's settings: stored ones with the secret opened, `values` over them (an empty secret keeps the stored one). */
export async function providerValues(db: DB, config: ServerConfig, name: string, values: Values = {}): Promise<Values> {
  const s = await allSettings(db)
  const out: Values = Object.fromEntries(s)
  const secret = SECRETS[name]!
  out[secret] = await getSecretSetting(db, config, secret)
  for (const [k, val] of Object.entries(values)) if (!(k === secret && !str(val))) out[k] = val
  return out
}

/** Sends a code through the chosen provider (SMS_BACKEND); false when that provider is not configured. */
export async function sendCode(db: DB, config: ServerConfig, phone: string, code: string): Promise<boolean> {
  const name = String((await allSettings(db)).get('SMS_BACKEND') ?? 'alibaba')
  const provider = PROVIDERS[name]
  if (!provider) throw new SmsError(`unknown SMS provider ${name}`)
  const values = await providerValues(db, config, name)
  if (!str(values[provider.keyField])) return false
  await provider.send(values, normalizePhone(phone), code, config)
  return true
}

/** "+86 138-0013 8000" → "+8613800138000". */
export const normalizePhone = (p: string) => p.replace(/[\s-]/g, '')
