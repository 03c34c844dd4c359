import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, startSshd, type Sshd, type SshdUser } from '../testing/sshd.ts'
import { SshError, sshLogin, withSsh } from './ssh.ts'

let sshd: Sshd
let user: SshdUser

beforeAll(async () => {
  sshd = await startSshd()
  user = await sshd.addUser()
}, 30_000)

afterAll(async () => {
  await sshd?.stop()
})

const target = (extra: Partial<Parameters<typeof sshLogin>[0]> = {}) => ({
  host: sshd.host,
  port: sshd.port,
  username: user.username,
  password: user.password,
  ...extra,
})

async function failure(p: Promise<unknown>): Promise<SshError> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(SshError)
    return err as SshError
  }
  throw new Error('expected a failure')
}

describe('the SSH layer against a real OpenSSH server', () => {
  it('logs in with a password, runs commands and reports exit codes, output and the host key', async () => {
    await withSsh(target(), {}, async (s) => {
      expect(s.serverVersion).toMatch(/OpenSSH/)
      expect(s.hostKeyFingerprint).toBe(sshd.hostKeyFingerprint)
      const who = await s.exec('whoami; echo oops >&2; exit 3')
      expect(who).toMatchObject({ code: 3, stdout: `${user.username}\n`, stderr: 'oops\n', truncated: false })
      const cat = await s.exec('cat', { stdin: 'hello\n' })
      expect(cat.stdout).toBe('hello\n')
    })
  })

  it('logs in with a private key, and with an encrypted one and its passphrase', async () => {
    await expect(sshLogin(target({ password: undefined, privateKey: user.privateKey }))).resolves.toMatchObject({
      hostKeyFingerprint: sshd.hostKeyFingerprint,
    })
    await expect(
      sshLogin(target({ password: undefined, privateKey: user.encryptedKey.privateKey, passphrase: user.encryptedKey.passphrase })),
    ).resolves.toBeTruthy()
    const wrong = await failure(
      sshLogin(target({ password: undefined, privateKey: user.encryptedKey.privateKey, passphrase: 'not-it' })),
    )
    expect(wrong.kind).toBe('key')
  })

  it('classifies a wrong password, a closed port, a silent server and a changed host key', async () => {
    expect((await failure(sshLogin(target({ password: 'wrong-password' })))).kind).toBe('auth')
    const closed = await freePort()
    const refused = await failure(sshLogin(target({ port: closed })))
    expect(refused).toMatchObject({ kind: 'unreachable', hop: 'target' })
    // a server that accepts TCP and never says a word
    const sockets: Socket[] = []
    const silent: Server = createServer((s) => sockets.push(s))
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
    const port = (silent.address() as { port: number }).port
    try {
      expect((await failure(sshLogin(target({ port }), { timeoutMs: 500 }))).kind).toBe('timeout')
    } finally {
      for (const s of sockets) s.destroy()
      silent.close()
    }
    const hostKey = await failure(sshLogin(target({ hostKeyFingerprint: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })))
    expect(hostKey.kind).toBe('host_key')
    await expect(sshLogin(target({ hostKeyFingerprint: sshd.hostKeyFingerprint }))).resolves.toBeTruthy()
  })

  it('reaches the target through a gateway, and says which hop failed', async () => {
    const gatewayUser = await sshd.addUser()
    const gateway = { host: sshd.host, port: sshd.port, username: gatewayUser.username, privateKey: gatewayUser.privateKey }
    // the target is addressed as the gateway sees it
    await withSsh(target({ host: 'localhost' }), { gateway }, async (s) => {
      expect((await s.exec('whoami')).stdout.trim()).toBe(user.username)
    })
    const badGateway = await failure(sshLogin(target(), { gateway: { ...gateway, privateKey: undefined, password: 'nope' } }))
    expect(badGateway).toMatchObject({ kind: 'auth', hop: 'gateway' })
    const behind = await failure(sshLogin(target({ port: await freePort() }), { gateway }))
    expect(behind).toMatchObject({ kind: 'unreachable', hop: 'target' })
    const badTarget = await failure(sshLogin(target({ password: 'wrong' }), { gateway }))
    expect(badTarget).toMatchObject({ kind: 'auth', hop: 'target' })
  })

  it('bounds output and time of a command, and stops on abort', async () => {
    await withSsh(target(), {}, async (s) => {
      const big = await s.exec('head -c 100000 /dev/zero', { maxOutputBytes: 1000 })
      expect(big.stdout.length).toBe(1000)
      expect(big.truncated).toBe(true)
      expect((await failure(s.exec('sleep 5', { timeoutMs: 300 }))).kind).toBe('timeout')
    })
    const controller = new AbortController()
    const pending = withSsh(target(), { signal: controller.signal }, (s) => s.exec('sleep 5'))
    setTimeout(() => controller.abort(), 300)
    expect((await failure(pending)).kind).toBe('aborted')
  })
})
