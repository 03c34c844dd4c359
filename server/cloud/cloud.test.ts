/**
 * Cloud sync with the network-scan provider, for real: OpenSSH servers on loopback addresses 127.0.0.2 and
 * 127.0.0.3 (server/testing/sshd.ts) and a plain TCP listener on 127.0.0.4; the scans never leave 127.0.0.0/8.
 */
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, startSshd, type Sshd } from '../testing/sshd.ts'
import { dbKind } from '../testing.ts'
import { useTestServer } from '../use-test-server.ts'
import { ROLE_IDS } from '../rbac/catalog.ts'
import { sql } from 'kysely'
import { planAddresses, parseRange, rangeAllowed } from './netscan.ts'
import { guessPlatform } from './providers.ts'

const C = '/api/v1/xpack/cloud'

describe('the scan ranges and the allowed networks', () => {
  it('parses addresses, ranges and CIDRs and refuses what reaches outside', () => {
    expect(parseRange('127.0.0.0/30')).toEqual({ from: 0x7f000000, to: 0x7f000003 })
    expect(parseRange('127.0.0.2-127.0.0.4')).toEqual({ from: 0x7f000002, to: 0x7f000004 })
    expect(parseRange('300.1.1.1')).toBeUndefined()
    expect(rangeAllowed(parseRange('127.1.2.3')!, ['127.0.0.0/8'])).toBe(true)
    expect(rangeAllowed(parseRange('126.255.255.255-127.0.0.1')!, ['127.0.0.0/8'])).toBe(false)
    expect(planAddresses(['127.0.0.1', '10.0.0.0/24'], ['127.0.0.0/8'])).toMatchObject({ addresses: [], outside: ['10.0.0.0/24'] })
    expect(planAddresses(['127.0.0.0/16'], ['127.0.0.0/8']).tooMany).toBe(true)
    expect(planAddresses(['127.0.0.2-127.0.0.3'], ['127.0.0.0/8']).addresses).toEqual(['127.0.0.2', '127.0.0.3'])
  })

  it('guesses the platform from the banner, uname, then the ports', () => {
    expect(guessPlatform([{ port: 2222, banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3' }])).toBe('Linux')
    expect(guessPlatform([{ port: 22, banner: 'SSH-2.0-OpenSSH_for_Windows_8.1' }])).toBe('Windows')
    expect(guessPlatform([{ port: 22, banner: 'SSH-2.0-OpenSSH_9.6 FreeBSD-20240104' }])).toBe('BSD')
    expect(guessPlatform([{ port: 3389, banner: '' }])).toBe('Windows')
    expect(guessPlatform([{ port: 22, banner: 'SSH-2.0-OpenSSH_9.2' }], 'Darwin\n')).toBe('macOS')
  })
})

describe(`cloud sync by network scan (${dbKind()})`, () => {
  const s = useTestServer()
  let a: Sshd
  let b: Sshd
  let plain: Server
  let plainPort: number
  let nodeId: string
  let accountId: string

  beforeAll(async () => {
    a = await startSshd({ listenAddress: '127.0.0.2' })
    b = await startSshd({ listenAddress: '127.0.0.3' })
    plainPort = await freePort()
    plain = createServer((sock) => sock.on('error', () => undefined))
    await new Promise<void>((r) => plain.listen(plainPort, '127.0.0.4', r))
    const root = (await s.admin.get('/api/v1/assets/nodes/')).json() as Array<{ id: string }>
    const n = await s.admin.post(`/api/v1/assets/nodes/${root[0]!.id}/children/`, { value: 'Scanned' })
    expect(n.statusCode).toBe(201)
    nodeId = n.json().id
  }, 60_000)

  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await new Promise((r) => plain?.close(r))
  })

  async function runTask(id: string) {
    const r = await s.admin.get(`${C}/sync-instance-tasks/${id}/run/`)
    expect(r.statusCode).toBe(200)
    const task = r.json().task as string
    const until = Date.now() + 60_000 // a cap for a loaded machine, not a speed assertion
    for (;;) {
      const res = (await s.admin.get(`/api/v1/ops/celery/task/x/task-execution/${task}/result/`)).json()
      if (res.state === 'SUCCESS' || res.state === 'FAILURE') return res as { state: string; result: Record<string, number> }
      if (Date.now() > until) throw new Error(`task still ${res.state}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  const scanned = async () => (await s.admin.get(`/api/v1/assets/assets/?node=${nodeId}`)).json() as Array<Record<string, any>>

  it('registers the scan provider, refusing networks outside the allowed ones before any probe', async () => {
    const bad = await s.admin.post(`${C}/accounts/`, { name: 'outside', provider: 'lan', attrs: { ip_group: ['10.0.0.0/24'] } })
    expect(bad.statusCode).toBe(400)
    expect(JSON.stringify(bad.json())).toContain('10.0.0.0/24')
    const r = await s.admin.post(`${C}/accounts/`, {
      name: 'loopback', provider: 'lan', attrs: { ip_group: ['127.0.0.2-127.0.0.5'], port: [a.port, b.port, plainPort], username: 'nobody', password: 'not-returned' },
    })
    expect(r.statusCode).toBe(201)
    accountId = r.json().id
    expect(JSON.stringify(r.json())).not.toContain('not-returned')
    expect(JSON.stringify((await s.admin.get(`${C}/accounts/${accountId}/`)).json())).not.toContain('not-returned')
    expect((await s.admin.get(`${C}/accounts/${accountId}/test-connective/`)).statusCode).toBe(200)
    expect((await s.admin.get(`${C}/regions/?account_id=${accountId}`)).json()).toEqual({ regions: [{ id: '127.0.0.2-127.0.0.5', name: '127.0.0.2-127.0.0.5' }] })
    const other = await s.admin.post(`${C}/accounts/`, { name: 'aliyun', provider: 'aliyun', attrs: {} })
    expect(other.statusCode).toBe(400)
  })

  it('creates assets with the right platform, ports and node; a second run changes nothing; a stopped host is marked, then released', async () => {
    const t = await s.admin.post(`${C}/sync-instance-tasks/`, {
      name: 'scan loopback', account: accountId, regions: ['127.0.0.2-127.0.0.5'], node: nodeId, hostname_strategy: 'ip',
      protocols: [{ name: 'ssh', port: 22 }], release_assets: false,
    })
    expect(t.statusCode).toBe(201)
    const taskId = t.json().id as string
    const first = await runTask(taskId)
    expect(first.state).toBe('SUCCESS')
    expect(first.result).toEqual({ new: 3, sync: 0, unsync: 0, released: 0 })
    const assets = await scanned()
    const byAddress = Object.fromEntries(assets.map((x) => [x.address, x]))
    expect(Object.keys(byAddress).sort()).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4'])
    expect(byAddress['127.0.0.2'].platform.name).toBe('Linux')
    expect(byAddress['127.0.0.2'].protocols).toEqual([{ name: 'ssh', port: a.port }])
    expect(byAddress['127.0.0.3'].protocols).toEqual([{ name: 'ssh', port: b.port }])
    // no banner: the task's default protocols, the platform by its ports
    expect(byAddress['127.0.0.4'].protocols).toEqual([{ name: 'ssh', port: 22 }])
    const before = JSON.stringify(assets)

    const second = await runTask(taskId)
    expect(second.result).toEqual({ new: 0, sync: 3, unsync: 0, released: 0 })
    expect(JSON.stringify(await scanned())).toBe(before)

    const history = (await s.admin.get(`${C}/sync-instance-tasks/${taskId}/history/`)).json() as Array<Record<string, any>>
    expect(history.map((h) => h.summary)).toEqual([second.result, first.result])
    expect(history.every((h) => h.status === 1)).toBe(true)

    await b.stop()
    const third = await runTask(taskId)
    expect(third.result).toEqual({ new: 0, sync: 2, unsync: 0, released: 1 })
    const instances = (await s.admin.get(`${C}/sync-instance-tasks/${taskId}/instances/`)).json() as Array<Record<string, any>>
    expect(instances.find((i) => i.instance_id === '127.0.0.3')!.status).toBe(3)
    expect((await scanned()).map((x) => x.address).sort()).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4'])

    expect((await s.admin.delete(`${C}/sync-instance-tasks/${taskId}/released-assets/`)).statusCode).toBe(204)
    expect((await scanned()).map((x) => x.address).sort()).toEqual(['127.0.0.2', '127.0.0.4'])
  }, 120_000)

  it('releases at once when the task says so', async () => {
    const t = await s.admin.post(`${C}/sync-instance-tasks/`, {
      name: 'scan and release', account: accountId, regions: ['127.0.0.4'], node: nodeId, release_assets: true,
    })
    const taskId = t.json().id as string
    const first = await runTask(taskId)
    // the listener's asset is already under the node (the other task's): adopted, not duplicated
    expect(first.result).toEqual({ new: 0, sync: 1, unsync: 0, released: 0 })
    await new Promise((r) => plain.close(r))
    const second = await runTask(taskId)
    expect(second.result).toEqual({ new: 0, sync: 0, unsync: 0, released: 1 })
    expect((await scanned()).map((x) => x.address)).toEqual(['127.0.0.2'])
  }, 120_000)

  it('refuses a run whose regions left the allowed networks, before any probe', async () => {
    const t = await s.admin.post(`${C}/sync-instance-tasks/`, { name: 'narrowed', account: accountId, regions: ['127.0.0.2'], node: nodeId })
    expect(t.statusCode).toBe(201)
    const taskId = t.json().id as string
    const set = await s.admin.patch('/api/v1/settings/setting/?category=other', { CLOUD_SCAN_ALLOWED_NETWORKS: ['127.0.0.9'] })
    expect(set.statusCode).toBe(200)
    const r = await runTask(taskId)
    expect(r.state).toBe('FAILURE')
    expect((await s.admin.get(`${C}/sync-instance-tasks/${taskId}/instances/`)).json()).toEqual([])
    const edit = await s.admin.patch(`${C}/sync-instance-tasks/${taskId}/`, { regions: ['127.0.0.2'] })
    expect(edit.statusCode).toBe(400)
    expect(edit.json().regions[0]).toContain('127.0.0.2')
    expect((await s.admin.patch('/api/v1/settings/setting/?category=other', { CLOUD_SCAN_ALLOWED_NETWORKS: ['127.0.0.0/8'] })).statusCode).toBe(200)
  }, 60_000)

  it('keeps one schedule row per periodic task (the task system fires it once across processes)', async () => {
    const t = await s.admin.post(`${C}/sync-instance-tasks/`, { name: 'hourly', account: accountId, regions: ['127.0.0.5'], node: nodeId, is_periodic: true, interval: 1 })
    expect(t.statusCode).toBe(201)
    const name = `xpack.cloud.tasks.sync_instance_task:${t.json().id}`
    const row = async () => (await sql<{ enabled: boolean; interval: number | null }>`select enabled, "interval" from celery_tasks where name = ${name}`.execute(s.t.database.db)).rows
    expect(await row()).toEqual([{ enabled: true, interval: 1 }])
    expect((await s.admin.delete(`${C}/sync-instance-tasks/${t.json().id}/`)).statusCode).toBe(204)
    expect(await row()).toEqual([])
  })

  it('an organization administrator can neither widen the allowed networks nor scan outside them', async () => {
    await s.t.createUser({ username: 'cloud-orgadmin', systemRoles: [ROLE_IDS.User], orgRoles: [ROLE_IDS.OrgAdmin] })
    const org = await s.t.as('cloud-orgadmin')
    expect((await org.patch('/api/v1/settings/setting/?category=other', { CLOUD_SCAN_ALLOWED_NETWORKS: ['*'] })).statusCode).toBe(403)
    const r = await org.post(`${C}/accounts/`, { name: 'org-outside', provider: 'lan', attrs: { ip_group: ['192.168.0.0/24'] } })
    // the catalogue gives cloud sync to system administrators only (xpack): refused before anything is checked
    expect(r.statusCode).toBe(403)
    expect((await org.get(`${C}/sync-instance-tasks/`)).statusCode).toBe(403)
    // without the cloud permissions, nothing is listed and nothing runs
    await s.t.createUser({ username: 'cloud-user', systemRoles: [ROLE_IDS.User] })
    const user = await s.t.as('cloud-user')
    expect((await user.get(`${C}/regions/?account_id=${accountId}`)).statusCode).toBe(403)
  })

  it('with a login, the platform comes from uname over SSH', async () => {
    const user = await a.addUser()
    const acc = await s.admin.post(`${C}/accounts/`, { name: 'with-login', provider: 'lan', attrs: { ip_group: ['127.0.0.2'], port: [a.port], username: user.username, password: user.password } })
    expect(acc.statusCode).toBe(201)
    expect(JSON.stringify(acc.json())).not.toContain(user.password)
    const root = (await s.admin.get('/api/v1/assets/nodes/')).json() as Array<{ id: string }>
    const node = (await s.admin.post(`/api/v1/assets/nodes/${root[0]!.id}/children/`, { value: 'With login' })).json().id as string
    const t = await s.admin.post(`${C}/sync-instance-tasks/`, { name: 'with login', account: acc.json().id, regions: ['127.0.0.2'], node })
    const run = await s.admin.get(`${C}/sync-instance-tasks/${t.json().id}/run/`)
    const task = run.json().task as string
    const until = Date.now() + 60_000 // a cap for a loaded machine, not a speed assertion
    let log = ''
    let mark = '0'
    for (;;) {
      const r = (await s.admin.get(`/api/v1/ops/celery/task/x/task-execution/${task}/log/?mark=${mark}`)).json() as { data: string; end: boolean; mark: string }
      log += r.data
      mark = r.mark
      if (r.end) break
      if (Date.now() > until) throw new Error(`no end: ${log}`)
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(log).toContain('127.0.0.2: uname -s over SSH: Linux')
    const assets = (await s.admin.get(`/api/v1/assets/assets/?node=${node}`)).json() as Array<Record<string, any>>
    expect(assets.map((x) => [x.address, x.platform.name])).toEqual([['127.0.0.2', 'Linux']])
  }, 60_000)
})
