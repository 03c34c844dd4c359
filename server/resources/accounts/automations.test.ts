/**
 * The account automations doing the real thing: a real OpenSSH server on a loopback port (server/testing/sshd.ts),
 * real OS users created and removed here, sudo as on a real host (the privileged account's sudoers rule).
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sshLogin } from '../../automation/ssh.ts'
import { bindOtp, encryptFor } from '../../auth/test-support.ts'
import { totp } from '../../auth/totp.ts'
import { freePort, startSshd, type Sshd, type SshdUser } from '../../testing/sshd.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { openSecret } from './secrets.ts'

const run = promisify(execFile)
const A = '/api/v1/accounts/'
const FINAL = ['success', 'failed', 'error', 'canceled']

describe(`account automations on a real sshd (${dbKind()})`, () => {
  const s = useTestServer()
  let sshd: Sshd
  let priv: SshdUser
  const pushed: string[] = []
  let asset: string
  let deadAsset: string
  const sudoers = `/etc/sudoers.d/test-${randomBytes(4).toString('hex')}`

  beforeAll(async () => {
    sshd = await startSshd()
    priv = await sshd.addUser()
    // the host lets its administrator use sudo without a password (as many do); push and change go through it
    await writeFile(sudoers, `${priv.username} ALL=(ALL) NOPASSWD: ALL\n`, { mode: 0o440 })
    const c = s.admin
    asset = (await c.post('/api/v1/assets/hosts/', { name: 'ssh-host', address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })).json().id
    deadAsset = (await c.post('/api/v1/assets/hosts/', { name: 'dead-host', address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: await freePort() }] })).json().id
    for (const a of [asset, deadAsset]) {
      const r = await c.post(`${A}accounts/`, { username: priv.username, secret: priv.password, asset: a, privileged: true })
      expect(r.statusCode).toBe(201)
    }
  }, 60_000)

  afterAll(async () => {
    for (const u of pushed) await run('userdel', ['-r', '-f', u]).catch(() => undefined)
    await rm(sudoers, { force: true })
    await sshd?.stop()
  })

  async function execute(kind: string, automation: string) {
    const r = await s.admin.post(`${A}${kind}-executions/`, { automation })
    expect(r.statusCode).toBe(201)
    const { id, task } = r.json() as { id: string; task: string }
    expect(task).toMatch(/^[0-9a-f-]{36}$/)
    const until = Date.now() + 90_000 // a cap for a loaded CI machine, not a speed assertion
    for (;;) {
      const e = (await s.admin.get(`${A}${kind}-executions/${id}/`)).json()
      if (FINAL.includes(e.status.value)) return { execution: e, records: (await s.admin.get(`${A}change-secret-records/?execution=${id}`)).json() as Array<Record<string, any>>, task }
      if (Date.now() > until) throw new Error(`execution still ${e.status.value}; sshd log:\n${sshd.log().slice(-2000)}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  const storedSecret = async (id: string) => {
    const row = (await sql<{ secret: string }>`select secret from accounts where id = ${id}`.execute(s.t.database.db)).rows[0]!
    return openSecret(s.t.database, 'accounts', id, 'secret', row.secret)
  }
  const logsIn = (username: string, password: string) => sshLogin({ host: '127.0.0.1', port: sshd.port, username, password }, { timeoutMs: 15_000 }).then(() => true, () => false)

  it('pushes an OS account with its password (and a sudo rule for a privileged one), then changes its secret: the new one logs in, the old one no longer does', async () => {
    const username = `jms${randomBytes(3).toString('hex')}`
    pushed.push(username)
    const account = (await s.admin.post(`${A}accounts/`, { username, secret: 'Old-Pass-123', asset, privileged: true })).json().id as string
    expect(await logsIn(username, 'Old-Pass-123')).toBe(false)

    const push = await s.admin.post(`${A}push-account-automations/`, { name: 'push it', assets: [asset], accounts: [username], secret_strategy: 'specific', secret: 'Old-Pass-123' })
    expect(push.statusCode).toBe(201)
    expect(push.body).not.toContain('Old-Pass-123')
    const p = await execute('push-account', push.json().id)
    expect(p.execution).toMatchObject({ status: { value: 'success' }, trigger: { value: 'manual' }, summary: { total: 1, ok: 1, failed: 0 } })
    expect(p.records).toEqual([expect.objectContaining({ username, is_success: true, error: '', asset_name: 'ssh-host' })])
    expect(await logsIn(username, 'Old-Pass-123')).toBe(true)
    const sudo = await run('sudo', ['-l', '-U', username])
    expect(sudo.stdout).toContain('/bin/whoami')
    const log = await s.admin.get(`/api/v1/ops/celery/task/x/task-execution/${p.task}/log/`)
    expect(log.json().data).toContain(`${username}: pushed, the new secret logs in`)
    expect(log.body).not.toContain('Old-Pass-123')

    const change = await s.admin.post(`${A}change-secret-automations/`, {
      name: 'rotate', assets: [asset, deadAsset], accounts: [username], secret_strategy: 'random', password_rules: { length: 16, symbol_set: '!@#' },
    })
    expect(change.statusCode).toBe(201)
    const before = await storedSecret(account)
    const deadAccount = (await s.admin.post(`${A}accounts/`, { username, secret: 'Dead-Pass-1', asset: deadAsset })).json().id as string
    const c = await execute('change-secret', change.json().id)
    expect(c.execution.status.value).toBe('failed') // the unreachable host fails; the reachable one is done
    // and its task says so (issue 35: the task log page said "Success")
    expect((await s.admin.get(`/api/v1/ops/celery/task/x/task-execution/${c.task}/result/`)).json()).toMatchObject({ state: 'FAILURE' })
    const ok = c.records.find((r) => r.asset_name === 'ssh-host')!
    expect(ok).toMatchObject({ username, is_success: true, secret_state: { value: 'stored' } })
    // promoted: the record keeps no copy once the account has the secret
    expect((await sql<{ pending_secret: string }>`select pending_secret from account_automation_records where id = ${ok.id}`.execute(s.t.database.db)).rows[0]!.pending_secret).toBe('')
    const failed = c.records.find((r) => r.asset_name === 'dead-host')
    expect(failed).toMatchObject({ is_success: false, error: expect.stringMatching(/unreachable/) })
    const after = await storedSecret(account)
    expect(after).not.toBe(before)
    expect(after).toMatch(/^[A-Za-z0-9!@#]{16}$/)
    expect(await logsIn(username, after)).toBe(true)
    expect(await logsIn(username, 'Old-Pass-123')).toBe(false)
    const versions = await sql<{ version: number }>`select version from account_secret_histories where account_id = ${account} order by version`.execute(s.t.database.db)
    expect(versions.rows.map((r) => r.version)).toEqual([1, 2, 3])
    // the failed host's account kept its stored secret
    expect(await storedSecret(deadAccount)).toBe('Dead-Pass-1')
  }, 180_000)

  it('works on a host of a domain through its gateway (an SSH forward over the real sshd); a gateway that does not answer fails only its hosts', async () => {
    const c = s.admin
    const made = async (url: string, body: Record<string, unknown>) => {
      const r = await c.post(url, body)
      expect(r.statusCode, r.body).toBe(201)
      return r.json().id as string
    }
    const admin = { username: priv.username, secret: priv.password, privileged: true }
    const zone = await made('/api/v1/assets/domains/', { name: 'acc-zone' })
    const gw = await made('/api/v1/assets/gateways/', { name: 'acc-gw', address: '127.0.0.1', domain: zone, protocols: [{ name: 'ssh', port: sshd.port }] })
    await made(`${A}accounts/`, { ...admin, asset: gw })
    // the target's address as the gateway sees it
    const behind = await made('/api/v1/assets/hosts/', { name: 'behind-gw', address: 'localhost', platform: 1, domain: zone, protocols: [{ name: 'ssh', port: sshd.port }] })
    await made(`${A}accounts/`, { ...admin, asset: behind })
    const deadZone = await made('/api/v1/assets/domains/', { name: 'acc-dead-zone' })
    const deadGw = await made('/api/v1/assets/gateways/', { name: 'acc-dead-gw', address: '127.0.0.1', domain: deadZone, protocols: [{ name: 'ssh', port: await freePort() }] })
    await made(`${A}accounts/`, { ...admin, asset: deadGw })
    const cut = await made('/api/v1/assets/hosts/', { name: 'behind-dead-gw', address: '127.0.0.1', platform: 1, domain: deadZone, protocols: [{ name: 'ssh', port: sshd.port }] })
    await made(`${A}accounts/`, { ...admin, asset: cut })

    const username = `jmg${randomBytes(3).toString('hex')}`
    pushed.push(username)
    for (const a of [behind, cut]) await made(`${A}accounts/`, { username, asset: a })
    const push = await made(`${A}push-account-automations/`, { name: 'push via gw', assets: [behind, cut], accounts: [username], secret_strategy: 'specific', secret: 'Gw-Pass-123' })
    const p = await execute('push-account', push)
    expect(p.execution.status.value).toBe('failed')
    expect(p.records.find((r) => r.asset_name === 'behind-gw')).toMatchObject({ is_success: true, error: '' })
    // the host itself answers directly: only the dead gateway made it fail
    expect(p.records.find((r) => r.asset_name === 'behind-dead-gw')).toMatchObject({ is_success: false, error: expect.stringMatching(/^unreachable \(gateway\)/) })
    const log = (await c.get(`/api/v1/ops/celery/task/x/task-execution/${p.task}/log/`)).json().data as string
    expect(log).toContain(`behind-gw (through gateway acc-gw) ${username}: pushed, the new secret logs in`)
    expect(await logsIn(username, 'Gw-Pass-123')).toBe(true)
  }, 180_000)

  it('verifies stored secrets (connectivity ok / err) and refuses bad task requests', async () => {
    const c = s.admin
    const good = (await c.get(`${A}accounts/?asset=${asset}&username=${priv.username}`)).json()[0].id
    const wrong = (await c.post(`${A}accounts/`, { username: priv.username, name: 'wrong-one', secret: 'not-the-password', asset: deadAsset })).json()
    expect(wrong.username).toEqual(['An account with this username already exists on the asset.'])
    const bad = (await c.post(`${A}accounts/`, { username: 'nosuchuser', secret: 'x', asset })).json().id
    const r = await c.post(`${A}accounts/tasks/`, { action: 'verify', accounts: [good, bad] })
    expect(r.statusCode).toBe(201)
    const until = Date.now() + 60_000
    let rows: Array<{ id: string; connectivity: string }> = []
    while (Date.now() < until) {
      rows = (await sql<{ id: string; connectivity: string }>`select id, connectivity from accounts where id in (${good}, ${bad})`.execute(s.t.database.db)).rows
      if (rows.every((x) => x.connectivity !== '-')) break
      await new Promise((res) => setTimeout(res, 200))
    }
    expect(Object.fromEntries(rows.map((x) => [x.id, x.connectivity]))).toEqual({ [good]: 'ok', [bad]: 'err' })
    expect((await c.post(`${A}accounts/tasks/`, { action: 'explode', accounts: [good] })).json()).toEqual({ action: ['"explode" is not a valid choice.'] })
    expect((await c.post(`${A}accounts/tasks/`, { action: 'verify', accounts: ['x'] })).statusCode).toBe(400)
    expect((await c.post(`${A}change-secret-executions/`, { automation: 'nope' })).json()).toEqual({ automation: ['Invalid pk "nope" - object does not exist.'] })
  }, 120_000)

  it('gathers the host accounts (uid, shell, sudo) and, in sync mode, adds them as collected accounts', async () => {
    const g = await s.admin.post(`${A}gather-account-automations/`, { name: 'gather', assets: [asset], is_sync_account: true })
    expect(g.statusCode).toBe(201)
    const r = await execute('gather-account', g.json().id)
    expect(r.execution.status.value).toBe('success')
    const gathered = (await s.admin.get(`${A}gathered-accounts/?asset=${asset}`)).json() as Array<{ username: string; sudo: boolean; present: boolean }>
    const names = gathered.map((x) => x.username)
    expect(names).toContain(priv.username)
    expect(names).toContain(pushed[0])
    expect(gathered.find((x) => x.username === priv.username)).toMatchObject({ sudo: true, present: true })
    const collected = (await s.admin.get(`${A}accounts/?asset=${asset}&source=collected`)).json() as Array<{ id: string; username: string }>
    expect(collected.map((x) => x.username)).toContain('root')

    // "Sync" of one gathered account (lina's action) makes it a managed account again once removed
    expect((await s.admin.delete(`${A}accounts/${collected.find((x) => x.username === 'root')!.id}/`)).statusCode).toBe(204)
    const rootGathered = (gathered as unknown as Array<{ id: string; username: string }>).find((x) => x.username === 'root')!
    expect((await s.admin.post(`${A}gathered-accounts/sync-accounts/`, { gathered_account_ids: [rootGathered.id] })).statusCode).toBe(201)
    expect((await s.admin.get(`${A}accounts/?asset=${asset}&username=root`)).json()).toEqual([expect.objectContaining({ username: 'root', source: expect.objectContaining({ value: 'collected' }) })])
    expect((await s.admin.post(`${A}gathered-accounts/sync-accounts/`, { gathered_account_ids: ['nope'] })).statusCode).toBe(400)
    const viewer = `viewer${randomBytes(3).toString('hex')}`
    await s.t.createUser({ username: viewer })
    expect((await (await s.t.as(viewer)).post(`${A}gathered-accounts/sync-accounts/`, { gathered_account_ids: [rootGathered.id] })).statusCode).toBe(403)
  }, 120_000)
  it('keeps a new secret the host took but that did not verify, readable only after an MFA confirmation', async () => {
    // The host takes the change (the privileged account sets the password) but refuses the account's own logins
    // (DenyUsers), so the verification with the new secret fails after the change: the outcome is unknown.
    const target = await sshd.addUser()
    const refusing = await startSshd({ extraConfig: [`DenyUsers ${target.username}`] })
    try {
      const c = s.admin
      const host = (await c.post('/api/v1/assets/hosts/', { name: 'refusing-host', address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: refusing.port }] })).json().id as string
      expect((await c.post(`${A}accounts/`, { username: priv.username, secret: priv.password, asset: host, privileged: true })).statusCode).toBe(201)
      const account = (await c.post(`${A}accounts/`, { username: target.username, secret: target.password, asset: host })).json().id as string
      const change = await c.post(`${A}change-secret-automations/`, { name: 'rotate-unverified', assets: [host], accounts: [target.username], secret_strategy: 'random', password_rules: { length: 20 } })
      expect(change.statusCode).toBe(201)
      const r = await execute('change-secret', change.json().id)
      expect(r.execution.status.value).toBe('failed')
      expect(r.records).toEqual([expect.objectContaining({ username: target.username, is_success: false, secret_state: { value: 'unknown', label: 'Unknown: kept in this record' }, error: expect.stringMatching(/does not log in/) })])
      const record = r.records[0]!.id as string
      // the account keeps the secret it had; no answer carries the new one
      expect(await storedSecret(account)).toBe(target.password)
      const listed = await c.get(`${A}change-secret-records/${record}/`)
      expect(listed.body).not.toMatch(/pending|"secret"/)

      // Read behind an MFA confirmation only.
      const url = `${A}change-secret-records/${record}/secret/`
      expect((await c.get(url)).json()).toEqual({ code: 'mfa', detail: 'This action require confirm current user' })
      const seed = await bindOtp(s.t, s.t.adminId)
      await c.get('/ui/')
      expect((await c.post('/api/v1/authentication/confirm/', { confirm_type: 'mfa', mfa_type: 'otp', secret_key: encryptFor(c, totp(seed)) })).json()).toBe('ok')
      const kept = (await c.get(url)).json()
      expect(kept).toMatchObject({ id: record, username: target.username, secret_type: 'password', secret_state: 'unknown', secret: expect.stringMatching(/^\S{20}$/) })
      // It is the password the host has now (logins through the host's other sshd, which does not refuse the user).
      expect(await logsIn(target.username, kept.secret)).toBe(true)
      expect(await logsIn(target.username, target.password)).toBe(false)
      // A record that keeps nothing answers 404; the view was logged without the secret.
      const done = (await sql<{ id: string }>`select id from account_automation_records where secret_state = 'stored' limit 1`.execute(s.t.database.db)).rows[0]
      if (done) expect((await c.get(`${A}change-secret-records/${done.id}/secret/`)).statusCode).toBe(404)
      const logs = await sql<{ resource: string; diff: unknown }>`select resource, diff from operate_logs where resource like 'new secret:%'`.execute(s.t.database.db)
      expect(logs.rows.map((l) => l.resource)).toEqual([`new secret: ${target.username}@refusing-host`])
      expect(JSON.stringify(logs.rows)).not.toContain(kept.secret)
    } finally {
      await refusing.stop()
    }
  }, 180_000)
})
