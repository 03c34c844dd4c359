import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, type TestServer } from '../testing.ts'
import { authTestServer, bindOtp, encryptFor, englishClient, loginLogs, openLoginPage } from './test-support.ts'
import { totp } from './totp.ts'

let server: TestServer
beforeAll(async () => {
  server = await authTestServer()
})
afterAll(async () => {
  await server?.close()
})

const DATETIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/

describe('bearer tokens', () => {
  it('issues a token that authenticates API calls', async () => {
    const c = englishClient(server)
    const r = await c.post('/api/v1/authentication/auth/', { username: 'admin', password: ADMIN_PASSWORD })
    expect(r.statusCode).toBe(201)
    const body = r.json()
    expect(body).toMatchObject({ keyword: 'Bearer', user: { username: 'admin' } })
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(body.date_expired).toMatch(DATETIME)
    expect(Array.isArray(body.user.perms)).toBe(true)

    const api = server.client()
    api.headers.authorization = `Bearer ${body.token}`
    expect((await api.get('/api/v1/users/profile/')).json().username).toBe('admin')
    // no session, no CSRF: unsafe calls work with the token alone
    expect((await api.patch('/api/v1/users/profile/', { comment: 'via token' })).json().comment).toBe('via token')

    api.headers.authorization = 'Bearer not-a-real-token'
    const bad = await api.get('/api/v1/users/profile/')
    expect(bad.statusCode).toBe(401)
    expect(bad.json().code).toBe('authentication_failed')
    expect(await loginLogs(server, 'admin')).toMatchObject([{ type: 'T', status: true }])
  })

  it('accepts /tokens/ and hybrid-encrypted passwords', async () => {
    const c = englishClient(server)
    await openLoginPage(c)
    const r = await c.post('/api/v1/authentication/tokens/', { username: 'admin', password: encryptFor(c, ADMIN_PASSWORD) })
    expect(r.statusCode).toBe(201)
  })

  it('counts and logs failures like the web login', async () => {
    await server.createUser({ username: 'tok1', password: 'Passw0rd!' })
    const r = await englishClient(server).post('/api/v1/authentication/auth/', { username: 'tok1', password: 'nope' })
    expect(r.statusCode).toBe(400)
    expect(r.json().error).toContain('You can also try 6 times')
    expect(await loginLogs(server, 'tok1')).toMatchObject([{ type: 'T', status: false, reason: 'Username/password check failed' }])
  })

  it('needs the OTP code from users who have one', async () => {
    const id = await server.createUser({ username: 'tok2', password: 'Passw0rd!' })
    const secret = await bindOtp(server, id)
    const c = englishClient(server)
    const missing = await c.post('/api/v1/authentication/auth/', { username: 'tok2', password: 'Passw0rd!' })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ code: 'mfa_required', error: 'An MFA code is required' })
    const wrong = await c.post('/api/v1/authentication/auth/', { username: 'tok2', password: 'Passw0rd!', code: '12345x' })
    expect(wrong.json().code).toBe('mfa_invalid')
    const ok = await c.post('/api/v1/authentication/auth/', { username: 'tok2', password: 'Passw0rd!', code: totp(secret) })
    expect(ok.statusCode).toBe(201)
    expect(ok.json().user.is_otp_secret_key_bound).toBe(true)
  })
})
