/**
 * Issue 36 point 12: two server processes started at once on a fresh PostgreSQL database both start (migrations
 * under the advisory lock, the first data seeded without a duplicate key), and exactly one administrator exists.
 * Real processes (`node --import tsx server/main.ts`), as two containers started together would be.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { dbKind } from '../testing.ts'

const BASE = process.env.TEST_DATABASE_URL

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const port = (s.address() as { port: number }).port
    s.close(() => resolve(port))
  })
})

/** Starts `server/main.ts`; resolves with its exit code, or 'ready' when it prints its banner. */
function start(url: string, port: number): { child: ChildProcess; outcome: Promise<{ state: 'ready' | 'exit'; out: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD: 'Str0ng-Passw0rd!', SECRET_KEY: 'test-secret-key-0123456789abcdef', RSA_BITS: '1024', TASK_WORKERS: '0', SSH_PORT: '0', DATA_DIR: '/tmp/bastion-test-unused', TEST_DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const outcome = new Promise<{ state: 'ready' | 'exit'; out: string }>((resolve) => {
    const onData = (d: Buffer) => {
      out += d.toString()
      if (out.includes('Console ready')) resolve({ state: 'ready', out })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => resolve({ state: 'exit', out: `${out}\n(exit ${code})` }))
  })
  return { child, outcome }
}

if (!BASE) {
  describe('two first starts on one PostgreSQL', () => {
    it('need PostgreSQL: PGlite is embedded in one process, so this runs in the PostgreSQL pass', () => {
      expect(dbKind()).toBe('pglite')
    })
  })
} else {
  describe('two first starts on one PostgreSQL', () => {
    it('both processes start on a fresh database; one administrator is seeded (point 12)', async () => {
      const name = `t_${randomBytes(6).toString('hex')}`
      const admin = new pg.Client({ connectionString: BASE })
      await admin.connect()
      await admin.query(`create database ${name}`)
      const url = new URL(BASE)
      url.pathname = `/${name}`
      const procs = [start(url.toString(), await freePort()), start(url.toString(), await freePort())]
      try {
        const outcomes = await Promise.all(procs.map((p) => p.outcome))
        for (const o of outcomes) expect(o.state, o.out).toBe('ready')
        const c = new pg.Client({ connectionString: url.toString() })
        await c.connect()
        const users = await c.query(`select count(*)::int as n from users where username = 'admin'`)
        const bindings = await c.query(`select count(*)::int as n from role_bindings b join users u on u.id = b.user_id where u.username = 'admin'`)
        await c.end()
        expect(users.rows[0].n).toBe(1)
        expect(bindings.rows[0].n).toBe(2)
      } finally {
        for (const p of procs) p.child.kill('SIGTERM')
        await Promise.all(procs.map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.on('exit', r)))))
        await admin.query(`drop database if exists ${name} with (force)`)
        await admin.end()
      }
    }, 120_000)
  })
}
