/**
 * The HTTP edge over real sockets (issue 16 points 4, 8 and 10): forwarded headers only from trusted proxies,
 * framing and content policies on every page, and an oversized upload answered with a readable 400.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTrustedProxies } from '../config.ts'
import { setSettings } from '../settings/store.ts'
import { createTestServer, dbKind, type TestServer } from '../testing.ts'

const PW = 'Str0ng-Passw0rd!'

function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sec-dist-'))
  mkdirSync(join(dir, 'assets'))
  for (const f of ['index.html', 'login.html']) writeFileSync(join(dir, f), '<!doctype html><title>x</title>')
  return dir
}

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: string; error?: string }

/** A plain node:http client: sends `size` bytes in 64 KiB chunks and reads whatever answer comes. */
function upload(port: number, path: string, size: number, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent: false,
      headers: { 'content-type': 'text/csv', 'content-length': String(size), ...headers } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      res.on('error', (e) => resolve({ status: res.statusCode!, headers: res.headers, body, error: e.message }))
    })
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, headers: {}, body: '', error: e.code ?? e.message }))
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    let sent = 0
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent)
        sent += n
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump)
      }
      req.end()
    }
    pump()
  })
}

/**
 * A naive client over a raw socket: writes the headers and the whole body, then reads the answer (as many
 * scripts and simple HTTP libraries do). A server that answers and closes early makes it fail with EPIPE.
 */
function naiveUpload(port: number, path: string, size: number, headers: Record<string, string>): Promise<{ error?: string; answer: string }> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1')
    let answer = ''
    let error: string | undefined
    sock.on('data', (d) => (answer += d.toString()))
    sock.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message))
    sock.on('close', () => resolve({ error, answer }))
    const head = Object.entries({ Host: '127.0.0.1', 'Content-Type': 'text/csv', 'Content-Length': String(size), Connection: 'close', ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`).join('')
    sock.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`)
    const chunk = Buffer.alloc(1024 * 1024, 0x61)
    let sent = 0
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent)
        sent += n
        if (!sock.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void sock.once('drain', pump)
      }
    }
    pump()
  })
}

describe(`the HTTP edge (${dbKind()})`, () => {
  let t: TestServer
  let port: number
  let cookie: string
  const probes = { requests: 0, fiveHundreds: 0 }

  beforeAll(async () => {
    t = await createTestServer({ distDir: fakeDist() })
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    port = (t.app.server.address() as AddressInfo).port
    const admin = await t.as('admin')
    cookie = `jms_sessionid=${admin.jar.get('jms_sessionid')}; jms_csrftoken=test-csrf-token`
  })
  afterAll(async () => {
    console.info(`http edge probes: ${probes.requests} requests, ${probes.fiveHundreds} 5xx`)
    await t.close()
  })

  it('an oversized upload gets the 400, not a broken pipe, every time (point 10)', async () => {
    for (let i = 0; i < 8; i++) {
      const r = await upload(port, '/api/v1/users/users/render-to-json/', 12 * 1024 * 1024, { cookie, 'x-csrftoken': 'test-csrf-token', 'accept-language': 'en' })
      probes.requests++
      expect(r.error, `round ${i}`).toBeUndefined()
      expect(r.status).toBe(400)
      expect(JSON.parse(r.body)).toEqual({ detail: 'The file content overflowed (The maximum length `10485760` bytes)', code: 'file_content_overflowed' })
    }
  })

  it('a client that sends the whole oversized body before reading gets the 400, never EPIPE (point 10)', async () => {
    for (let i = 0; i < 6; i++) {
      const r = await naiveUpload(port, '/api/v1/users/users/render-to-json/', 12 * 1024 * 1024, { Cookie: cookie, 'X-CSRFToken': 'test-csrf-token', 'Accept-Language': 'en' })
      probes.requests++
      expect(r.error, `round ${i}`).toBeUndefined()
      expect(r.answer).toMatch(/^HTTP\/1\.1 400 /)
      expect(r.answer).toContain('"code":"file_content_overflowed"')
    }
    const anon = await naiveUpload(port, '/api/v1/users/users/render-to-json/', 4 * 1024 * 1024, {})
    expect(anon.error).toBeUndefined()
    expect(anon.answer).toMatch(/^HTTP\/1\.1 401 /)
  })

  it('an upload refused before its body is read (not signed in) is answered readably too', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await upload(port, '/api/v1/users/users/render-to-json/', 4 * 1024 * 1024)
      probes.requests++
      expect(r.error, `round ${i}`).toBeUndefined()
      expect(r.status).toBe(401)
    }
  })

  it('pages and API answers carry framing, content-type and referrer policies (point 8)', async () => {
    for (const path of ['/ui/', '/ui/users/users', '/core/auth/login/', '/api/v1/settings/public/open/']) {
      const r = await fetch(`http://127.0.0.1:${port}${path}`, { redirect: 'manual' })
      probes.requests++
      expect(r.headers.get('x-frame-options'), path).toBe('DENY')
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(r.headers.get('referrer-policy'), path).toBe('same-origin')
      const csp = r.headers.get('content-security-policy') ?? ''
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(csp, path).toContain("script-src 'self'")
      expect(csp, path).not.toContain("script-src 'self' 'unsafe-inline'")
    }
  })

  it('X-Forwarded-For and X-Forwarded-Host are ignored from an untrusted peer (point 4)', async () => {
    await setSettings(t.database.db, { SECURITY_LOGIN_IP_LIMIT_COUNT: 3 })
    const login = (username: string, password: string, xff: string) => fetch(`http://127.0.0.1:${port}/api/v1/authentication/auth/`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': xff }, body: JSON.stringify({ username, password }),
    })
    for (let i = 0; i < 3; i++) expect((await login(`ghost${i}`, 'wrong', `203.0.113.${i + 1}`)).status).toBe(400)
    // The peer (127.0.0.1) reached the limit whatever the header claimed (an address block refuses usernames that
    // do not exist, issue 36).
    const blocked = await login('ghost-new', 'whatever', '203.0.113.200')
    expect((await blocked.json()).code).toBe('ip_blocked')
    probes.requests += 4
    const ips = (await sql<{ ip: string }>`select distinct ip from login_logs`.execute(t.database.db)).rows.map((r) => r.ip)
    expect(ips).toEqual(['127.0.0.1'])
    await sql`delete from login_failures`.execute(t.database.db)

    const list = await fetch(`http://127.0.0.1:${port}/api/v1/rbac/roles/?limit=1`, {
      headers: { cookie, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', 'x-jms-org': 'ROOT' },
    })
    probes.requests++
    const next = (await list.json()).next as string
    expect(next).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/api/v1/rbac/roles/\\?`))
  })

  it('TRUSTED_PROXIES is parsed strictly and empty by default', () => {
    expect(parseTrustedProxies(undefined)).toEqual([])
    expect(parseTrustedProxies('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1'])
    expect(() => parseTrustedProxies('10.0.0.0/8,*')).toThrow(/TRUSTED_PROXIES/)
    expect(t.config.trustedProxies).toEqual([])
  })
})

describe('behind a trusted proxy', () => {
  it('believes X-Forwarded-For and -Host from the configured proxy only', async () => {
    const t = await createTestServer({ trustedProxies: ['127.0.0.1'] })
    try {
      await t.createUser({ username: 'proxied', password: PW })
      const r = await t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.50' }, payload: { username: 'proxied', password: PW } })
      expect(r.statusCode).toBe(201)
      const untrusted = await t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', remoteAddress: '192.0.2.9',
        headers: { 'x-forwarded-for': '203.0.113.51' }, payload: { username: 'proxied', password: PW } })
      expect(untrusted.statusCode).toBe(201)
      const ips = (await sql<{ ip: string }>`select ip from login_logs order by datetime`.execute(t.database.db)).rows.map((x) => x.ip)
      expect(ips).toEqual(['203.0.113.50', '192.0.2.9'])
    } finally {
      await t.close()
    }
  })
})
