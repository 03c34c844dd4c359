/**
 * Live sessions across two server instances on one database (issue 31; in the PostgreSQL suite: two connection
 * pools, LISTEN/NOTIFY between them): the session's SSH connection is held by the first; monitor, share, join and
 * terminate go to the second. A process that dies: the survivor finishes its sessions once the lease has expired
 * and keeps the recording written so far.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { sql } from 'kysely'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import { openDatabase, type Database } from '../db/connection.ts'
import { startSshd, type Sshd, type SshdUser } from '../testing/sshd.ts'
import { createTestServer, TestClient, type TestServer } from '../testing.ts'
import { startSshGateway } from './gateway.ts'
import { terminalManager } from './index.ts'
import { FrozenClock, LiveClient, openSession } from './live-support.ts'
import { liveService } from './live.ts'
import { OpenSftp } from './sftp-support.ts'
import type { Granted } from './test-support.ts'

describe('live sessions across two server instances', () => {
  let sshd: Sshd
  let host: SshdUser
  let first: TestServer
  let secondDb: Database
  let second: FastifyInstance
  let firstAddr: string
  let secondAddr: string
  let admin: TestClient

  /** The same signed-in browser, its requests landing on the second instance. */
  const onSecond = (c: TestClient) => {
    const c2 = new TestClient(second, first.config)
    for (const [k, v] of c.jar) c2.jar.set(k, v)
    c2.headers = { ...c.headers }
    return c2
  }

  const granted = async (tag: string): Promise<Granted> => {
    const password = `Pw-${tag}-Aa1!x9`
    const userId = await first.createUser({ username: tag, password })
    const c = await first.as(tag)
    c.headers['accept-language'] = 'en'
    const asset = (await admin.post('/api/v1/assets/hosts/', { name: `${tag}-host`, address: sshd.host, platform: 1, protocols: [{ name: 'ssh', port: sshd.port }] })).json().id as string
    const acc = (await admin.post('/api/v1/accounts/accounts/', { asset, name: `${tag}-acc`, username: host.username, secret_type: 'password', secret: host.password })).json().id as string
    const perm = await admin.post('/api/v1/perms/asset-permissions/', { name: `${tag}-perm`, users: [userId], assets: [asset], accounts: ['@ALL'] })
    expect(perm.statusCode, perm.body).toBe(201)
    return { userId, username: tag, password, c, assetId: asset, assetName: `${tag}-host`, accountId: acc, permId: perm.json().id as string }
  }

  beforeAll(async () => {
    sshd = await startSshd()
    host = await sshd.addUser()
    first = await createTestServer({ sshPort: 0 })
    admin = await first.as('admin')
    admin.headers['accept-language'] = 'en'
    firstAddr = await first.listen()
    secondDb = first.databaseUrl ? await openDatabase({ databaseUrl: first.databaseUrl }) : first.database
    second = await buildApp({ config: first.config, database: secondDb })
    await second.ready()
    await second.listen({ port: 0, host: '127.0.0.1' })
    const a = second.server.address()
    secondAddr = `127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`
    await admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_SESSION_SHARE: true })
  }, 120_000)
  afterAll(async () => {
    await second?.close()
    if (secondDb && secondDb !== first.database) await secondDb.close()
    await first?.close()
    await sshd?.stop()
  })

  it('monitors, shares, joins and terminates from the instance that does not hold the session', async () => {
    const g = await granted('mp-owner')
    const { w, id } = await openSession(firstAddr, g)
    expect(terminalManager(first.app).sessions.has(id)).toBe(true)
    expect(terminalManager(second).sessions.has(id)).toBe(false)
    w.type('echo held-by-first-$((9*9))\r')
    await w.until(() => w.output.includes('held-by-first-81'), 'echo')

    // monitor through the second instance: the screen, then the stream
    const m = await LiveClient.open(secondAddr, admin, { type: 'monitor', session: id })
    await m.until(() => m.output.includes('held-by-first-81'), 'the screen from the other instance')
    w.type('echo streamed-$((7*6))\r')
    await m.until(() => m.output.includes('streamed-42'), 'the stream from the other instance')

    // the owner's share request and the joiner on the second instance; the joiner's input reaches the host
    const joiner = await granted('mp-joiner')
    const made = await onSecond(g.c).post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: [joiner.userId], expired_time: 10, action_permission: 'writable' })
    expect(made.statusCode, made.body).toBe(201)
    const share = made.json() as { id: string; verify_code: string }
    const j = await LiveClient.open(secondAddr, joiner.c, { type: 'join', sharing: share.id, code: share.verify_code })
    await j.until(() => j.output.includes('streamed-42'), 'the joiner sees the screen')
    j.send({ type: 'data', data: 'echo typed-on-second-$((8*8))\r' })
    await w.until(() => w.output.includes('typed-on-second-64'), 'the joiner\'s input ran on the host')
    await w.until(() => w.frames.some((x) => x.type === 'share-participants' && (x.participants as unknown[]).length === 1), 'the owner hears of the joiner')

    // terminate through the second instance
    const r = await onSecond(admin).post('/api/v1/terminal/tasks/kill-session/', [id])
    expect(r.json()).toEqual({ ok: [id] })
    await w.until(() => w.closed !== null, 'the user\'s session ended')
    expect(w.frame('close')).toMatchObject({ reason: 'terminated' })
    for (const x of [m, j]) {
      await x.until(() => x.closed !== null, 'watchers closed')
      expect(x.frame('close')).toMatchObject({ reason: 'terminated' })
    }
    const row = (await admin.get(`/api/v1/terminal/sessions/${id}/`)).json()
    expect(row).toMatchObject({ is_finished: true, can_join: false })
    await expect.poll(async () => (await admin.get(`/api/v1/terminal/session-join-records/?session=${id}`)).json()).toMatchObject([{ is_finished: true, is_success: true }])
  })

  it('an SFTP session held by one instance is terminated from the other: the connection ends, the session is finished', async () => {
    const g = await granted('mp-sftp')
    // this server's SSH_PORT is 0 (off): a gateway of its own on an ephemeral port
    const gateway = await startSshGateway(first.app, terminalManager(first.app), { port: 0, host: '127.0.0.1' })
    const c = new OpenSftp(gateway.port, g.username, g.password, mkdtempSync(join(tmpdir(), 'mp-sftp-')))
    try {
      await c.run(`ls /DEFAULT/${g.assetName}/${g.username}-acc/tmp`)
      const [held] = [...terminalManager(first.app).fileSessions.values()].filter((s) => s.user.id === g.userId)
      expect(held).toBeDefined()
      expect(terminalManager(second).fileSessions.has(held!.id)).toBe(false)
      const closed = new Promise((resolve) => held!.once('close', resolve))
      const r = await onSecond(admin).post('/api/v1/terminal/tasks/kill-session/', [held!.id])
      expect(r.json()).toEqual({ ok: [held!.id] })
      await closed
      c.child.stdin.write('ls /\n')
      await c.until(() => c.exit !== null, 'the SFTP connection ends')
      expect(c.exit).not.toBe(0)
      const row = (await admin.get(`/api/v1/terminal/sessions/${held!.id}/`)).json()
      expect(row).toMatchObject({ protocol: 'sftp', is_finished: true, can_join: false })
      expect(row.comment).toContain('Terminated by')
    } finally {
      c.child.kill()
      await gateway.close()
    }
  })

  it('relays a burst of output to a watcher on the other instance whole and in order', async () => {
    const g = await granted('mp-burst')
    const { w, id } = await openSession(firstAddr, g)
    const m = await LiveClient.open(secondAddr, admin, { type: 'monitor', session: id })
    await m.until(() => !!m.frame('live-info'), 'monitoring from the other instance')
    // ~110 KB in a moment: many notifications, sent several to a statement while the previous one is on its way
    w.type('seq -f "n%06g" 1 12000; echo burst-$((6*6))-done\r')
    await m.until(() => m.output.includes('burst-36-done'), 'the burst on the other instance', 60_000)
    const numbers = [...m.output.matchAll(/n(\d{6})/g)].map((x) => Number(x[1]))
    const from = numbers.indexOf(1)
    expect(numbers.slice(from)).toEqual(Array.from({ length: 12000 }, (_, i) => i + 1))
    w.send({ type: 'close' })
    await m.until(() => m.closed !== null, 'closed with the session')
  })

  it('removes a joiner on the other instance when the share expires; the owner on the first hears it', async () => {
    const g = await granted('mp-expiry-owner')
    const { w, id } = await openSession(firstAddr, g)
    const joiner = await granted('mp-expiry-joiner')
    const share = (await g.c.post(`/api/v1/terminal/live/sessions/${id}/sharings/`, { users: [], expired_time: 2, action_permission: 'readonly' })).json() as { id: string; verify_code: string }
    const clock = new FrozenClock(second)
    const timers = clock.timers
    try {
      const j = await LiveClient.open(secondAddr, joiner.c, { type: 'join', sharing: share.id, code: share.verify_code })
      await j.until(() => !!j.frame('live-info'), 'joined on the other instance')
      const record = (j.frame('live-info') as unknown as { record: string }).record
      const joinedNow = () => (w.frames.filter((x) => x.type === 'share-participants').at(-1)?.participants as unknown[] | undefined)?.length
      await w.until(() => joinedNow() === 1, 'the owner hears of the joiner')
      const created = (await sql<{ date_created: Date }>`select date_created from session_sharings where id = ${share.id}`.execute(first.database.db)).rows[0]!.date_created
      clock.time = created.getTime() + 2 * 60_000 + 500
      expect(timers.runDue()).toBe(1)
      await j.until(() => j.closed !== null, 'removed at expiry')
      expect(j.frame('close')).toMatchObject({ reason: 'expired' })
      await w.until(() => joinedNow() === 0, 'the owner hears the joiner left')
      const rec = (await sql<{ is_finished: boolean; date_left: Date | null }>`select is_finished, date_left from session_join_records where id = ${record}`.execute(first.database.db)).rows[0]!
      expect(rec).toEqual({ is_finished: true, date_left: new Date(clock.time) })
    } finally {
      clock.release()
    }
    w.send({ type: 'close' })
    await w.until(() => w.closed !== null, 'closed')
  })

  it('finishes the sessions of an instance that died once its lease expired, keeping the recording so far; its SFTP sessions too', async () => {
    const g = await granted('mp-dead')
    const { w, id } = await openSession(firstAddr, g)
    w.type('echo recorded-before-$((3*11))\r')
    await w.until(() => w.output.includes('recorded-before-33'), 'echo')
    const gateway = await startSshGateway(first.app, terminalManager(first.app), { port: 0, host: '127.0.0.1' })
    const c = new OpenSftp(gateway.port, g.username, g.password, mkdtempSync(join(tmpdir(), 'mp-dead-')))
    try {
      await c.run(`ls /DEFAULT/${g.assetName}/${g.username}-acc/tmp`)
      const sftpId = [...terminalManager(first.app).fileSessions.values()].find((s) => s.user.id === g.userId)!.id
      await deadInstance(id, sftpId)
      const ftp = (await admin.get(`/api/v1/terminal/sessions/${sftpId}/`)).json()
      expect(ftp).toMatchObject({ protocol: 'sftp', is_finished: true })
      expect(ftp.comment).toContain('lease expired')
    } finally {
      c.child.kill()
      await gateway.close()
    }
  })

  /** The first instance dies holding `id` (and `sftpId`); the second finishes them once the lease has expired. */
  async function deadInstance(id: string, sftpId: string): Promise<void> {
    const dying = liveService(first.app)!
    const survivor = liveService(second)!
    // the holder's lease round (its timer's work: renewal and a recording checkpoint), then it dies
    await dying.tick()
    await dying.kill()
    // not yet: the lease still runs
    expect(await survivor.sweep()).toEqual([])
    // the survivor's clock passes the lease
    const manager = terminalManager(second)
    const realNow = manager.now
    manager.now = () => realNow() + survivor.leaseMs + 1000
    try {
      expect((await survivor.sweep()).sort()).toEqual([id, sftpId].sort())
    } finally {
      manager.now = realNow
    }
    const row = (await admin.get(`/api/v1/terminal/sessions/${id}/`)).json()
    expect(row).toMatchObject({ is_finished: true, has_replay: true, can_join: false })
    expect(row.comment).toContain(dying.processId)
    expect(row.comment).toContain('lease expired')
    const replay = (await admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json() as { src: string }
    const file = await admin.get(replay.src)
    const cast = gunzipSync(file.rawPayload).toString('utf8')
    expect(JSON.parse(cast.split('\n')[0]!)).toMatchObject({ version: 2 })
    expect(cast).toContain('recorded-before-33')
    expect((await sql<{ n: number }>`select count(*)::int as n from terminal_live_sessions where session_id = ${id}`.execute(first.database.db)).rows[0]!.n).toBe(0)
  }
})
