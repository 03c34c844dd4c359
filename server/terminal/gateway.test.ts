import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { isUserBlocked } from '../auth/limits.ts'
import { bindOtp } from '../auth/test-support.ts'
import { totp } from '../auth/totp.ts'
import { setSettings } from '../settings/store.ts'
import { startGateway } from './index.ts'
import { useTerminalFixture } from './test-support.ts'

/** Debian's OpenSSH client on a PTY (-tt), driven through its standard input; the output as text. */
class SshClient {
  readonly child: ChildProcess
  output = ''
  exited: number | null = null
  private waiters: Array<() => void> = []

  constructor(args: string[], password?: string, env?: NodeJS.ProcessEnv) {
    const ssh = ['ssh', '-tt', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
      '-o', 'NumberOfPasswordPrompts=1', '-o', 'ConnectTimeout=10', ...args]
    const cmd = password === undefined ? ssh : ['sshpass', '-p', password, ...ssh]
    this.child = spawn(cmd[0]!, cmd.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : process.env })
    const take = (d: Buffer) => {
      this.output += d.toString('utf8')
      this.wake()
    }
    this.child.stdout!.on('data', take)
    this.child.stderr!.on('data', take)
    this.child.on('exit', (code) => {
      this.exited = code ?? -1
      this.wake()
    })
  }

  private wake() {
    const w = this.waiters
    this.waiters = []
    w.forEach((f) => f())
  }

  async until(predicate: () => boolean, what: string, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms
    while (!predicate()) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`waiting for ${what}: ${JSON.stringify(this.output.slice(-800))}`)
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(t)
          resolve()
        })
      })
    }
  }

  type(text: string) {
    this.child.stdin!.write(text)
  }

  async done(): Promise<number> {
    await this.until(() => this.exited !== null, 'exit')
    return this.exited!
  }
}

describe('SSH gateway (Debian OpenSSH client against the built-in gateway)', () => {
  const f = useTerminalFixture()
  let port = 0
  beforeAll(async () => {
    port = await startGateway(f.t.app, 0, '127.0.0.1')
  })
  const at = (user: string) => [`${user}@127.0.0.1`, '-p', String(port)]

  it('JMS-<token> with the token value goes straight to the asset; the session is ST', async () => {
    const g = await f.grantedUser('gwtoken')
    const r = await g.c.post('/api/v1/authentication/connection-token/', { asset: g.assetId, account: 'gwtoken-acc', protocol: 'ssh', connect_method: 'ssh_client' })
    const { id, value, ssh } = r.json() as { id: string; value: string; ssh: { command: string; host: string; port: number } }
    // the request's host while the Site URL setting is the default
    expect(ssh).toEqual({ host: 'localhost', port, username: `JMS-${id}`, command: `ssh JMS-${id}@localhost -p ${port}` })
    const c = new SshClient(at(`JMS-${id}`), value)
    c.type('echo tok-$((5+5))\r')
    await c.until(() => c.output.includes('tok-10'), 'echo through the token login')
    c.type('exit\r')
    await c.done()
    const sessions = (await f.admin.get(`/api/v1/terminal/sessions/?user_id=${g.userId}`)).json() as Array<{ login_from: { value: string }; is_finished: boolean; protocol: string }>
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ login_from: { value: 'ST' }, is_finished: true, protocol: 'ssh' })
    // a wrong value is refused
    const bad = new SshClient(at(`JMS-${id}`), 'wrong')
    expect(await bad.done()).not.toBe(0)
  })

  it('username + password opens the menu: search, pick by number, back to the menu, q leaves', async () => {
    const g = await f.grantedUser('gwmenu')
    const c = new SshClient(at(g.username), g.password)
    await c.until(() => c.output.includes('Opt> '), 'menu prompt')
    expect(c.output).toContain('gwmenu-host')
    c.type('nothing-like-this\r')
    await c.until(() => c.output.includes('No granted asset matches.'), 'empty search')
    c.type('gwmenu\r')
    await c.until(() => (c.output.match(/Opt> /g) ?? []).length >= 3, 'search result')
    c.type('1\r')
    c.type('echo menu-$((2*21))\r')
    await c.until(() => c.output.includes('menu-42'), 'echo on the asset')
    c.type('exit\r')
    await c.until(() => (c.output.match(/Opt> /g) ?? []).length >= 4, 'back in the menu')
    c.type('q\r')
    expect(await c.done()).toBe(0)
  })

  it('<username>@<asset> goes straight to a granted asset, and refuses one not granted', async () => {
    const g = await f.grantedUser('gwdirect')
    const c = new SshClient(at(`${g.username}@${g.assetName}`), g.password)
    c.type('echo direct-$((1+2))\r')
    await c.until(() => c.output.includes('direct-3'), 'echo')
    c.type('exit\r')
    await c.done()
    const other = await f.grantedUser('gwnotmine')
    const d = new SshClient(at(`${g.username}@${other.assetName}`), g.password)
    await d.done()
    expect(d.output).toContain(`The asset "${other.assetName}" is not granted to you.`)
  })

  it('a public key of the user\'s profile logs in to the menu', async () => {
    const g = await f.grantedUser('gwkey')
    const dir = mkdtempSync(join(tmpdir(), 'gw-key-'))
    const key = join(dir, 'id')
    await new Promise((resolve, reject) => spawn('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]).on('exit', (code) => (code === 0 ? resolve(null) : reject(new Error('ssh-keygen')))))
    const pub = readFileSync(`${key}.pub`, 'utf8').trim()
    await sql`update users set public_key = ${pub} where id = ${g.userId}`.execute(f.t.database.db)
    const c = new SshClient(['-i', key, '-o', 'PasswordAuthentication=no', '-o', 'IdentitiesOnly=yes', ...at(g.username)])
    await c.until(() => c.output.includes('Opt> '), 'menu by key')
    c.type('q\r')
    expect(await c.done()).toBe(0)
    const log = (await sql<{ backend: string; status: boolean; type: string }>`select backend, status, type from login_logs where username = ${g.username} order by datetime desc limit 1`.execute(f.t.database.db)).rows[0]
    expect(log).toEqual({ backend: 'publickey', status: true, type: 'T' })
  })

  it('a temporary password of the profile logs in once (AUTH_TEMP_TOKEN)', async () => {
    const g = await f.grantedUser('gwtemp')
    await setSettings(f.t.database.db, { AUTH_TEMP_TOKEN: true })
    const made = await g.c.post('/api/v1/authentication/temp-tokens/', {})
    expect(made.statusCode, made.body).toBe(201)
    const secret = made.json().secret as string
    const c = new SshClient(at(g.username), secret)
    await c.until(() => c.output.includes('Opt> '), 'menu by temporary password')
    c.type('q\r')
    expect(await c.done()).toBe(0)
    const log = (await sql<{ backend: string; status: boolean }>`select backend, status from login_logs where username = ${g.username} order by datetime desc limit 1`.execute(f.t.database.db)).rows[0]
    expect(log).toEqual({ backend: 'temp_token', status: true })
    const again = new SshClient(at(g.username), secret)
    expect(await again.done()).not.toBe(0)
    expect(again.output).not.toContain('Opt> ')
  })

  it('failed logins count toward the web login\'s limits and block the user; they are in the login logs', async () => {
    const g = await f.grantedUser('gwlimit')
    await setSettings(f.t.database.db, { SECURITY_LOGIN_LIMIT_COUNT: 3 })
    try {
      for (let i = 0; i < 3; i++) expect(await new SshClient(at(g.username), 'wrong-password').done()).not.toBe(0)
      const right = new SshClient(at(g.username), g.password)
      expect(await right.done()).not.toBe(0)
      const logs = (await sql<{ status: boolean; reason: string }>`select status, reason from login_logs where username = ${g.username} and type = 'T' order by datetime`.execute(f.t.database.db)).rows
      expect(logs.length).toBe(4)
      expect(logs.every((l) => !l.status)).toBe(true)
      expect(logs.at(-1)!.reason).toBe('Login blocked')
      // the web login is blocked too
      const web = await f.t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', payload: { username: g.username, password: g.password }, headers: { 'accept-language': 'en' } })
      expect(web.statusCode).toBe(400)
      expect(web.json().code).toBe('blocked')
    } finally {
      await setSettings(f.t.database.db, { SECURITY_LOGIN_LIMIT_COUNT: 7 })
    }
  })

  it('MFA: OpenSSH answers the password, then the OTP as keyboard-interactive; a wrong OTP is refused and counts toward the login limits', async () => {
    const g = await f.grantedUser('gwmfa')
    const secret = await bindOtp(f.t, g.userId)
    // OpenSSH's own prompts answered by an askpass program, by their text (SSH_ASKPASS_REQUIRE=force: even with a TTY)
    const dir = mkdtempSync(join(tmpdir(), 'gw-askpass-'))
    const askpass = join(dir, 'askpass.sh')
    writeFileSync(askpass, [
      '#!/bin/sh',
      `printf '%s\\n' "$1" >> '${dir}/prompts'`,
      'case "$1" in',
      `  *OTP*) cat '${dir}/otp' ;;`,
      `  *assword*) cat '${dir}/password' ;;`,
      '  *) exit 1 ;;',
      'esac',
      '',
    ].join('\n'))
    chmodSync(askpass, 0o755)
    writeFileSync(join(dir, 'password'), `${g.password}\n`)
    const env = { SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' }
    const valid = [-30_000, 0, 30_000].map((d) => totp(secret, Date.now() + d))
    const wrong = ['000000', '111111', '222222', '333333'].find((c) => !valid.includes(c))!
    const attempt = (otp: string) => {
      writeFileSync(join(dir, 'otp'), `${otp}\n`)
      return new SshClient(['-o', 'PreferredAuthentications=password,keyboard-interactive', '-o', 'PubkeyAuthentication=no', ...at(g.username)], undefined, env)
    }
    const logs = async () => (await sql<{ status: boolean; reason: string; mfa: number }>`select status, reason, mfa from login_logs where username = ${g.username} and type = 'T' order by datetime`.execute(f.t.database.db)).rows
    await setSettings(f.t.database.db, { SECURITY_LOGIN_LIMIT_COUNT: 2 })
    try {
      // the right password, a wrong OTP: refused, never the menu
      const bad = attempt(wrong)
      expect(await bad.done()).not.toBe(0)
      expect(bad.output).not.toContain('Opt> ')
      const prompts = readFileSync(join(dir, 'prompts'), 'utf8')
      expect(prompts).toMatch(/password/)
      expect(prompts).toContain('OTP code: ')
      expect((await logs()).at(-1)).toMatchObject({ status: false, mfa: 1 })
      // the right password and OTP: the menu
      const good = attempt(totp(secret))
      await good.until(() => good.output.includes('Opt> '), 'menu after the OTP')
      good.type('q\r')
      expect(await good.done()).toBe(0)
      expect((await logs()).at(-1)).toMatchObject({ status: true, mfa: 1 })
      // two wrong OTPs in a row reach the limit (2): counted like the web login's failures, the user is marked blocked
      // (a blocked user with MFA still gets in with the right password and the right code, as on the web: issue 36)
      expect(await isUserBlocked(f.t.database.db, g.username)).toBe(false)
      for (let i = 0; i < 2; i++) expect(await attempt(wrong).done()).not.toBe(0)
      expect(await isUserBlocked(f.t.database.db, g.username)).toBe(true)
      const rows = await logs()
      expect(rows.slice(-2)).toEqual([{ status: false, reason: 'MFA failed', mfa: 1 }, { status: false, reason: 'MFA failed', mfa: 1 }])
    } finally {
      await setSettings(f.t.database.db, { SECURITY_LOGIN_LIMIT_COUNT: 7 })
    }
  })
})
