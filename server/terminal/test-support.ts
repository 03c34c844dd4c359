/** What the built-in terminal's tests share: a real sshd, a granted asset on it, and a websocket client. */
import { afterAll, beforeAll, expect } from 'vitest'
import WebSocket from 'ws'
import { startSshd, type Sshd, type SshdUser } from '../testing/sshd.ts'
import { createTestServer, type TestClient, type TestServer } from '../testing.ts'
import { terminalManager } from './index.ts'
import { TERMINAL_SOCKET_PATH } from './ws.ts'

export interface TerminalFixture {
  t: TestServer
  admin: TestClient
  sshd: Sshd
  host: SshdUser
  /** host:port the server listens on */
  address: string
  /** Makes a user granted an asset on the sshd (with the host user's account): ids and a client. */
  grantedUser(tag: string, extra?: { actions?: string[]; dateExpired?: string }): Promise<Granted>
}

export interface Granted { userId: string; username: string; password: string; c: TestClient; assetId: string; assetName: string; accountId: string; permId: string }

export function useTerminalFixture(): TerminalFixture {
  const f = {} as TerminalFixture
  beforeAll(async () => {
    f.sshd = await startSshd()
    f.host = await f.sshd.addUser()
    f.t = await createTestServer()
    f.admin = await f.t.as('admin')
    f.admin.headers['accept-language'] = 'en'
    f.address = await f.t.listen()
    f.grantedUser = async (tag, extra = {}) => {
      const password = `Pw-${tag}-Aa1!x9`
      const userId = await f.t.createUser({ username: tag, password })
      const c = await f.t.as(tag)
      c.headers['accept-language'] = 'en'
      const asset = await f.admin.post('/api/v1/assets/hosts/', { name: `${tag}-host`, address: f.sshd.host, platform: 1, protocols: [{ name: 'ssh', port: f.sshd.port }] })
      expect(asset.statusCode, asset.body).toBe(201)
      const assetId = asset.json().id as string
      const acc = await f.admin.post('/api/v1/accounts/accounts/', { asset: assetId, name: `${tag}-acc`, username: f.host.username, secret_type: 'password', secret: f.host.password })
      expect(acc.statusCode, acc.body).toBe(201)
      const perm = await f.admin.post('/api/v1/perms/asset-permissions/', {
        name: `${tag}-perm`, users: [userId], assets: [assetId], accounts: ['@ALL'], ...(extra.actions ? { actions: extra.actions } : {}),
        ...(extra.dateExpired ? { date_expired: extra.dateExpired } : {}),
      })
      expect(perm.statusCode, perm.body).toBe(201)
      return { userId, username: tag, password, c, assetId, assetName: `${tag}-host`, accountId: acc.json().id as string, permId: perm.json().id as string }
    }
  }, 60_000)
  afterAll(async () => {
    await f.t?.close()
    await f.sshd?.stop()
  })
  return f
}

export async function tokenFor(g: Granted): Promise<string> {
  const r = await g.c.post('/api/v1/authentication/connection-token/', { asset: g.assetId, account: `${g.username}-acc`, protocol: 'ssh', connect_method: 'web_cli' })
  expect(r.statusCode, r.body).toBe(201)
  return r.json().id as string
}

export interface Frame { type: string; [k: string]: unknown }

/** A real websocket client of /ws/terminal/: the output as text, the JSON frames, event-driven waits. */
export class TermClient {
  readonly ws: WebSocket
  output = ''
  frames: Frame[] = []
  closed: { code: number } | null = null
  private waiters: Array<() => void> = []

  constructor(address: string, c: TestClient, path = TERMINAL_SOCKET_PATH, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(`ws://${address}${path}`, { headers: { cookie: c.cookieHeader(), 'accept-language': 'en', ...headers } })
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) this.output += Buffer.from(data as Buffer).toString('utf8')
      else this.frames.push(JSON.parse(data.toString()) as Frame)
      this.wake()
    })
    this.ws.on('close', (code) => {
      this.closed = { code }
      this.wake()
    })
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ws.readyState === WebSocket.OPEN) return resolve()
      this.ws.once('open', () => resolve())
      this.ws.once('error', reject)
    })
  }

  private wake() {
    const w = this.waiters
    this.waiters = []
    w.forEach((f) => f())
  }

  /** Resolves when `predicate` holds (a generous safety deadline only turns a hang into a failure). */
  async until(predicate: () => boolean, what = 'condition', ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms
    while (!predicate()) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`waiting for ${what}: output ${JSON.stringify(this.output.slice(-500))}, frames ${JSON.stringify(this.frames)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  frame(type: string): Frame | undefined {
    return this.frames.find((f) => f.type === type)
  }

  send(msg: unknown) {
    this.ws.send(JSON.stringify(msg))
  }

  type(text: string) {
    this.send({ type: 'data', data: text })
  }
}

export { terminalManager }
