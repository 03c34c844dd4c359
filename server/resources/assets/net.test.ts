/**
 * Connectivity over real SSH: a real OpenSSH server on loopback (server/testing/sshd.ts) serves as the gateway
 * and as the assets behind it; the privileged accounts come through the credential source the accounts module
 * installs (server/automation/credentials.ts), here filled by the test.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setCredentialSource, type AssetCredential } from '../../automation/credentials.ts'
import { freePort, startSshd, type Sshd, type SshdUser } from '../../testing/sshd.ts'
import { useTestServer } from '../../use-test-server.ts'

const s = useTestServer()
let sshd: Sshd
let user: SshdUser
const creds = new Map<string, AssetCredential>()
let previousSource: ReturnType<typeof setCredentialSource>

beforeAll(async () => {
  sshd = await startSshd()
  user = await sshd.addUser()
  previousSource = setCredentialSource(async (_db, ids) => new Map(ids.filter((id) => creds.has(id)).map((id) => [id, creds.get(id)!])))
}, 30_000)

afterAll(async () => {
  // Test files may share one module cache (the server project runs without isolation): put back what was there.
  setCredentialSource(previousSource)
  await sshd?.stop()
})

async function finished(task: string): Promise<{ state: string; log: string }> {
  for (let i = 0; i < 300; i++) {
    const r = (await s.admin.get(`/api/v1/ops/celery/task/x/task-execution/${task}/result/`)).json() as { state: string }
    if (r.state === 'SUCCESS' || r.state === 'FAILURE') {
      const log = (await s.admin.get(`/api/v1/ops/celery/task/x/task-execution/${task}/log/`)).json() as { data: string }
      return { state: r.state, log: log.data }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the task did not finish')
}

async function create(path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await s.admin.post(path, body)
  expect(r.statusCode, r.body).toBe(201)
  return r.json()
}

const connectivity = async (id: string) =>
  (await sql<{ connectivity: string; date_verified: Date | null }>`select connectivity, date_verified from assets where id = ${id}`.execute(s.t.database.db)).rows[0]!

describe('test connectivity over real SSH', () => {
  it('tests a gateway, assets through it, a wrong password and a closed port; records the result', async () => {
    const domain = await create('/api/v1/assets/domains/', { name: 'zone-a' })
    const gateway = await create('/api/v1/assets/gateways/', {
      name: 'gw-1', address: '127.0.0.1', domain: domain.id, protocols: [{ name: 'ssh', port: sshd.port }],
    })
    expect(gateway.platform.name).toBe('Gateway')
    // the target as the gateway sees it
    const behind = await create('/api/v1/assets/hosts/', {
      name: 'behind', address: 'localhost', platform: 1, domain: domain.id, protocols: [{ name: 'ssh', port: sshd.port }],
    })
    const closed = await create('/api/v1/assets/hosts/', {
      name: 'closed', address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: await freePort() }],
    })
    const direct = await create('/api/v1/assets/hosts/', {
      name: 'direct', address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd.port }],
    })
    const d = (await s.admin.get(`/api/v1/assets/domains/${domain.id}/`)).json() as Record<string, any>
    expect(d.gateways.map((g: { id: string }) => g.id)).toEqual([gateway.id])
    expect(d.assets.map((a: { id: string }) => a.id)).toEqual([behind.id])

    // the gateway without an account: the SSH handshake answers
    let r = await s.admin.post(`/api/v1/assets/gateways/${gateway.id}/test-connective/`, {})
    expect(r.statusCode, r.body).toBe(201)
    let done = await finished((r.json() as { task: string }).task)
    expect(done.log).toContain('SSH handshake')
    expect(done.log).toContain(sshd.hostKeyFingerprint)
    expect((await connectivity(gateway.id)).connectivity).toBe('ok')

    // behind the gateway, without the gateway's account: failed, and the log says why
    r = await s.admin.post(`/api/v1/assets/assets/${behind.id}/tasks/`, { action: 'test' })
    done = await finished((r.json() as { task: string }).task)
    expect(done.log).toContain('has no privileged account to log in with')
    expect(await connectivity(behind.id)).toMatchObject({ connectivity: 'err', date_verified: expect.any(Date) })

    // with accounts: a real login through the gateway
    creds.set(gateway.id, { username: user.username, privateKey: user.privateKey })
    creds.set(behind.id, { username: user.username, password: user.password })
    r = await s.admin.post('/api/v1/assets/assets/tasks/', { action: 'test', assets: [behind.id, closed.id] })
    expect(r.statusCode, r.body).toBe(201)
    done = await finished((r.json() as { task: string }).task)
    expect(done.state).toBe('SUCCESS')
    expect(done.log).toContain('through gateway gw-1')
    expect(done.log).toContain(`logged in as ${user.username}`)
    expect(done.log).toMatch(/closed \(127\.0\.0\.1\): failed[\s\S]*unreachable/)
    expect((await connectivity(behind.id)).connectivity).toBe('ok')
    expect((await connectivity(closed.id)).connectivity).toBe('err')

    // a wrong password: failed as auth
    creds.set(direct.id, { username: user.username, password: 'not-the-password' })
    r = await s.admin.post(`/api/v1/assets/assets/${direct.id}/tasks/`, { action: 'test' })
    done = await finished((r.json() as { task: string }).task)
    expect(done.log).toMatch(/direct \(127\.0\.0\.1\): failed[\s\S]*auth: authentication failed/)
    expect((await connectivity(direct.id)).connectivity).toBe('err')

    // a node's assets (descendants included) and the gateway's port override (a closed port)
    const root = ((await s.admin.get('/api/v1/assets/nodes/?limit=1')).json() as { results: Array<{ id: string }> }).results[0]!
    r = await s.admin.post(`/api/v1/assets/nodes/${root.id}/tasks/`, { action: 'test' })
    done = await finished((r.json() as { task: string }).task)
    expect(done.log).toContain('Testing the connectivity of 4 asset(s)')
    r = await s.admin.post(`/api/v1/assets/gateways/${gateway.id}/test-connective/`, { port: await freePort() })
    done = await finished((r.json() as { task: string }).task)
    expect(done.log).toContain('gw-1 (127.0.0.1): failed')
    expect((await connectivity(gateway.id)).connectivity).toBe('err')
  }, 60_000)

  it('refreshes the hardware info of a host over SSH (refresh), skipping a host without an account', async () => {
    const host = await create('/api/v1/assets/hosts/', { name: 'facts', address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })
    const bare = await create('/api/v1/assets/hosts/', { name: 'facts-bare', address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })
    creds.set(host.id, { username: user.username, password: user.password })
    const r = await s.admin.post('/api/v1/assets/assets/tasks/', { action: 'refresh', assets: [host.id, bare.id] })
    expect(r.statusCode, r.body).toBe(201)
    const done = await finished((r.json() as { task: string }).task)
    expect(done.state).toBe('SUCCESS')
    expect(done.log).toContain('facts (127.0.0.1): ok')
    expect(done.log).toContain('facts-bare (127.0.0.1): skipped, no privileged account to log in with')
    const info = ((await s.admin.get(`/api/v1/assets/hosts/${host.id}/`)).json() as { gathered_info: Record<string, unknown> }).gathered_info
    const { arch, machine } = await import('node:os').then((os) => ({ arch: os.machine(), machine: os.cpus().length }))
    expect(info).toMatchObject({ arch, cpu_vcpus: expect.any(Number), memory: expect.stringMatching(/^\d+\.\d\d G$/) })
    expect(Number(info.cpu_vcpus)).toBeGreaterThan(0)
    expect(Number(info.cpu_vcpus)).toBeLessThanOrEqual(machine)
    expect(String(info.distribution)).not.toBe('')
    expect(((await s.admin.get(`/api/v1/assets/hosts/${bare.id}/`)).json() as { gathered_info: unknown }).gathered_info).toEqual({})
  }, 60_000)

  it('refuses bad input with field errors', async () => {
    const host = await create('/api/v1/assets/hosts/', { name: 'h-bad', address: '127.0.0.1', platform: 1 })
    expect((await s.admin.post(`/api/v1/assets/assets/${host.id}/tasks/`, { action: 'nope' })).json()).toHaveProperty('action')
    expect((await s.admin.post('/api/v1/assets/assets/tasks/', { action: 'test', assets: [] })).statusCode).toBe(400)
    const unknown = await s.admin.post('/api/v1/assets/assets/tasks/', { action: 'test', assets: ['00000000-0000-0000-0000-00000000beef'] })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json()).toHaveProperty('assets')
    const gw = (await s.admin.get('/api/v1/assets/gateways/?limit=1')).json() as { results: Array<{ id: string }> }
    const bad = await s.admin.post(`/api/v1/assets/gateways/${gw.results[0]!.id}/test-connective/`, { port: 70000 })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toHaveProperty('port')
    // a gateway needs a domain
    const noDomain = await s.admin.post('/api/v1/assets/gateways/', { name: 'gw-x', address: '127.0.0.1' })
    expect(noDomain.statusCode).toBe(400)
    expect(noDomain.json()).toHaveProperty('domain')
  })
})

describe('labels and domains', () => {
  it('binds labels to assets, filters every asset list by them, refuses a duplicate pair', async () => {
    const prod = await create('/api/v1/assets/labels/', { name: 'env', value: 'prod' })
    const dev = await create('/api/v1/assets/labels/', { name: 'env', value: 'dev' })
    const dup = await s.admin.post('/api/v1/assets/labels/', { name: 'env', value: 'prod' })
    expect(dup.statusCode).toBe(400)
    expect(dup.json()).toHaveProperty('value')
    const a = await create('/api/v1/assets/hosts/', { name: 'lab-a', address: '10.0.0.1', platform: 1, labels: [prod.id] })
    await create('/api/v1/assets/hosts/', { name: 'lab-b', address: '10.0.0.2', platform: 1, labels: [dev.id] })
    expect(a.labels).toEqual([{ id: prod.id, name: 'env', value: 'prod' }])
    for (const path of ['/api/v1/assets/assets/', '/api/v1/assets/hosts/']) {
      const names = ((await s.admin.get(`${path}?labels=env:prod`)).json() as Array<{ name: string }>).map((x) => x.name)
      expect(names).toEqual(['lab-a'])
    }
    const both = ((await s.admin.get('/api/v1/assets/assets/?labels=env')).json() as Array<{ name: string }>).map((x) => x.name)
    expect(both).toEqual(expect.arrayContaining(['lab-a', 'lab-b']))
    const label = (await s.admin.get(`/api/v1/assets/labels/${prod.id}/`)).json() as Record<string, any>
    expect(label).toMatchObject({ asset_count: 1, assets: [{ id: a.id, name: 'lab-a' }], is_active: true })
    // the label's assets can be replaced from the label
    const patched = await s.admin.patch(`/api/v1/assets/labels/${prod.id}/`, { assets: [] })
    expect(patched.statusCode).toBe(200)
    expect(((await s.admin.get(`/api/v1/assets/hosts/${a.id}/`)).json() as { labels: unknown[] }).labels).toEqual([])
  })

  it('refuses to delete a domain that still has gateways; its other assets leave it when it goes', async () => {
    const zone = await create('/api/v1/assets/domains/', { name: 'zone-del' })
    const gw = await create('/api/v1/assets/gateways/', { name: 'gw-del', address: '10.2.0.1', domain: zone.id })
    const h = await create('/api/v1/assets/hosts/', { name: 'in-zone-del', address: '10.2.0.2', platform: 1, domain: zone.id })
    const refused = await s.admin.delete(`/api/v1/assets/domains/${zone.id}/`, { 'accept-language': 'zh' })
    expect(refused.statusCode).toBe(400)
    expect((refused.json() as { detail: string }).detail).toContain('网关')
    expect((await s.admin.get(`/api/v1/assets/domains/${zone.id}/`)).statusCode).toBe(200)
    expect(((await s.admin.get(`/api/v1/assets/gateways/${gw.id}/`)).json() as { domain: { id: string } }).domain.id).toBe(zone.id)
    expect((await s.admin.delete(`/api/v1/assets/gateways/${gw.id}/`)).statusCode).toBe(204)
    expect((await s.admin.delete(`/api/v1/assets/domains/${zone.id}/`)).statusCode).toBe(204)
    expect(((await s.admin.get(`/api/v1/assets/hosts/${h.id}/`)).json() as { domain: unknown }).domain).toBeNull()
  })

  it("moves assets into a domain from the domain, leaves its gateways alone", async () => {
    const zone = await create('/api/v1/assets/domains/', { name: 'zone-b' })
    const gw = await create('/api/v1/assets/gateways/', { name: 'gw-b', address: '10.1.0.1', domain: zone.id })
    const h = await create('/api/v1/assets/hosts/', { name: 'in-b', address: '10.1.0.2', platform: 1 })
    const r = await s.admin.patch(`/api/v1/assets/domains/${zone.id}/`, { assets: [h.id] })
    expect(r.statusCode, r.body).toBe(200)
    expect(((await s.admin.get(`/api/v1/assets/hosts/${h.id}/`)).json() as { domain: { id: string } }).domain.id).toBe(zone.id)
    await s.admin.patch(`/api/v1/assets/domains/${zone.id}/`, { assets: [] })
    expect(((await s.admin.get(`/api/v1/assets/gateways/${gw.id}/`)).json() as { domain: { id: string } }).domain.id).toBe(zone.id)
    expect(((await s.admin.get(`/api/v1/assets/hosts/${h.id}/`)).json() as { domain: unknown }).domain).toBeNull()
    // a gateway cannot be put into a domain's asset list, nor given another platform
    const asAsset = await s.admin.patch(`/api/v1/assets/domains/${zone.id}/`, { assets: [gw.id] })
    expect(asAsset.statusCode).toBe(400)
    const wrongPlatform = await s.admin.post('/api/v1/assets/gateways/', { name: 'gw-c', address: '10.1.0.3', domain: zone.id, platform: 1 })
    expect(wrongPlatform.statusCode).toBe(400)
    expect(wrongPlatform.json()).toHaveProperty('platform')
    expect((await s.admin.get(`/api/v1/assets/domains/?name=zone-b`)).json()).toMatchObject([{ gateways_amount: 1, assets_amount: 0 }])
  })
})
