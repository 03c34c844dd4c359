/**
 * A real OpenLDAP server for tests: Debian's slapd with a throw-away configuration (slapd.conf in a temp directory,
 * an mdb database there) on a free loopback port, seeded through the client with an OU of users. Started and
 * stopped by the test; `.ci/run` installs slapd.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from 'ldapts'

export const SLAPD_BIN = process.env.SLAPD_BIN ?? '/usr/sbin/slapd'
export const LDAP_SUFFIX = 'dc=example,dc=org'
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_SUFFIX}`
export const LDAP_USERS_OU = `ou=people,${LDAP_SUFFIX}`

export interface SeedUser { uid: string; cn: string; sn?: string; mail?: string; password: string }

export interface Slapd {
  url: string
  adminDn: string
  adminPassword: string
  usersOu: string
  /** Adds a user under the users OU. */
  addUser(u: SeedUser): Promise<void>
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

async function waitReady(url: string, proc: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 15_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`slapd exited (${proc.exitCode}): ${output()}`)
    const c = new Client({ url, connectTimeout: 1000, timeout: 1000 })
    try {
      await c.bind('', '')
      await c.unbind()
      return
    } catch {
      await c.unbind().catch(() => undefined)
      if (Date.now() > until) throw new Error(`slapd did not answer on ${url}: ${output()}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

export async function startSlapd(users: SeedUser[] = []): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'slapd-test-'))
  mkdirSync(join(dir, 'db'))
  const adminPassword = 'ldap-admin-secret'
  writeFileSync(join(dir, 'slapd.conf'), [
    'include /etc/ldap/schema/core.schema',
    'include /etc/ldap/schema/cosine.schema',
    'include /etc/ldap/schema/inetorgperson.schema',
    `pidfile ${join(dir, 'slapd.pid')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'database mdb',
    `suffix "${LDAP_SUFFIX}"`,
    `rootdn "${LDAP_ADMIN_DN}"`,
    `rootpw ${adminPassword}`,
    `directory ${join(dir, 'db')}`,
    'maxsize 16777216',
    'access to attrs=userPassword by self write by anonymous auth by * none',
    'access to * by * read',
    '',
  ].join('\n'))
  const port = await freePort()
  const url = `ldap://127.0.0.1:${port}`
  // -d 0: stay in the foreground (the test owns the process), no debug output
  const proc = spawn(SLAPD_BIN, ['-f', join(dir, 'slapd.conf'), '-h', `${url}/`, '-d', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  proc.stdout?.on('data', (d) => (out = (out + String(d)).slice(-4000)))
  proc.stderr?.on('data', (d) => (out = (out + String(d)).slice(-4000)))
  const stop = async () => {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r))
      proc.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (proc.exitCode === null) proc.kill('SIGKILL')
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitReady(url, proc, () => out)
    const admin = new Client({ url })
    await admin.bind(LDAP_ADMIN_DN, adminPassword)
    await admin.add(LDAP_SUFFIX, { objectClass: ['top', 'dcObject', 'organization'], dc: 'example', o: 'Example' })
    await admin.add(LDAP_USERS_OU, { objectClass: ['top', 'organizationalUnit'], ou: 'people' })
    await admin.unbind()
  } catch (e) {
    await stop()
    throw e
  }
  const addUser = async (u: SeedUser) => {
    const c = new Client({ url })
    try {
      await c.bind(LDAP_ADMIN_DN, adminPassword)
      const attrs: Record<string, string | string[]> = { objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'], uid: u.uid, cn: u.cn, sn: u.sn ?? u.cn, userPassword: u.password }
      if (u.mail) attrs.mail = u.mail
      await c.add(`uid=${u.uid},${LDAP_USERS_OU}`, attrs)
    } finally {
      await c.unbind()
    }
  }
  for (const u of users) await addUser(u)
  return { url, adminDn: LDAP_ADMIN_DN, adminPassword, usersOu: LDAP_USERS_OU, addUser, stop }
}
