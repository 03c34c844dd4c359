/**
 * Two server processes on one PostgreSQL (issue 16 points 12–15): two independent server instances — each its
 * own connection pool, LISTEN connection, app and port — on one database, as behind a load balancer.
 */
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { buildApp } from '../app.ts'
import type { SmsBackend } from '../auth/sms.ts'
import { loadConfig, type ServerConfig } from '../config.ts'
import { openDatabase, type Database } from '../db/connection.ts'
import { migrate } from '../db/migrate.ts'
import { seed } from '../db/seed.ts'
import { siteMessageHub } from '../realtime/routes.ts'
import { SITE_MSG_SOCKET_PATH } from '../realtime/socket.ts'
import { storeMessage } from '../realtime/store.ts'
import { invalidateSettingsCache, setSettings } from '../settings/store.ts'
import { ADMIN_PASSWORD, dbKind, TestClient } from '../testing.ts'

const BASE = process.env.TEST_DATABASE_URL
const PW = 'Str0ng-Passw0rd!'
const CONFIRM = '/api/v1/authentication/confirm/'
const PROFILE = '/api/v1/users/profile/'

async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: BASE })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(BASE!)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: BASE })
      await c.connect()
      await c.query(`drop database if exists ${name} with (force)`)
      await c.end()
    },
  }
}

if (!BASE) {
  describe('two server processes on one PostgreSQL', () => {
    it('need PostgreSQL: PGlite is embedded in one process and cannot be shared, so these run in the PostgreSQL pass', () => {
      expect(dbKind()).toBe('pglite')
      expect(process.env.TEST_DATABASE_URL ?? '').toBe('')
    })
  })
} else {
  describe('two server processes on one PostgreSQL', () => {
    let url: string
    let drop: () => Promise<void>
    let config: ServerConfig
    const dbs: Database[] = []
    const apps: FastifyInstance[] = []
    let adminId: string
    let n = 0

    beforeAll(async () => {
      ({ url, drop } = await emptyDatabase())
      config = loadConfig({ ...process.env, DATA_DIR: '/tmp/bastion-test-unused', SECRET_KEY: 'test-secret-key-0123456789abcdef' },
        { distDir: '/nonexistent-dist', rsaBits: 1024 })
      for (let i = 0; i < 2; i++) dbs.push(await openDatabase({ databaseUrl: url }))
      await Promise.all(dbs.map((d) => migrate(d.db)))
      await seed(dbs[0]!.db, { adminPassword: ADMIN_PASSWORD })
      for (const database of dbs) {
        const app = await buildApp({ config, database })
        await app.listen({ host: '127.0.0.1', port: 0 })
        apps.push(app)
      }
      adminId = (await sql<{ id: string }>`select id from users where username = 'admin'`.execute(dbs[0]!.db)).rows[0]!.id
    })
    afterAll(async () => {
      for (const app of apps) await app.close()
      for (const d of dbs) await d.close()
      await drop()
    })

    /** A user with a session, and one client per process holding that session's cookies. */
    async function userOnBoth(): Promise<{ id: string; sid: string; a: TestClient; b: TestClient }> {
      const username = `mp${n++}`
      const { hashPassword } = await import('../auth/password.ts')
      const id = (await sql<{ id: string }>`insert into users (id, name, username, email, password_hash, is_first_login)
        values (gen_random_uuid(), ${username}, ${username}, ${`${username}@example.com`}, ${await hashPassword(PW)}, false) returning id`.execute(dbs[0]!.db)).rows[0]!.id
      await sql`insert into role_bindings (id, user_id, role_id, scope) values (gen_random_uuid(), ${id}, '00000000-0000-0000-0000-000000000003', 'system')`.execute(dbs[0]!.db)
      const sid = randomBytes(24).toString('base64url')
      await sql`insert into sessions (id, user_id, data, expires_at) values (${sid}, ${id}, ${JSON.stringify({ userId: id, loginAt: Date.now() })}::jsonb, now() + interval '1 day')`.execute(dbs[0]!.db)
      const [a, b] = apps.map((app) => {
        const c = new TestClient(app, config)
        c.jar.set('jms_sessionid', sid)
        c.jar.set('jms_csrftoken', 'csrf')
        c.headers['accept-language'] = 'en'
        return c
      }) as [TestClient, TestClient]
      return { id, sid, a, b }
    }

    it('migrations started by two processes at once on an empty database both succeed (point 15)', async () => {
      for (let round = 0; round < 4; round++) {
        const fresh = await emptyDatabase()
        const pair = [await openDatabase({ databaseUrl: fresh.url }), await openDatabase({ databaseUrl: fresh.url })]
        try {
          const results = await Promise.allSettled(pair.map((d) => migrate(d.db)))
          expect(results.map((r) => r.status), `round ${round}: ${results.map((r) => (r.status === 'rejected' ? String(r.reason) : '')).join(' ')}`)
            .toEqual(['fulfilled', 'fulfilled'])
          const applied = results.map((r) => (r as PromiseFulfilledResult<string[]>).value.length)
          expect(Math.min(...applied)).toBe(0)
          expect(Math.max(...applied)).toBeGreaterThan(0)
        } finally {
          for (const d of pair) await d.close()
          await fresh.drop()
        }
      }
    })

    it('a logout on one process is not undone by a confirmation in flight on the other (point 12)', async () => {
      for (let round = 0; round < 10; round++) {
        const u = await userOnBoth()
        const confirm = u.a.post(CONFIRM, { confirm_type: 'password', secret_key: PW })
        await new Promise((r) => setTimeout(r, 5))
        expect((await u.b.get('/core/auth/logout/')).statusCode).toBe(302)
        await confirm
        for (const app of apps) {
          const replay = new TestClient(app, config)
          replay.jar.set('jms_sessionid', u.sid)
          expect((await replay.get(PROFILE)).statusCode, `round ${round}`).toBe(401)
        }
      }
    })

    it('a confirmation on one process and an OTP set-up on the other both stay (point 13)', async () => {
      for (let round = 0; round < 10; round++) {
        const u = await userOnBoth()
        const [c, s] = await Promise.all([u.a.post(CONFIRM, { confirm_type: 'password', secret_key: PW }), u.b.get(`${PROFILE}otp/setup/`)])
        expect([c.statusCode, s.statusCode]).toEqual([200, 200])
        const data = (await sql<{ data: Record<string, unknown> }>`select data from sessions where id = ${u.sid}`.execute(dbs[0]!.db)).rows[0]!.data
        expect(Object.keys(data), `round ${round}`).toEqual(expect.arrayContaining(['confirm', 'otpSetup']))
      }
    })

    it('an SMS code is accepted by exactly one of two processes (point 13)', async () => {
      const sent: string[] = []
      const capture: SmsBackend = { name: 'capture', async send(_req, _to, code) { sent.push(code) } }
      for (const app of apps) app.smsBackend = capture
      await setSettings(dbs[0]!.db, { SMS_ENABLED: true })
      // the other process's settings cache (one second) forgets what it read, as when that second has passed
      for (const d of dbs) invalidateSettingsCache(d.db)
      for (let round = 0; round < 5; round++) {
        const u = await userOnBoth()
        await sql`update users set phone = '+86 13800138000' where id = ${u.id}`.execute(dbs[0]!.db)
        expect((await u.a.post('/api/v1/authentication/mfa/send-code/', { type: 'sms' })).statusCode).toBe(201)
        const code = sent.at(-1)!
        const answers = await Promise.all([u.a, u.b, u.a, u.b].map((c) => c.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'sms', secret_key: code })))
        expect(answers.map((r) => r.statusCode).sort(), `round ${round}`).toEqual([200, 400, 400, 400])
      }
    })

    it('pushes resume after the LISTEN connections drop, and sockets re-read their count (point 14)', async () => {
      const sid = randomBytes(24).toString('base64url')
      await sql`insert into sessions (id, user_id, data, expires_at) values (${sid}, ${adminId}, ${JSON.stringify({ userId: adminId })}::jsonb, now() + interval '1 day')`.execute(dbs[0]!.db)
      const port = (apps[0]!.server.address() as AddressInfo).port
      const counts: number[] = []
      const ws = new WebSocket(`ws://127.0.0.1:${port}${SITE_MSG_SOCKET_PATH}`, { headers: { cookie: `jms_sessionid=${sid}` } })
      ws.on('message', (d) => counts.push((JSON.parse(d.toString()) as { unread_count: number }).unread_count))
      const until = async (pred: () => boolean, what: string) => {
        const end = Date.now() + 15_000
        while (!pred()) {
          if (Date.now() > end) throw new Error(`${what}: counts ${JSON.stringify(counts)}`)
          await new Promise((r) => setTimeout(r, 50))
        }
      }
      try {
        await until(() => counts.length === 1, 'first count')
        const start = counts[0]!
        const killed = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`.execute(dbs[0]!.db)
        expect(killed.rows[0]!.n).toBe(2)
        // Stored while nobody listens: no notification reaches anyone; the re-read after the reconnect shows it.
        await storeMessage(dbs[1]!.db, { subject: 's', message: 'm', senderId: null, isBroadcast: false, userIds: [adminId] })
        await until(() => counts.at(-1) === start + 1, 're-read after reconnect')
        // And notifications flow again, from the other process.
        await storeMessage(dbs[1]!.db, { subject: 's2', message: 'm2', senderId: null, isBroadcast: false, userIds: [adminId] })
        await siteMessageHub(apps[1]!)!.announce([adminId])
        await until(() => counts.at(-1) === start + 2, 'push after reconnect')
      } finally {
        ws.close()
      }
    })
  })
}
