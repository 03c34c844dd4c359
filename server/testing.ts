/**
 * Test harness for server tests: a real app on a fresh database — PGlite in memory by default, or a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set (`.ci/run` and `npm test` start one on loopback).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import pg from 'pg'
import { buildApp } from './app.ts'
import { loadConfig, type ServerConfig } from './config.ts'
import { openDatabase, type Database } from './db/connection.ts'
import { migrate } from './db/migrate.ts'
import { seed } from './db/seed.ts'
import { ORG_IDS } from './rbac/catalog.ts'

export const ADMIN_PASSWORD = 'Admin-Passw0rd!'

/** The server's source folder. */
const here = dirname(fileURLToPath(import.meta.url))

let template: Promise<Blob> | undefined

async function pgliteFromTemplate(): Promise<Database> {
  template ??= (async () => {
    const d = await openDatabase({ memory: true })
    await migrate(d.db)
    await seed(d.db, { adminPassword: ADMIN_PASSWORD })
    const blob = await d.dump!()
    await d.close()
    return blob
  })()
  return openDatabase({ memory: true, loadDataDir: await template })
}

/**
 * Every file the schema and the seed come from: the template database below is keyed by their hash, so a changed
 * migration or seed builds a new one.
 */
function schemaHash(): string {
  const h = createHash('sha256')
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (/\.(ts|sql)$/.test(e.name) && !e.name.endsWith('.test.ts')) h.update(p).update(readFileSync(p))
    }
  }
  walk(here)
  return h.digest('hex').slice(0, 16)
}

/** Lock key held while one test process builds the template database (others wait, then find it). */
const TEMPLATE_LOCK_KEY = 7_361_514_880_777
let pgTemplate: Promise<string> | undefined

/**
 * A migrated, seeded template database per schema hash, built once (across processes: under an advisory lock)
 * and copied by `create database … template …` for each test (~10× faster than migrating and seeding each time).
 * Templates of other hashes older than a day are dropped (dev machines switch branches).
 */
async function postgresTemplate(baseUrl: string): Promise<string> {
  const stamp = Math.floor(Date.now() / 3_600_000)
  const hash = schemaHash()
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  try {
    await admin.query('select pg_advisory_lock($1::bigint)', [TEMPLATE_LOCK_KEY])
    const existing = (await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'tpl\\_%'`)).rows.map((r) => r.datname)
    const mine = existing.find((n) => n.endsWith(`_${hash}`))
    if (mine) return mine
    for (const n of existing) {
      const hours = Number(n.split('_')[1])
      if (Number.isFinite(hours) && stamp - hours > 24) await admin.query(`drop database if exists ${n} with (force)`).catch(() => undefined)
    }
    const name = `tpl_${stamp}_${hash}`
    const building = `${name}_b`
    await admin.query(`drop database if exists ${building} with (force)`)
    await admin.query(`create database ${building}`)
    const url = new URL(baseUrl)
    url.pathname = `/${building}`
    const d = await openDatabase({ databaseUrl: url.toString() })
    try {
      await migrate(d.db)
      await seed(d.db, { adminPassword: ADMIN_PASSWORD })
    } finally {
      await d.close()
    }
    await admin.query(`alter database ${building} rename to ${name}`)
    return name
  } finally {
    await admin.query('select pg_advisory_unlock($1::bigint)', [TEMPLATE_LOCK_KEY]).catch(() => undefined)
    await admin.end()
  }
}

async function freshPostgres(baseUrl: string): Promise<{ database: Database; url: string; drop: () => Promise<void> }> {
  pgTemplate ??= postgresTemplate(baseUrl)
  const tpl = await pgTemplate
  const name = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`create database ${name} template ${tpl} strategy file_copy`)
  await admin.end()
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ databaseUrl: url.toString() })
  return {
    database,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl })
      await c.connect()
      await c.query(`drop database if exists ${name} with (force)`)
      await c.end()
    },
  }
}

export const dbKind = () => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite')

export interface TestServer {
  app: FastifyInstance
  database: Database
  config: ServerConfig
  /** The PostgreSQL URL of this test's database (undefined on PGlite): a second "process" can open it. */
  databaseUrl?: string
  /** A client with its own cookie jar, not logged in. */
  client(): TestClient
  /** A client logged in as `username` (session created directly, no login round-trip). */
  as(username: string): Promise<TestClient>
  adminId: string
  /** Creates a user with the given system role and org roles (in DEFAULT unless an org id is given). */
  createUser(opts: { username: string; systemRoles?: string[]; orgRoles?: string[]; orgId?: string; password?: string }): Promise<string>
  /** Listens on a free loopback port (for real sockets: websockets, raw HTTP) and answers `host:port`. */
  listen(): Promise<string>
  close(): Promise<void>
}

export async function createTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  let database: Database
  let drop: (() => Promise<void>) | undefined
  let databaseUrl: string | undefined
  if (process.env.TEST_DATABASE_URL) ({ database, drop, url: databaseUrl } = await freshPostgres(process.env.TEST_DATABASE_URL))
  else database = await pgliteFromTemplate()
  // A data folder of its own: test servers run side by side (job run folders, playbooks, uploads are files there).
  const dataDir = mkdtempSync(join(tmpdir(), 'bastion-test-data-'))
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SECRET_KEY: 'test-secret-key-0123456789abcdef', LICENSE: process.env.LICENSE ?? 'valid' }, {
    distDir: '/nonexistent-dist',
    rsaBits: 1024,
    ...overrides,
  })
  const app = await buildApp({ config, database })
  await app.ready()
  const adminId = (await sql<{ id: string }>`select id from users where username = 'admin'`.execute(database.db)).rows[0]!.id
  const server: TestServer = {
    app, database, config, adminId, databaseUrl,
    client: () => new TestClient(app, config),
    async as(username) {
      const u = (await sql<{ id: string }>`select id from users where username = ${username}`.execute(database.db)).rows[0]
      if (!u) throw new Error(`no user ${username}`)
      const sid = randomBytes(24).toString('base64url')
      await sql`insert into sessions (id, user_id, data, expires_at)
        values (${sid}, ${u.id}, ${JSON.stringify({ userId: u.id, loginAt: Date.now() })}::jsonb, now() + interval '1 day')`.execute(database.db)
      const c = new TestClient(app, config)
      c.jar.set(`${config.sessionCookiePrefix}sessionid`, sid)
      c.jar.set(`${config.sessionCookiePrefix}csrftoken`, 'test-csrf-token')
      return c
    },
    async createUser({ username, systemRoles = ['00000000-0000-0000-0000-000000000003'], orgRoles = ['00000000-0000-0000-0000-000000000007'], orgId = ORG_IDS.DEFAULT, password }) {
      const id = randomUUID()
      const { hashPassword } = await import('./auth/password.ts')
      await sql`insert into users (id, name, username, email, password_hash, is_first_login, date_expired)
        values (${id}, ${username}, ${username}, ${`${username}@example.com`}, ${password ? await hashPassword(password) : ''}, false, now() + interval '10 years')`.execute(database.db)
      for (const r of systemRoles) {
        await sql`insert into role_bindings (id, user_id, role_id, scope) values (${randomUUID()}, ${id}, ${r}, 'system')`.execute(database.db)
      }
      for (const r of orgRoles) {
        await sql`insert into role_bindings (id, user_id, role_id, scope, org_id) values (${randomUUID()}, ${id}, ${r}, 'org', ${orgId})`.execute(database.db)
      }
      return id
    },
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const addr = app.server.address()
      if (!addr || typeof addr === 'string') throw new Error('no port')
      return `127.0.0.1:${addr.port}`
    },
    async close() {
      await app.close()
      await database.close()
      await drop?.()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return server
}

/** A cookie-keeping wrapper over `app.inject` that sends the CSRF header like the console does. */
export class TestClient {
  readonly jar = new Map<string, string>()
  /** The jar as a `Cookie` header (for a websocket or raw request outside inject). */
  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
  }
  headers: Record<string, string> = {}
  constructor(private readonly app: FastifyInstance, private readonly config: ServerConfig) {}

  async request(opts: InjectOptions & { json?: unknown }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...this.headers, ...(opts.headers as Record<string, string> | undefined) }
    const csrf = this.jar.get(`${this.config.sessionCookiePrefix}csrftoken`)
    if (csrf && !('x-csrftoken' in headers) && !('X-CSRFToken' in headers)) headers['x-csrftoken'] = csrf
    if (this.jar.size) headers.cookie = this.cookieHeader()
    let payload = opts.payload
    if (opts.json !== undefined) {
      payload = JSON.stringify(opts.json)
      headers['content-type'] = 'application/json'
    }
    const res = await this.app.inject({ ...opts, headers, payload })
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires && c.expires.getTime() < Date.now())) this.jar.delete(c.name)
      else this.jar.set(c.name, c.value)
    }
    return res
  }
  get(url: string, headers?: Record<string, string>) { return this.request({ method: 'GET', url, headers }) }
  options(url: string, headers?: Record<string, string>) { return this.request({ method: 'OPTIONS', url, headers }) }
  delete(url: string, headers?: Record<string, string>) { return this.request({ method: 'DELETE', url, headers }) }
  post(url: string, json?: unknown, headers?: Record<string, string>) { return this.request({ method: 'POST', url, json, headers }) }
  put(url: string, json?: unknown, headers?: Record<string, string>) { return this.request({ method: 'PUT', url, json, headers }) }
  patch(url: string, json?: unknown, headers?: Record<string, string>) { return this.request({ method: 'PATCH', url, json, headers }) }
}
