/**
 * Test fixture: a real OpenSSH server (Debian's openssh-server, /usr/sbin/sshd) on a free loopback port, with
 * a throw-away configuration, host key and authorized keys in a temporary directory. Password logins use
 * throw-away OS users (useradd with a random name, removed by `stop()`), so the tests run as root — as they do
 * here and in CI (`.ci/run` installs openssh-server).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Client } from 'ssh2'

const run = promisify(execFile)

export const SSHD_BINARY = '/usr/sbin/sshd'

export interface SshdUser {
  username: string
  password: string
  /** An OpenSSH private key whose public half is authorized for this user. */
  privateKey: string
  /** A second, passphrase-protected authorized key. */
  encryptedKey: { privateKey: string; passphrase: string }
}

export interface Sshd {
  host: string
  port: number
  /** `SHA256:…` of the server's host key. */
  hostKeyFingerprint: string
  /** A fresh OS user with a random name and password and two authorized keys. */
  addUser(): Promise<SshdUser>
  /** The server's log so far (sshd -e), for failing tests. */
  log(): string
  stop(): Promise<void>
}

/**
 * Whether `username` logs in with `password` on the server (a real SSH client, ssh2): true when the server
 * accepts it, false when it refuses it; any other fault (no server) throws.
 */
export function passwordLogsIn(sshd: Pick<Sshd, 'host' | 'port'>, username: string, password: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const c = new Client()
    c.once('ready', () => { c.end(); resolve(true) })
    c.once('error', (e: Error & { level?: string }) => {
      c.end()
      if (e.level === 'client-authentication') resolve(false)
      else reject(e)
    })
    c.connect({ host: sshd.host, port: sshd.port, username, password, tryKeyboard: false, readyTimeout: 20_000 })
  })
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      const port = typeof address === 'object' && address ? address.port : 0
      s.close(() => resolve(port))
    })
  })
}

async function keygen(dir: string, name: string, passphrase = ''): Promise<{ privateKey: string; publicKey: string }> {
  const file = join(dir, name)
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', name, '-f', file])
  return { privateKey: await readFile(file, 'utf8'), publicKey: await readFile(`${file}.pub`, 'utf8') }
}

async function fingerprintOf(pubFile: string): Promise<string> {
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', pubFile])
  return stdout.split(' ')[1] ?? ''
}

/**
 * `extraConfig`: more sshd_config lines (e.g. `DenyUsers name`: a user the host has but whose logins it refuses);
 * `listenAddress`: another loopback address than 127.0.0.1 (several hosts on one machine).
 */
export async function startSshd(options: { allowTcpForwarding?: boolean; listenAddress?: string; extraConfig?: readonly string[] } = {}): Promise<Sshd> {
  const listen = options.listenAddress ?? '127.0.0.1'
  const dir = await mkdtemp(join(tmpdir(), 'test-sshd-'))
  await chmod(dir, 0o755)
  const keys = join(dir, 'authorized_keys')
  await mkdir(keys, { mode: 0o755 })
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')])
  // Debian's sshd wants its privilege separation directory
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 })
  const users: string[] = []
  let child: ChildProcess | undefined
  let output = ''

  const start = async (port: number) => {
    const config = [
      `Port ${port}`,
      `ListenAddress ${listen}`,
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${keys}/%u`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin no',
      `AllowTcpForwarding ${options.allowTcpForwarding === false ? 'no' : 'yes'}`,
      'MaxStartups 100',
      'MaxAuthTries 6',
      'LoginGraceTime 20',
      'LogLevel VERBOSE',
      'Subsystem sftp internal-sftp',
      ...(options.extraConfig ?? []),
      '',
    ].join('\n')
    await writeFile(join(dir, 'sshd_config'), config, { mode: 0o600 })
    const proc = spawn(SSHD_BINARY, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] })
    child = proc
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sshd did not start within 10 s:\n${output}`)), 10_000)
      proc.stderr!.on('data', (d: Buffer) => {
        output = (output + d.toString()).slice(-200_000)
        if (output.includes(`listening on ${listen} port ${port}`)) {
          clearTimeout(timer)
          resolve()
        }
      })
      proc.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`sshd exited with ${code}:\n${output}`))
      })
      proc.once('error', (err) => {
        clearTimeout(timer)
        reject(err)
      })
    })
  }

  // the free port may be taken between the probe and sshd's bind: try a few
  let port: number
  for (let attempt = 0; ; attempt++) {
    port = await freePort()
    try {
      await start(port)
      break
    } catch (err) {
      if (attempt >= 4 || !/Address already in use/.test(output)) {
        await rm(dir, { recursive: true, force: true })
        throw err
      }
    }
  }
  const hostKeyFingerprint = await fingerprintOf(join(dir, 'host_key.pub'))

  return {
    host: listen,
    port,
    hostKeyFingerprint,
    log: () => output,
    async addUser() {
      const username = `jst${randomBytes(5).toString('hex')}`
      const password = `Pw-${randomBytes(9).toString('base64url')}`
      await run('useradd', ['-M', '-d', join(dir, 'home', username), '-s', '/bin/sh', username])
      users.push(username)
      await mkdir(join(dir, 'home', username), { recursive: true })
      await run('chown', [username, join(dir, 'home', username)])
      await new Promise<void>((resolve, reject) => {
        const p = spawn('chpasswd', [], { stdio: ['pipe', 'ignore', 'pipe'] })
        let err = ''
        p.stderr.on('data', (d: Buffer) => (err += d.toString()))
        p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`chpasswd: ${err}`))))
        p.stdin.end(`${username}:${password}\n`)
      })
      const plain = await keygen(dir, `${username}_key`)
      const passphrase = `pp-${randomBytes(6).toString('hex')}`
      const encrypted = await keygen(dir, `${username}_enc`, passphrase)
      await writeFile(join(keys, username), plain.publicKey + encrypted.publicKey, { mode: 0o644 })
      return { username, password, privateKey: plain.privateKey, encryptedKey: { privateKey: encrypted.privateKey, passphrase } }
    },
    async stop() {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      for (const u of users) await run('userdel', ['-f', u]).catch(() => undefined)
      await rm(dir, { recursive: true, force: true })
    },
  }
}
