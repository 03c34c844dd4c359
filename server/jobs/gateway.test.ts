/**
 * Playbooks on hosts behind a gateway (issue 33; docs/jobs.md): a real sshd as the gateway, another as the host, and
 * Debian's real `ansible-playbook`. The server logs in to the host through the gateway first (host key and account
 * checked), opens a loopback forward through the gateway for the host, and points Ansible's inventory at it; the
 * forward closes in every outcome (success, failure, stop). Also the tunnel itself (server/automation/ssh.ts).
 */
import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTunnel, SshError, sshLogin } from '../automation/ssh.ts'
import { TASK_LOG_SOCKET_PATH } from '../tasks/socket.ts'
import { runAnsiblePlaybook } from './ansible.ts'
import { freePort, startSshd, type Sshd, type SshdUser } from '../testing/sshd.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { followTaskLog } from '../testing/task-log.ts'

const follow = async (url: string, c: TestClient, task: string, onText?: (sofar: string) => void) => (await followTaskLog(url, c, task, onText)).text

/** Whether a TCP connection to 127.0.0.1:port is accepted (false when refused). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port })
    s.once('connect', () => { s.destroy(); resolve(true) })
    s.once('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNREFUSED' ? resolve(false) : reject(e)))
  })
}

const accepted = (sshd: Sshd, user: string) => sshd.log().split('\n').filter((l) => l.includes(`Accepted `) && l.includes(` for ${user} from`)).length

describe('playbooks through a gateway', () => {
  let t: TestServer
  let admin: TestClient
  let op: TestClient
  let gw: Sshd
  let target: Sshd
  let gwUser: SshdUser
  let hostUser: SshdUser
  let wsUrl: string
  let dir: string
  let gatewayId: string
  const ids: Record<string, string> = {}

  const made = async (url: string, body: Record<string, unknown>) => {
    const r = await admin.post(url, body)
    expect(r.statusCode, r.body).toBe(201)
    return r.json().id as string
  }
  const playbook = async (name: string, main: string) => {
    const id = (await op.post('/api/v1/ops/playbooks/', { name })).json().id as string
    expect((await op.patch(`/api/v1/ops/playbook/${id}/file/`, { key: 'main.yml', content: main })).statusCode).toBe(200)
    return id
  }
  const runPlaybook = async (pb: string, assets: string[]) => {
    const r = await op.post('/api/v1/ops/jobs/', { type: 'playbook', playbook: pb, assets, runas: 'root', runas_policy: 'privileged_first', instant: true })
    expect(r.statusCode, r.body).toBe(201)
    return r.json().task_id as string
  }
  const detail = async (taskId: string) => (await op.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json() as { status: string; summary: { ok: string[]; dark: Record<string, string>; failures: Record<string, string>; error: string } }
  const tunnelPort = (log: string, name: string) => Number(new RegExp(`${name} \\| through gateway gw-1 \\(127\\.0\\.0\\.1:(\\d+)\\)`).exec(log)?.[1] ?? 0)

  beforeAll(async () => {
    gw = await startSshd()
    target = await startSshd()
    gwUser = await gw.addUser()
    hostUser = await target.addUser()
    t = await createTestServer()
    wsUrl = `ws://${await t.listen()}${TASK_LOG_SOCKET_PATH}`
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    const opId = await t.createUser({ username: 'gw-op' })
    op = await t.as('gw-op')
    op.headers['accept-language'] = 'en'
    const zone = await made('/api/v1/assets/domains/', { name: 'zone-1' })
    gatewayId = await made('/api/v1/assets/gateways/', { name: 'gw-1', address: gw.host, domain: zone, protocols: [{ name: 'ssh', port: gw.port }] })
    await made('/api/v1/accounts/accounts/', { asset: gatewayId, name: 'gw-acc', username: gwUser.username, secret_type: 'password', secret: gwUser.password, privileged: true })
    for (const name of ['inner-1', 'inner-2']) {
      ids[name] = await made('/api/v1/assets/hosts/', { name, address: target.host, platform: 1, domain: zone, protocols: [{ name: 'ssh', port: target.port }] })
      await made('/api/v1/accounts/accounts/', { asset: ids[name], name: `${name}-acc`, username: hostUser.username, secret_type: 'password', secret: hostUser.password, privileged: true })
    }
    await made('/api/v1/perms/asset-permissions/', { name: 'gw-perm', users: [opId], assets: [ids['inner-1'], ids['inner-2']], accounts: ['@ALL'] })
    dir = mkdtempSync(join(tmpdir(), 'jobs-gw-'))
    chmodSync(dir, 0o777)
  }, 180_000)
  afterAll(async () => {
    await t?.close()
    await gw?.stop()
    await target?.stop()
  })

  it('a tunnel: loopback connections reach the target through the gateway; it closes on close() and on the signal', async () => {
    const gateway = { host: gw.host, port: gw.port, username: gwUser.username, password: gwUser.password }
    const tunnel = await openTunnel(gateway, target.host, target.port)
    // An SSH client speaks to the target itself through it: the target's host key, the target's account.
    const seen = await sshLogin({ host: '127.0.0.1', port: tunnel.port, username: hostUser.username, password: hostUser.password, hostKeyFingerprint: target.hostKeyFingerprint })
    expect(seen.hostKeyFingerprint).toBe(target.hostKeyFingerprint)
    expect(await accepts(tunnel.port)).toBe(true)
    await tunnel.close()
    expect(await accepts(tunnel.port)).toBe(false)
    await tunnel.close()

    const ctl = new AbortController()
    const second = await openTunnel(gateway, target.host, target.port, { signal: ctl.signal })
    ctl.abort()
    await second.close()
    expect(await accepts(second.port)).toBe(false)

    const refused = await openTunnel({ ...gateway, password: 'wrong' }, target.host, target.port).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(SshError)
    expect(refused).toMatchObject({ kind: 'auth', hop: 'gateway' })
  }, 60_000)

  it('runs a playbook on hosts behind the gateway: Ansible connects to a loopback forward, the host key checked first, the forward closed after', async () => {
    const before = accepted(gw, gwUser.username)
    const pb = await playbook('through-gw', `- hosts: all\n  gather_facts: no\n  tasks:\n    - name: where from\n      shell: echo "{{ ansible_host }}:{{ ansible_port }} {{ jms_asset.address }}:{{ jms_asset.port }} $SSH_CONNECTION" > ${dir}/via-{{ inventory_hostname }}\n`)
    const taskId = await runPlaybook(pb, [ids['inner-1']!, ids['inner-2']!])
    const log = await follow(wsUrl, op, taskId)
    const d = await detail(taskId)
    expect(d.status, log).toBe('success')
    expect([...d.summary.ok].sort()).toEqual(['inner-1', 'inner-2'])
    for (const name of ['inner-1', 'inner-2']) {
      const port = tunnelPort(log, name)
      expect(port, log).toBeGreaterThan(0)
      expect(port).not.toBe(target.port)
      // Ansible connected to the loopback forward; the host saw a connection to its own port; jms_asset is the real one.
      const [via, real, , , , serverPort] = readFileSync(join(dir, `via-${name}`), 'utf8').trim().split(' ')
      expect(via).toBe(`127.0.0.1:${port}`)
      expect(real).toBe(`${target.host}:${target.port}`)
      expect(Number(serverPort)).toBe(target.port)
      // Closed once the run ended.
      expect(await accepts(port)).toBe(false)
    }
    // The gateway logged the pre-login and the forward of each host.
    expect(accepted(gw, gwUser.username) - before).toBeGreaterThanOrEqual(4)
    expect(log).not.toContain(hostUser.password)
    expect(log).not.toContain(gwUser.password)
  }, 120_000)

  it('a changed host key behind the gateway is refused before Ansible runs; a gateway that does not answer makes its hosts dark', async () => {
    const pb = await playbook('gw-refused', `- hosts: all\n  gather_facts: no\n  tasks:\n    - shell: touch ${dir}/refused-{{ inventory_hostname }}\n`)
    const db = t.database.db
    await sql`insert into asset_host_keys (asset_id, port, fingerprint) values (${ids['inner-1']}, ${target.port}, 'SHA256:not-the-key')
      on conflict (asset_id, port) do update set fingerprint = excluded.fingerprint`.execute(db)
    try {
      const taskId = await runPlaybook(pb, [ids['inner-1']!])
      const log = await follow(wsUrl, op, taskId)
      const d = await detail(taskId)
      expect(d.status).toBe('failed')
      expect(d.summary.dark['inner-1'], log).toMatch(/host key/)
      expect(log).not.toContain('through gateway')
      expect(existsSync(join(dir, 'refused-inner-1'))).toBe(false)
    } finally {
      await sql`delete from asset_host_keys where asset_id = ${ids['inner-1']}`.execute(db)
    }
    // The host itself answers directly; only the gateway is gone.
    const moved = await sql`update asset_protocols set port = ${await freePort()} where asset_id = ${gatewayId} and name = 'ssh'`.execute(db)
    expect(Number(moved.numAffectedRows)).toBe(1)
    try {
      const taskId = await runPlaybook(pb, [ids['inner-2']!])
      const log = await follow(wsUrl, op, taskId)
      expect((await detail(taskId)).summary.dark['inner-2'], log).toMatch(/^gateway: /)
      expect(existsSync(join(dir, 'refused-inner-2'))).toBe(false)
    } finally {
      await sql`update asset_protocols set port = ${gw.port} where asset_id = ${gatewayId} and name = 'ssh'`.execute(db)
    }
  }, 120_000)

  it('Ansible itself accepts only the host key the pre-login saw (a known_hosts of the run): another key stops it', async () => {
    const pbDir = mkdtempSync(join(tmpdir(), 'jobs-pb-'))
    writeFileSync(join(pbDir, 'main.yml'), `- hosts: all\n  gather_facts: no\n  tasks:\n    - shell: echo "$(whoami)" > ${dir}/pinned-{{ inventory_hostname }}\n`)
    const account = { id: randomUUID(), username: hostUser.username, secretType: 'password', secret: hostUser.password }
    const seen = await sshLogin({ host: target.host, port: target.port, username: hostUser.username, password: hostUser.password })
    const other = await sshLogin({ host: gw.host, port: gw.port, username: gwUser.username, password: gwUser.password })
    expect(seen.publicKey).toMatch(/^ssh-ed25519 AAAA/)
    expect(other.publicKey).not.toBe(seen.publicKey)
    const asset = { id: randomUUID(), name: 'pinned', address: target.host, org_id: randomUUID(), domain_id: null, is_gateway: false, is_active: true, protocols: [] }
    const run = (name: string, hostKey: string) => runAnsiblePlaybook({
      executionId: randomUUID(), playbookDir: pbDir, entry: 'main.yml', timeoutMs: 120_000, signal: new AbortController().signal, log: async () => undefined,
      hosts: [{ asset: { ...asset, name }, port: target.port, name, hostKey, account }],
    })
    const ok = await run('pinned-ok', seen.publicKey)
    expect(ok.recap.get('pinned-ok'), ok.lines.get('pinned-ok')?.join('\n')).toMatchObject({ ok: 1, unreachable: 0, failed: 0 })
    expect(readFileSync(join(dir, 'pinned-pinned-ok'), 'utf8')).toBe(`${hostUser.username}\n`)
    // Another key (as if another server answered in between): OpenSSH refuses it, the password is never sent.
    const refused = await run('pinned-other', other.publicKey)
    expect(refused.recap.get('pinned-other'), refused.lines.get('pinned-other')?.join('\n')).toMatchObject({ ok: 0, unreachable: 1 })
    expect(refused.lines.get('pinned-other')!.join('\n')).toMatch(/host key|Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/i)
    expect(existsSync(join(dir, 'pinned-pinned-other'))).toBe(false)
  }, 120_000)

  it('closes the forward when the playbook fails and when it is stopped', async () => {
    const failing = await playbook('gw-fail', `- hosts: all\n  gather_facts: no\n  tasks:\n    - shell: exit 3\n`)
    const failed = await runPlaybook(failing, [ids['inner-1']!])
    const log = await follow(wsUrl, op, failed)
    expect((await detail(failed)).status, log).toBe('failed')
    expect(await accepts(tunnelPort(log, 'inner-1'))).toBe(false)

    const slow = await playbook('gw-slow', `- hosts: all\n  gather_facts: no\n  tasks:\n    - name: wait a minute\n      shell: sleep 60\n    - shell: touch ${dir}/after-stop\n`)
    const taskId = await runPlaybook(slow, [ids['inner-2']!])
    let stopped: Promise<{ statusCode: number }> | undefined
    const stopLog = await follow(wsUrl, op, taskId, (sofar) => {
      if (!stopped && sofar.includes('TASK [wait a minute]')) stopped = op.post(`/api/v1/ops/job-executions/${taskId}/stop/`, {})
    })
    expect(stopped, stopLog).toBeDefined()
    expect((await stopped!).statusCode).toBe(200)
    expect((await detail(taskId)).status).toBe('canceled')
    expect(await accepts(tunnelPort(stopLog, 'inner-2'))).toBe(false)
    expect(existsSync(join(dir, 'after-stop'))).toBe(false)
  }, 180_000)
})
