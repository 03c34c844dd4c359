import { generateKeyPairSync, privateDecrypt, constants, createDecipheriv } from 'node:crypto'
import Cookies from 'js-cookie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { activateEnglish } from '../ui/common/testing.ts'
import { ApiError } from './client.ts'
import { MissingPublicKeyError } from './crypto.ts'
import {
  checkProtected,
  downloadFile,
  encryptImportSecrets,
  exportUrl,
  filenameFromDisposition,
  getConfirmMethods,
  importRow,
  renderToJson,
  sendSmsCode,
  submitConfirm,
  templateUrl,
  underList,
} from './transfer.ts'

interface Sent {
  url: URL
  method: string
  headers: Headers
  text: string
}

let sent: Sent[] = []
let answer: (req: Sent) => Response

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })

const NodeRequest = globalThis.Request
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
  }
}

const keys = generateKeyPairSync('rsa', { modulusLength: 1024 })
const cookie = `"${btoa(keys.publicKey.export({ type: 'spki', format: 'pem' }).toString())}"`

/** The server side of contract §6 (Node refuses PKCS#1 v1.5 private decryption by default, so raw RSA). */
function decrypt(value: string): string {
  const [rsa, aes] = value.split(':') as [string, string]
  const em = privateDecrypt({ key: keys.privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(rsa, 'base64'))
  const keyText = em.subarray(em.indexOf(0, 2) + 1).toString()
  const key = Buffer.alloc(16)
  Buffer.from(keyText).copy(key)
  const decipher = createDecipheriv('aes-128-ecb', key, null).setAutoPadding(false)
  const out = Buffer.concat([decipher.update(Buffer.from(aes, 'base64')), decipher.final()])
  return out.toString('utf8').replace(/\0+$/, '')
}

beforeEach(() => {
  activateEnglish()
  sent = []
  answer = () => json(200, {})
  vi.stubGlobal('Request', PageRequest)
  vi.stubGlobal('fetch', async (input: Request) => {
    const req = { url: new URL(input.url), method: input.method, headers: input.headers, text: await input.text() }
    sent.push(req)
    return answer(req)
  })
  Cookies.set('jms_public_key', cookie)
})

afterEach(() => {
  vi.unstubAllGlobals()
  Cookies.remove('jms_public_key')
})

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => undefined, (err: unknown) => err)
  expect(e).toBeInstanceOf(ApiError)
  return e as ApiError
}

describe('files', () => {
  it('posts the raw file to render-to-json with its content type and parses title pairs', async () => {
    answer = () => json(200, { title: [['*Name', 'name'], ['Email', 'email']], data: [{ name: 'a', email: 'a@x' }, 'junk'] })
    const file = new File(['*Name,Email\na,a@x\n'], 'users.csv')
    const out = await renderToJson('/api/v1/users/users/?oid=1', file)
    expect(out).toEqual({ title: [['*Name', 'name'], ['Email', 'email']], data: [{ name: 'a', email: 'a@x' }] })
    expect(sent[0]!.url.pathname + sent[0]!.url.search).toBe('/api/v1/users/users/render-to-json/?oid=1')
    expect(sent[0]!.headers.get('Content-Type')).toBe('text/csv')
    expect(sent[0]!.text).toBe('*Name,Email\na,a@x\n')
    await renderToJson('/api/v1/users/users/', new File(['PK'], 'users.xlsx'))
    expect(sent[1]!.headers.get('Content-Type')).toBe('text/xlsx')
  })

  it('turns a refused file into an error with the server text', async () => {
    answer = () => json(400, { detail: 'The file content overflowed (The maximum length `10485760` bytes)', code: 'file_content_overflowed' })
    const e = await failure(renderToJson('/api/v1/users/users/', new File(['x'], 'a.csv')))
    expect(e.status).toBe(400)
    expect(e.code).toBe('file_content_overflowed')
    expect(e.message).toContain('overflowed')
  })

  it('creates with POST and updates with PUT on the detail URL, body as given', async () => {
    await importRow('/api/v1/users/users/', 'create', { name: 'a' })
    await importRow('/api/v1/users/users/', 'update', { id: 'u-1', name: 'b' })
    expect(sent.map((r) => `${r.method} ${r.url.pathname}`)).toEqual(['POST /api/v1/users/users/', 'PUT /api/v1/users/users/u-1/'])
    expect(JSON.parse(sent[1]!.text)).toEqual({ id: 'u-1', name: 'b' })
    answer = () => json(400, { email: ['Enter a valid email address.'] })
    const e = await failure(importRow('/api/v1/users/users/', 'create', { name: 'c' }))
    expect(e.data).toEqual({ email: ['Enter a valid email address.'] })
    const noId = await failure(importRow('/api/v1/users/users/', 'update', { name: 'c' }))
    expect(noId.data).toEqual({ id: ['This field is required.'] })
    expect(sent).toHaveLength(3)
  })

  it('downloads a file with progress and its Content-Disposition name', async () => {
    const bytes = new Uint8Array(5000).fill(65)
    answer = () => new Response(bytes, { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Length': '5000', 'Content-Disposition': 'attachment; filename="User_2026-11-22_01-02-03.csv"' } })
    const progress: number[] = []
    const file = await downloadFile('/api/v1/users/users/?format=csv', 'csv', { onProgress: (p) => progress.push(p.loaded) })
    expect(file.filename).toBe('User_2026-11-22_01-02-03.csv')
    expect(file.blob.size).toBe(5000)
    expect(progress[progress.length - 1]).toBe(5000)
  })

  it('reports a JSON answer or an HTTP error instead of saving it as the file', async () => {
    answer = () => json(200, { error: 'Render failed' })
    expect((await failure(downloadFile('/x/?format=csv', 'csv'))).message).toBe('Render failed')
    answer = () => json(403, { detail: 'You do not have permission to perform this action.' })
    expect((await failure(downloadFile('/x/?format=csv', 'csv'))).status).toBe(403)
  })

  it('builds export and template URLs', () => {
    expect(exportUrl('/api/v1/users/users/', { search: 'a b', order: 'name' }, 'xlsx')).toBe('/api/v1/users/users/?search=a+b&order=name&format=xlsx')
    expect(templateUrl('/api/v1/users/users/', 'csv', 'import')).toBe('/api/v1/users/users/?format=csv&template=import&limit=1')
    expect(templateUrl('/api/v1/users/users/', 'xlsx', 'update', 'spm-1')).toBe('/api/v1/users/users/?format=xlsx&template=update&spm=spm-1')
    expect(underList('/api/v1/users/users', 'render-to-json/')).toBe('/api/v1/users/users/render-to-json/')
  })

  it('reads file names from Content-Disposition', () => {
    expect(filenameFromDisposition(`attachment; filename*=UTF-8''%E7%94%A8%E6%88%B7.csv`, 'f')).toBe('用户.csv')
    expect(filenameFromDisposition('attachment; filename=plain.xlsx', 'f')).toBe('plain.xlsx')
    expect(filenameFromDisposition(null, 'fallback.csv')).toBe('fallback.csv')
  })

  it('encrypts the secret fields of an import row so that the server can decrypt them', () => {
    const row = encryptImportSecrets({ name: 'a', password: 'P@ss-1', secret: '', private_key: 'KEY', token: 't' })
    expect(row.name).toBe('a')
    expect(row.secret).toBe('')
    expect(row.token).toBe('t')
    expect(decrypt(row.password as string)).toBe('P@ss-1')
    expect(decrypt(row.private_key as string)).toBe('KEY')
    Cookies.remove('jms_public_key')
    expect(() => encryptImportSecrets({ password: 'x' })).toThrow(MissingPublicKeyError)
  })
})

describe('confirm calls', () => {
  it('tells a confirmed session from one that needs a confirmation', async () => {
    answer = () => json(200, [])
    expect(await checkProtected('/api/v1/accounts/account-secrets/?limit=1')).toEqual({ kind: 'ok' })
    answer = () => json(400, { code: 'mfa', detail: 'This action require confirm current user' })
    expect(await checkProtected('/p/')).toEqual({ kind: 'confirm', confirmType: 'mfa' })
    answer = () => json(403, { detail: 'no', code: 'permission_denied' })
    expect((await failure(checkProtected('/p/'))).status).toBe(403)
    answer = () => json(400, { code: 'weird', detail: 'Odd' })
    expect((await failure(checkProtected('/p/'))).message).toBe('Odd')
  })

  it('reads the confirmation methods', async () => {
    answer = () => json(200, { confirm_type: 'mfa', content: [{ name: 'otp', display_name: 'OTP', disabled: false, placeholder: 'OTP code' }] })
    expect(await getConfirmMethods('mfa')).toEqual({ confirmType: 'mfa', methods: [{ name: 'otp', displayName: 'OTP', disabled: false, placeholder: 'OTP code' }] })
    expect(sent[0]!.url.search).toBe('?confirm_type=mfa')
    answer = () => json(200, { confirm_type: 'password', content: '' })
    expect(await getConfirmMethods('mfa')).toEqual({ confirmType: 'password', methods: [] })
  })

  it('sends the code encrypted, and nothing for relogin', async () => {
    await submitConfirm({ confirmType: 'mfa', mfaType: 'otp', secret: '123456' })
    await submitConfirm({ confirmType: 'password', mfaType: 'ignored', secret: 'pw' })
    await submitConfirm({ confirmType: 'relogin', secret: 'ignored' })
    await sendSmsCode()
    const bodies = sent.map((r) => JSON.parse(r.text) as Record<string, string>)
    expect(bodies[0]!.mfa_type).toBe('otp')
    expect(decrypt(bodies[0]!.secret_key!)).toBe('123456')
    expect(bodies[1]).not.toHaveProperty('mfa_type')
    expect(decrypt(bodies[1]!.secret_key!)).toBe('pw')
    expect(bodies[2]).toEqual({ confirm_type: 'relogin', secret_key: '' })
    expect(bodies[3]).toEqual({ type: 'sms' })
    expect(sent[3]!.url.pathname).toBe('/api/v1/authentication/mfa/select/')
  })
})
