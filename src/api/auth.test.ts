import { generateKeyPairSync } from 'node:crypto'
import Cookies from 'js-cookie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '@lingui/core'
import { AuthError, fetchOpenSettings, login, loginMfa, parseLoginAnswer, parseOpenSettings } from './auth.ts'

interface Sent {
  url: string
  method: string
  headers: Headers
  body: unknown
}

let sent: Sent[] = []
let answer: () => Response | Promise<Response>

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

const publicKeyCookie = (() => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString()
  return `"${btoa(pem)}"`
})()

/** Browsers resolve relative URLs against the page; Node's Request does not, so the test does it. */
const NodeRequest = globalThis.Request
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
  }
}

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  sent = []
  vi.stubGlobal('Request', PageRequest)
  answer = () => json(200, { ok: true, next: '/ui/' })
  vi.stubGlobal('fetch', async (input: Request) => {
    const text = await input.text()
    sent.push({ url: input.url, method: input.method, headers: input.headers, body: text ? JSON.parse(text) : undefined })
    return answer()
  })
  Cookies.set('jms_csrftoken', 'csrf-1')
})

afterEach(() => {
  vi.unstubAllGlobals()
  Cookies.remove('jms_csrftoken')
  Cookies.remove('jms_public_key')
})

async function failure(p: Promise<unknown>): Promise<AuthError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AuthError)
  return e as AuthError
}

describe('parsers', () => {
  it('reads the open settings with safe defaults', () => {
    expect(parseOpenSettings({ XPACK_ENABLED: true, INTERFACE: { login_title: 'T', logo_logout: '/l.png', favicon: '/f.ico', login_image: 7 } })).toEqual({
      xpackEnabled: true,
      branding: { title: 'T', logo: '/l.png', favicon: '/f.ico', loginImage: '' },
      methods: [],
    })
    const methods = [{ name: 'openid', title: 'OpenID', url: '/core/auth/openid/login/' }, { name: 'evil', title: 'X', url: '//evil.example/' }, 'x']
    expect(parseOpenSettings({ LOGIN_METHODS: methods })?.methods).toEqual([{ name: 'openid', title: 'OpenID', url: '/core/auth/openid/login/' }])
    expect(parseOpenSettings({})?.branding.title).toBe('')
    expect(parseOpenSettings('nope')).toBeUndefined()
  })

  it('tells a final answer from an MFA request', () => {
    expect(parseLoginAnswer({ ok: true, next: '/ui/x' })).toEqual({ kind: 'done', next: '/ui/x' })
    expect(parseLoginAnswer({ ok: true })).toEqual({ kind: 'done', next: '/ui/' })
    expect(parseLoginAnswer({ mfa_required: true, methods: ['otp', 3] })).toEqual({ kind: 'mfa', methods: ['otp'] })
    expect(parseLoginAnswer({ mfa_required: true })).toEqual({ kind: 'mfa', methods: ['otp'] })
    expect(parseLoginAnswer({ ok: false })).toBeUndefined()
  })
})

describe('login', () => {
  it('sends the password encrypted, with CSRF and next', async () => {
    Cookies.set('jms_public_key', publicKeyCookie)
    answer = () => json(200, { mfa_required: true, methods: ['otp'] })
    await expect(login({ username: 'admin', password: 'Secret-1', next: '/ui/x' })).resolves.toEqual({ kind: 'mfa', methods: ['otp'] })
    const req = sent[0]!
    expect(req.method).toBe('POST')
    expect(new URL(req.url).pathname).toBe('/api/v1/authentication/login/')
    expect(req.headers.get('X-CSRFToken')).toBe('csrf-1')
    const body = req.body as { username: string; password: string; next: string }
    expect(body.username).toBe('admin')
    expect(body.next).toBe('/ui/x')
    expect(body.password).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/)
    expect(body.password).not.toContain('Secret-1')
  })

  it('omits an empty next', async () => {
    Cookies.set('jms_public_key', publicKeyCookie)
    await login({ username: 'a', password: 'b' })
    expect(sent[0]!.body).not.toHaveProperty('next')
  })

  it('refuses to send anything without the public key', async () => {
    const e = await failure(login({ username: 'admin', password: 'Secret-1' }))
    expect(e.code).toBe('missing_public_key')
    expect(e.status).toBe(0)
    expect(sent).toHaveLength(0)
  })

  it('reports an unusable public key', async () => {
    Cookies.set('jms_public_key', '"bm90IGEga2V5"')
    const e = await failure(login({ username: 'admin', password: 'x' }))
    expect(e.code).toBe('invalid_public_key')
    expect(sent).toHaveLength(0)
  })

  it('normalises server refusals into status, code and message', async () => {
    Cookies.set('jms_public_key', publicKeyCookie)
    answer = () => json(400, { error: 'The username or password you entered is incorrect', code: 'invalid_credentials' })
    const e = await failure(login({ username: 'admin', password: 'bad' }))
    expect([e.status, e.code, e.message]).toEqual([400, 'invalid_credentials', 'The username or password you entered is incorrect'])

    answer = () => json(403, { detail: 'CSRF Failed', code: 'csrf_failed' })
    expect((await failure(login({ username: 'admin', password: 'bad' }))).code).toBe('csrf_failed')

    answer = () => json(400, { code: 'x', username: ['This field is required.'] })
    expect((await failure(login({ username: '', password: 'bad' }))).message).toBe('Request error, please check what you filled in')

    answer = () => new Response('<html>boom</html>', { status: 502 })
    const html = await failure(login({ username: 'admin', password: 'bad' }))
    expect([html.status, html.code, html.message]).toEqual([502, 'http_502', 'Server error, please try again later'])
  })

  it('turns a dead network into network_error and a strange answer into bad_response', async () => {
    Cookies.set('jms_public_key', publicKeyCookie)
    answer = () => Promise.reject(new TypeError('Failed to fetch'))
    const dead = await failure(login({ username: 'a', password: 'b' }))
    expect([dead.status, dead.code, dead.message]).toEqual([0, 'network_error', 'Cannot reach the server, please check your network'])
    answer = () => json(200, { hello: 'world' })
    expect((await failure(login({ username: 'a', password: 'b' }))).code).toBe('bad_response')
  })
})

describe('loginMfa and settings', () => {
  it('posts the code as is and accepts only a final answer', async () => {
    answer = () => json(200, { ok: true, next: '/ui/profile/' })
    await expect(loginMfa('123456')).resolves.toEqual({ kind: 'done', next: '/ui/profile/' })
    expect(sent[0]!.body).toEqual({ code: '123456' })
    expect(new URL(sent[0]!.url).pathname).toBe('/api/v1/authentication/login/mfa/')

    answer = () => json(200, { mfa_required: true })
    expect((await failure(loginMfa('123456'))).code).toBe('bad_response')

    answer = () => json(400, { error: 'MFA code expired', code: 'mfa_expired' })
    expect((await failure(loginMfa('123456'))).code).toBe('mfa_expired')
  })

  it('loads the open settings', async () => {
    answer = () => json(200, { XPACK_ENABLED: false, INTERFACE: { login_title: 'Bastion', logo_logout: '/static/img/logo.png' } })
    const s = await fetchOpenSettings()
    expect(s.branding.title).toBe('Bastion')
    expect(sent[0]!.method).toBe('GET')
    expect(new URL(sent[0]!.url).pathname).toBe('/api/v1/settings/public/open/')
  })
})
