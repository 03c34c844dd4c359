import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer } from '../auth/test-support.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { parsePorts } from './tools.ts'

const listen = (srv: Server) => new Promise<number>((r) => srv.listen(0, '127.0.0.1', () => r((srv.address() as { port: number }).port)))
/** A loopback port that was open a moment ago and is closed now. */
async function closedPort(): Promise<number> {
  const s = createServer()
  const port = await listen(s)
  await new Promise((r) => s.close(r))
  return port
}

describe(`Settings → Tools against real sockets (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient
  let banner: Server
  let port: number
  let closed: number

  beforeAll(async () => {
    server = await authTestServer()
    admin = await asEnglish(server, 'admin')
    banner = createServer((s) => { s.on('error', () => {}); s.end('SSH-2.0-TestBanner\r\n') })
    port = await listen(banner)
    closed = await closedPort()
  })
  afterAll(async () => {
    await new Promise((r) => banner?.close(r))
    await server?.close()
  })

  it('telnet connects to a listening loopback port and shows its banner; a closed port is refused', async () => {
    const r = await admin.post('/api/v1/settings/tools/telnet/', { dest_ip: '127.0.0.1', dest_port: port })
    expect(r.statusCode, r.body).toBe(200)
    expect(r.json().ok).toBe(true)
    expect(r.json().lines.join('\n')).toMatch(new RegExp(`Connected to 127.0.0.1 port ${port} in [\\d.]+ ms\\nSSH-2.0-TestBanner`))
    const no = (await admin.post('/api/v1/settings/tools/telnet/', { dest_ip: '127.0.0.1', dest_port: closed })).json()
    expect(no).toEqual({ ok: false, lines: [`Trying 127.0.0.1 port ${closed}...`, 'Connection failed: connection refused'] })
  })

  it('ping counts connects; nmap finds exactly the open ports; zh output', async () => {
    const ping = (await admin.post('/api/v1/settings/tools/ping/', { dest_ip: 'localhost', dest_port: port, count: 3, timeout: 2 })).json()
    expect(ping.ok).toBe(true)
    expect(ping.lines).toContain('3 sent, 3 connected, 0% loss')
    const scan = (await admin.post('/api/v1/settings/tools/nmap/', { dest_ip: '127.0.0.1', dest_ports: `${closed},${port}` })).json()
    expect(scan.lines).toEqual(['Scanning 2 port(s) of 127.0.0.1 (127.0.0.1)', `${port}/tcp open`, '1 open, 1 closed or filtered'])
    const zh = await server.as('admin')
    expect((await zh.post('/api/v1/settings/tools/nmap/', { dest_ip: '127.0.0.1', dest_ports: String(port) })).json().lines[1]).toBe(`${port}/tcp 开放`)
  })

  it('bad input is a field error; the permission is checked first', async () => {
    const bad = await admin.post('/api/v1/settings/tools/nmap/', { dest_ip: '-oX /tmp/x', dest_ports: '1-70000', timeout: 99 })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(['dest_ip', 'dest_ports', 'timeout'])
    expect((await admin.post('/api/v1/settings/tools/ping/', { dest_ip: '127.0.0.1', count: 1000 })).statusCode).toBe(400)
    expect((await admin.post('/api/v1/settings/tools/rm/', { dest_ip: '127.0.0.1' })).statusCode).toBe(404)
    expect(parsePorts('1-1024')).toHaveLength(1024)
    expect(parsePorts('1-1025')).toBeNull()
    await server.createUser({ username: 'auditor', systemRoles: ['00000000-0000-0000-0000-000000000002'] })
    const aud = await asEnglish(server, 'auditor')
    expect((await aud.post('/api/v1/settings/tools/telnet/', { dest_ip: 'x'.repeat(5000) })).statusCode).toBe(403)
    expect((await server.client().post('/api/v1/settings/tools/telnet/', { dest_ip: '127.0.0.1', dest_port: port })).statusCode).toBe(401)
  })
})
