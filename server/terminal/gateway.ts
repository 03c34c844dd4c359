/**
 * The SSH gateway (issue 30; koko's SSH server): an ssh2 `Server` in the server process on SSH_PORT (default
 * 2222, 0 = off), its host key generated into DATA_DIR on first start and kept. Logins:
 * - `JMS-<connection token id>` with the token's value as password: straight to the token's asset and account;
 * - `<username>` with the user's password (then the OTP as a keyboard-interactive step when the user has MFA) or a
 *   public key of the user's profile: a menu of the user's granted assets;
 * - `<username>@<asset name or address>`: straight to that asset when it is granted.
 * Password and OTP checks are the web login's (server/auth/authenticate.ts): the same blocks and failure counts,
 * and a login log row per attempt (type T, terminal; user agent = the client's SSH version).
 */
import { consumeTempToken } from '../profile/temp-tokens.ts'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import ssh2, { type AuthContext, type Connection, type ServerChannel } from 'ssh2'
import { findLoginUser, LoginFailure, mfaFlag, precheck, verifyCredentials, countedFailure, type LoginUser } from '../auth/authenticate.ts'
import { limitSettings, clearFailures } from '../auth/limits.ts'
import { writeLoginLog } from '../auth/login-log.ts'
import { AUTH_MESSAGES as M } from '../auth/messages.ts'
import { checkUserOtp } from '../auth/otp-store.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import './messages.ts'
import { assetGrant, ensureUserGrants } from '../resources/perms/grants.ts'
import { ACTION_BITS } from '../resources/perms/permissions.ts'
import { hashToken } from '../resources/perms/tokens.ts'
import { openSecret } from '../resources/accounts/secrets.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { getSetting } from '../settings/store.ts'
import { tuneSocket } from '../automation/ssh.ts'
import { FileSpace } from './files.ts'
import { serveSftp } from './sftp.ts'
import { TerminalError, type OpenRequest, type TerminalManager, type TerminalSession } from './session.ts'

const { Server, utils } = ssh2


/** The gateway's host key: DATA_DIR/ssh_host_ed25519_key, generated on first start (OpenSSH format, 0600). */
export function gatewayHostKey(dataDir: string): string {
  const file = join(dataDir, 'ssh_host_ed25519_key')
  if (existsSync(file)) return readFileSync(file, 'utf8')
  mkdirSync(dataDir, { recursive: true })
  const pair = utils.generateKeyPairSync('ed25519', { comment: 'bastion ssh gateway' })
  writeFileSync(file, pair.private, { mode: 0o600 })
  writeFileSync(`${file}.pub`, `${pair.public}\n`, { mode: 0o644 })
  return pair.private
}

type Login =
  | { kind: 'token'; user: LoginUser; token: TokenRow }
  | { kind: 'user'; user: LoginUser; target?: string }

interface TokenRow { id: string; user_id: string; asset_id: string; account: string; input_username: string; input_secret: string; value: string }

/** A request-shaped object for the login pipeline (it reads the database, the peer address, the language, the app). */
function pseudoRequest(app: FastifyInstance, ip: string, ident: string, lang: Lang): FastifyRequest {
  return {
    ctx: { db: app.services.database.db, lang, ip, orgId: ORG_IDS.DEFAULT, tz: 'UTC', user: null, session: null, authBy: null },
    ip, headers: { 'user-agent': ident }, server: app, log: app.log,
  } as unknown as FastifyRequest
}

const TOKEN_USER = /^JMS-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i

export interface GatewayHandle { port: number; close(): Promise<void> }

export async function startSshGateway(app: FastifyInstance, manager: TerminalManager, o: { port: number; host: string }): Promise<GatewayHandle> {
  const cfg = app.services.config
  const db = app.services.database.db
  const hostKey = gatewayHostKey(cfg.dataDir)
  const lang: Lang = 'en'
  const connections = new Set<Connection>()

  const server = new Server({ hostKeys: [hostKey], ident: 'bastion' }, (client, info) => {
    connections.add(client)
    tuneSocket((client as unknown as { _sock?: unknown })._sock)
    client.on('close', () => connections.delete(client))
    client.on('error', () => undefined)
    const ip = info.ip
    const ident = info.header.identRaw.slice(0, 254)
    const req = pseudoRequest(app, ip, ident, lang)
    let login: Login | undefined
    let pendingOtp: LoginUser | undefined
    let busy = false

    client.on('authentication', (ctx: AuthContext) => {
      if (busy) return ctx.reject()
      busy = true
      authenticate(ctx).catch((err) => {
        app.log.warn({ err }, 'ssh gateway authentication failed')
        ctx.reject()
      }).finally(() => (busy = false))
    })

    const failLog = (username: string, e: LoginFailure) => writeLoginLog(req, { username, type: 'T', mfa: e.mfa, status: false, reason: e.reason, backend: 'password' })

    async function authenticate(ctx: AuthContext): Promise<void> {
      const raw = ctx.username
      const token = TOKEN_USER.exec(raw)
      const s = await limitSettings(db)
      if (token) {
        if (ctx.method !== 'password') return ctx.reject(['password'])
        try {
          await precheck(req, raw, s)
          const row = (await sql<TokenRow>`select id, user_id, asset_id, account, input_username, input_secret, value from connection_tokens
            where id = ${token[1]!.toLowerCase()} and is_active and date_expired > now()`.execute(db)).rows[0]
          const want = Buffer.from(row?.value ?? '0'.repeat(64))
          const got = Buffer.from(hashToken(ctx.password))
          const user = row ? await findLoginUser(req, { id: row.user_id }) : undefined
          if (!row || !user || want.length !== got.length || !timingSafeEqual(want, got)) {
            throw await countedFailure(req, raw, s, { text: M.invalidLogin, code: 'invalid_credentials', reason: M.reasonPassword, mfa: 2 })
          }
          if (!user.is_active || (user.date_expired && user.date_expired.getTime() < Date.now())) throw new LoginFailure('inactive', M.inactive, undefined, M.reasonInvalid, mfaFlag(user))
          login = { kind: 'token', user, token: row }
          await writeLoginLog(req, { username: user.username, type: 'T', mfa: mfaFlag(user), status: true, backend: 'connection_token' })
          return ctx.accept()
        } catch (e) {
          if (!(e instanceof LoginFailure)) throw e
          await failLog(raw, e)
          return ctx.reject(['password'])
        }
      }
      const at = raw.indexOf('@')
      const username = at < 0 ? raw : raw.slice(0, at)
      const target = at < 0 ? undefined : raw.slice(at + 1)
      const allowPassword = (await getSetting(db, 'TERMINAL_PASSWORD_AUTH')) !== false
      const allowKey = (await getSetting(db, 'TERMINAL_PUBLIC_KEY_AUTH')) !== false
      const methods = [...(allowKey ? ['publickey' as const] : []), ...(allowPassword ? ['password' as const] : [])]
      if (ctx.method === 'keyboard-interactive' && pendingOtp) {
        const user = pendingOtp
        ctx.prompt([{ prompt: tr(lang, 'OTP code: '), echo: false }], (answers) => {
          void (async () => {
            const check = await checkUserOtp(db, cfg, user.id, answers[0] ?? '')
            if (check === 'ok') {
              pendingOtp = undefined
              login = { kind: 'user', user, target }
              await clearFailures(db, username)
              await writeLoginLog(req, { username, type: 'T', mfa: 1, status: true, backend: 'password' })
              return ctx.accept()
            }
            const e = await countedFailure(req, username, s, { text: M.invalidLogin, code: 'mfa_failed', reason: M.reasonMfa, mfa: 1 })
            await failLog(username, e)
            ctx.reject(['keyboard-interactive'], true)
          })().catch(() => ctx.reject())
        })
        return
      }
      if (ctx.method === 'password' && allowPassword) {
        try {
          await precheck(req, username, s)
          // A temporary password of the profile (issue 34; AUTH_TEMP_TOKEN): once, within its 300 s, no second step
          // (it was made in a signed-in web session, MFA included).
          const tempUserId = ctx.password.length === 36 ? await consumeTempToken(db, username, ctx.password) : undefined
          const tempUser = tempUserId ? await findLoginUser(req, { id: tempUserId }) : undefined
          if (tempUser?.is_active && !(tempUser.date_expired && tempUser.date_expired.getTime() < Date.now())) {
            login = { kind: 'user', user: tempUser, target }
            await clearFailures(db, username)
            await writeLoginLog(req, { username, type: 'T', mfa: 0, status: true, backend: 'temp_token' })
            return ctx.accept()
          }
          const user = await verifyCredentials(req, { username, type: 'T' }, ctx.password, s)
          if (await needsOtp(user)) {
            pendingOtp = user
            return ctx.reject(['keyboard-interactive'], true)
          }
          login = { kind: 'user', user, target }
          await clearFailures(db, username)
          await writeLoginLog(req, { username, type: 'T', mfa: mfaFlag(user), status: true, backend: 'password' })
          return ctx.accept()
        } catch (e) {
          if (!(e instanceof LoginFailure)) throw e
          await failLog(username, e)
          return ctx.reject(methods)
        }
      }
      if (ctx.method === 'publickey' && allowKey) {
        const user = await findLoginUser(req, { username })
        const keyLine = user ? (await sql<{ public_key: string }>`select public_key from users where id = ${user.id}`.execute(db)).rows[0]?.public_key ?? '' : ''
        const parsed = keyLine ? utils.parseKey(keyLine) : undefined
        const key = parsed && !(parsed instanceof Error) ? (Array.isArray(parsed) ? parsed[0] : parsed) : undefined
        const matches = !!key && key.type === ctx.key.algo && key.getPublicSSH().equals(ctx.key.data)
        if (!matches || !user) return ctx.reject(methods)
        // the first round only asks whether the key would do; the second carries its signature
        if (!ctx.signature) return ctx.accept()
        if (!key!.verify(ctx.blob!, ctx.signature, ctx.hashAlgo)) return ctx.reject(methods)
        try {
          await precheck(req, username, s)
          if (!user.is_active || (user.date_expired && user.date_expired.getTime() < Date.now())) throw new LoginFailure('inactive', M.inactive, undefined, M.reasonInvalid, mfaFlag(user))
        } catch (e) {
          if (!(e instanceof LoginFailure)) throw e
          await failLog(username, e)
          return ctx.reject(methods)
        }
        login = { kind: 'user', user, target }
        await writeLoginLog(req, { username, type: 'T', mfa: mfaFlag(user), status: true, backend: 'publickey' })
        return ctx.accept()
      }
      return ctx.reject(methods)
    }

    async function needsOtp(user: LoginUser): Promise<boolean> {
      if (!user.otp_secret) return false
      return user.mfa_level > 0 || Number(await getSetting(db, 'SECURITY_MFA_AUTH')) > 0
    }

    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept()
        let size = { cols: 80, rows: 24 }
        let shell: Shell | undefined
        session.on('pty', (ok, _no, p) => {
          size = { cols: p.cols || 80, rows: p.rows || 24 }
          ok?.()
        })
        session.on('window-change', (ok, _no, p) => {
          size = { cols: p.cols || size.cols, rows: p.rows || size.rows }
          shell?.resize(size.cols, size.rows)
          ok?.()
        })
        session.on('shell', (ok) => {
          const channel = ok()
          if (!login) return channel.end()
          shell = new Shell(app, manager, channel, login, { ip, lang, size })
          void shell.run().catch((err) => app.log.warn({ err }, 'ssh gateway session failed')).finally(() => {
            channel.exit(0)
            channel.end()
          })
        })
        session.on('exec', (_ok, no) => no?.())
        session.on('sftp', (ok, no) => {
          if (!login) return no?.()
          const u = login.user
          const only = login.kind === 'token' ? { assetId: login.token.asset_id } : login.target ? { asset: login.target } : undefined
          const channel = ok()
          // each host connection is a session of the audit (protocol sftp); terminating one ends this SFTP channel
          const space = new FileSpace(db, { id: u.id, username: u.username, name: u.name }, {
            remoteAddr: ip, lang, tz: cfg.timeZone, only, sessions: { manager, loginFrom: 'ST', onTerminated: () => channel.end() },
          })
          serveSftp(channel, space, (err) => app.log.warn({ err }, 'ssh gateway sftp request failed'))
        })
        session.on('subsystem', (_ok, no) => no?.())
      })
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, o.host, () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : o.port
  await manager.component.ensure()
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      for (const c of connections) c.end()
      server.close(() => resolve())
    }),
  }
}

/** One interactive shell channel: the menu, or straight to an asset; line input with its own echo. */
class Shell {
  private decoder = new StringDecoder('utf8')
  private lineWaiter?: { resolve: (line: string | null) => void; echo: boolean; buf: string }
  private session?: TerminalSession
  private ended = false
  readonly lang: Lang

  constructor(
    private readonly app: FastifyInstance,
    private readonly manager: TerminalManager,
    private readonly channel: ServerChannel,
    private readonly login: Login,
    private readonly o: { ip: string; lang: Lang; size: { cols: number; rows: number } },
  ) {
    this.lang = o.lang
    channel.on('data', (d: Buffer) => this.onData(this.decoder.write(d)))
    channel.on('close', () => {
      this.ended = true
      this.lineWaiter?.resolve(null)
      void this.session?.end('closed', tr(this.lang, 'The session ended.'))
    })
  }

  resize(cols: number, rows: number) {
    this.o.size = { cols, rows }
    this.session?.resize(cols, rows)
  }

  private write(text: string) {
    if (!this.ended) this.channel.write(text.replace(/\r?\n/g, '\r\n'))
  }

  /** Typed while nothing reads (connecting): handed to what reads next. Bounded. */
  private early = ''

  private onData(text: string) {
    if (!text) return
    if (this.session) return this.session.input(text)
    const w = this.lineWaiter
    if (!w) {
      if (this.early.length < 64 * 1024) this.early += text
      return
    }
    let rest = text
    for (const ch of text) {
      rest = rest.slice(ch.length)
      if (ch === '\r' || ch === '\n') {
        this.channel.write('\r\n')
        this.lineWaiter = undefined
        this.early = rest.replace(/^\n/, '')
        return w.resolve(w.buf)
      }
      if (ch === '\x03') {
        this.channel.write('^C\r\n')
        this.lineWaiter = undefined
        this.early = rest
        return w.resolve('')
      }
      if (ch === '\x04' && !w.buf) {
        this.lineWaiter = undefined
        return w.resolve(null)
      }
      if (ch === '\x7f' || ch === '\b') {
        if (w.buf) {
          w.buf = [...w.buf].slice(0, -1).join('')
          if (w.echo) this.channel.write('\b \b')
        }
        continue
      }
      if (ch < ' ' || w.buf.length > 1024) continue
      w.buf += ch
      if (w.echo) this.channel.write(ch)
    }
  }

  private readLine(prompt: string, echo = true): Promise<string | null> {
    if (this.ended) return Promise.resolve(null)
    this.write(prompt)
    return new Promise((resolve) => {
      this.lineWaiter = { resolve, echo, buf: '' }
      const early = this.early
      this.early = ''
      if (early) this.onData(early)
    })
  }

  async run(): Promise<void> {
    const login = this.login
    if (login.kind === 'token') {
      const t = login.token
      await this.connect({
        assetId: t.asset_id, account: t.account, inputUsername: t.input_username || undefined,
        inputSecret: t.input_secret ? openSecret(this.app.services.database, 'connection_tokens', t.id, 'input_secret', t.input_secret) : undefined,
      })
      return
    }
    if (login.target) {
      const assets = await this.granted(login.target, true)
      if (!assets.length) {
        this.write(`${tr(this.lang, 'The asset "{asset}" is not granted to you.', { asset: login.target })}\n`)
        return
      }
      await this.pickAccountAndConnect(assets[0]!)
      return
    }
    await this.menu()
  }

  /** The user's granted, active assets with SSH (all organizations), filtered by name or address. */
  private async granted(search: string, exact = false): Promise<Array<{ id: string; name: string; address: string; org_id: string }>> {
    const db = this.manager.db
    const user = this.login.user
    await ensureUserGrants(db, user.id, ORG_IDS.ROOT)
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    const cond = !search ? sql`true` : exact ? sql`(a.name = ${search} or a.address = ${search})` : sql`(a.name ilike ${like} or a.address ilike ${like})`
    return (await sql<{ id: string; name: string; address: string; org_id: string }>`select a.id, a.name, a.address, a.org_id from assets a
      where a.id in (select g.asset_id from perm_user_assets g where g.user_id = ${user.id} and g.org_id = ${ORG_IDS.ROOT})
        and a.is_active and exists (select 1 from asset_protocols p where p.asset_id = a.id and p.name = 'ssh') and ${cond}
      order by a.name, a.id limit 200`.execute(db)).rows
  }

  private async menu(): Promise<void> {
    const user = this.login.user
    this.write(`\n${tr(this.lang, 'Welcome, {name}.', { name: user.name })}\n${tr(this.lang, 'Type a number to connect, text to search by name or address, Enter to list all, q to leave.')}\n`)
    let shown = await this.granted('')
    this.list(shown)
    for (;;) {
      const line = await this.readLine('Opt> ')
      if (line === null) return
      const text = line.trim()
      if (text === 'q' || text === 'exit') {
        this.write(`${tr(this.lang, 'Goodbye.')}\n`)
        return
      }
      if (/^\d+$/.test(text) && shown[Number(text) - 1]) {
        await this.pickAccountAndConnect(shown[Number(text) - 1]!)
        if (this.ended) return
        this.write(`\n${tr(this.lang, 'Type a number to connect, text to search by name or address, Enter to list all, q to leave.')}\n`)
        continue
      }
      shown = await this.granted(text)
      this.list(shown)
    }
  }

  private list(assets: Array<{ name: string; address: string }>) {
    if (!assets.length) return this.write(`${tr(this.lang, 'No granted asset matches.')}\n`)
    const width = Math.max(4, ...assets.map((a) => a.name.length))
    this.write(`  ID | ${'Name'.padEnd(width)} | Address\n`)
    assets.forEach((a, i) => this.write(`${String(i + 1).padStart(4)} | ${a.name.padEnd(width)} | ${a.address}\n`))
  }

  private async pickAccountAndConnect(asset: { id: string; name: string; org_id: string }): Promise<void> {
    const user = this.login.user
    const grant = await assetGrant(this.manager.db, { kind: 'user', id: user.id }, asset.org_id, asset.id, user.username)
    const accounts = (grant?.accounts ?? []).filter((a) => (a.actions & ACTION_BITS.connect!) !== 0 && a.alias !== '@ANON')
    if (!accounts.length) {
      this.write(`${tr(this.lang, 'The asset "{asset}" is not granted to you.', { asset: asset.name })}\n`)
      return
    }
    let account = accounts[0]!
    if (accounts.length > 1) {
      this.write(`${tr(this.lang, 'Choose an account:')}\n`)
      accounts.forEach((a, i) => this.write(`${String(i + 1).padStart(4)} | ${a.name}${a.username ? ` (${a.username})` : ''}\n`))
      const pick = await this.readLine('Account> ')
      if (pick === null) return
      const chosen = accounts[Number(pick.trim()) - 1]
      if (!chosen) return
      account = chosen
    }
    let inputUsername: string | undefined
    let inputSecret: string | undefined
    if (!account.id) {
      if (account.alias === '@INPUT') {
        const u = await this.readLine(tr(this.lang, 'Username: '))
        if (u === null) return
        inputUsername = u.trim()
      }
      const p = await this.readLine(tr(this.lang, 'Password: '), false)
      if (p === null) return
      inputSecret = p
    }
    await this.connect({ assetId: asset.id, account: account.id ?? account.alias, inputUsername, inputSecret })
  }

  private async connect(o: Pick<OpenRequest, 'assetId' | 'account' | 'inputUsername' | 'inputSecret'>): Promise<void> {
    const user = this.login.user
    const abort = new AbortController()
    this.channel.once('close', () => abort.abort())
    let s: TerminalSession
    try {
      s = await this.manager.open({
        ...o, user: { id: user.id, username: user.username, name: user.name }, lang: this.lang, loginFrom: 'ST', remoteAddr: this.o.ip,
        cols: this.o.size.cols, rows: this.o.size.rows, signal: abort.signal,
        onWait: () => this.write(`${tr(this.lang, 'waiting for approval…')}\n`),
      })
    } catch (e) {
      if (!(e instanceof TerminalError)) throw e
      this.write(`\x1b[31m${e.message}\x1b[0m\n`)
      return
    }
    if (this.ended) {
      await s.end('closed', tr(this.lang, 'The session ended.'))
      return
    }
    this.session = s
    const output = s.takeEarlyOutput()
    if (output.length) this.channel.write(output)
    const early = this.early
    this.early = ''
    if (early) s.input(early)
    await new Promise<void>((resolve) => {
      const onOutput = (d: Buffer) => {
        if (!this.channel.write(d)) {
          s.pauseOutput('ssh')
          this.channel.once('drain', () => s.resumeOutput('ssh'))
        }
      }
      s.on('output', onOutput)
      s.once('close', (c: { reason: string; message: string }) => {
        s.off('output', onOutput)
        this.session = undefined
        if (c.reason !== 'exit' && c.reason !== 'closed') this.write(`\r\n\x1b[33m${c.message}\x1b[0m\n`)
        resolve()
      })
    })
  }
}
