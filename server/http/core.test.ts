import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestServer, dbKind, type TestServer } from '../testing.ts'

describe(`HTTP core (${dbKind()})`, () => {
  let t: TestServer
  beforeAll(async () => { t = await createTestServer() })
  afterAll(async () => { await t.close() })

  it('answers health on both paths', async () => {
    for (const url of ['/api/health/', '/api/v1/health/']) {
      const r = await t.client().get(url)
      expect(r.statusCode).toBe(200)
      expect(r.json().status).toBe('ok')
    }
  })

  it('redirects / to /ui/', async () => {
    const r = await t.client().get('/')
    expect(r.statusCode).toBe(302)
    expect(r.headers.location).toBe('/ui/')
  })

  it('answers unknown API paths with a DRF 404 body, never HTML', async () => {
    const r = await t.client().get('/api/v1/nothing/here/')
    expect(r.statusCode).toBe(404)
    expect(r.headers['content-type']).toMatch(/json/)
    expect(r.json()).toMatchObject({ code: 'not_found' })
  })

  it('refuses malformed JSON with 400 and a parse_error body', async () => {
    const c = await t.as('admin')
    const r = await c.request({ method: 'POST', url: '/api/v1/common/resources/cache/', payload: '{"resources": [', headers: { 'content-type': 'application/json' } })
    expect(r.statusCode).toBe(400)
    expect(r.json()).toMatchObject({ code: 'parse_error' })
  })

  it('refuses an oversized JSON body with a JSON 413, not HTML or 500', async () => {
    const c = await t.as('admin')
    const big = JSON.stringify({ resources: ['x'.repeat(t.config.bodyLimit + 10)] })
    const r = await c.request({ method: 'POST', url: '/api/v1/common/resources/cache/', payload: big, headers: { 'content-type': 'application/json' } })
    expect(r.statusCode).toBe(413)
    expect(r.json()).toMatchObject({ code: 'payload_too_large' })
  })

  it('treats a session request without the CSRF header as anonymous (401 with WWW-Authenticate)', async () => {
    const c = await t.as('admin')
    const r = await c.request({ method: 'POST', url: '/api/v1/common/resources/cache/', json: { resources: [] }, headers: { 'x-csrftoken': '' } })
    expect(r.statusCode).toBe(401)
    expect(r.headers['www-authenticate']).toMatch(/Bearer/)
    const foreign = await c.request({ method: 'POST', url: '/api/v1/common/resources/cache/', json: { resources: [] }, headers: { 'x-csrftoken': 'someone-elses-token' } })
    expect(foreign.statusCode).toBe(401)
  })

  it('translates error details by the request language', async () => {
    const r = await t.client().get('/api/v1/users/profile/', { 'accept-language': 'ja' })
    expect(r.statusCode).toBe(401)
    expect(r.json().detail).toBe('認証情報が提供されていません。')
    const zh = await t.client().get('/api/v1/users/profile/', { cookie: 'django_language=zh-hans' })
    expect(zh.json().detail).toBe('身份认证信息未提供。')
  })

  it('publishes the session public key, CSRF token and cookie prefix on page responses', async () => {
    const c = t.client()
    const r = await c.get('/ui/console/users/users')
    expect([200, 503]).toContain(r.statusCode)
    const pem = Buffer.from(c.jar.get('jms_public_key')!, 'base64').toString('utf8')
    expect(pem).toContain('BEGIN PUBLIC KEY')
    expect(c.jar.get('jms_csrftoken')).toMatch(/^[\w-]{20,}$/)
    expect(c.jar.get('SESSION_COOKIE_NAME_PREFIX')).toBe('jms_')
    const session = r.cookies.find((k) => k.name === 'jms_sessionid') as { httpOnly?: boolean } | undefined
    expect(session?.httpOnly).toBe(true)
    // The same session keeps its key on the next page.
    const key = c.jar.get('jms_public_key')
    await c.get('/ui/')
    expect(c.jar.get('jms_public_key')).toBe(key)
  })
})
