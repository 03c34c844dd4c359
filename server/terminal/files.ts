/**
 * File transfer through the bastion (issue 31; docs/terminal.md "Files"): one user's view of their granted
 * assets as a tree of folders — `/<organization>/<asset>/<account>/<path on the host>` — shared by the SFTP
 * subsystem of the SSH gateway (sftp.ts) and the web file manager's HTTP API (files-http.ts), so both follow the
 * same rules and write the same logs:
 *
 * - An organization, asset or account folder exists only while the user holds a valid permission with the
 *   `connect` action on that account of that asset (in the asset's organization); every operation checks the
 *   grant again (no cache), before anything reaches the host.
 * - Reading a file needs `download`; creating or writing one, `mkdir` and `rename` need `upload`; `delete` and
 *   `rmdir` need `delete` (JumpServer 3.10's bit; 3.2 had none). Symbolic links are not created.
 * - Paths are normalised against the tree's root (`..` never leaves it): a path outside the user's granted folders
 *   is simply not found. Under an account folder the rest of the path is the host's absolute path.
 * - The host is reached with the one SSH-target resolver (server/ssh/target.ts: gateway of the asset's domain, the
 *   account's secret, host key trust on first use) and the login asset ACLs (reject and review both refuse: a file
 *   transfer cannot wait on a ticket). One SFTP connection per asset and account, opened on first use, kept for the
 *   space's life (at most MAX_CONNECTIONS).
 * - Every file operation writes one FTP log (`ftp_logs`, `/api/v1/audits/ftp-logs/`): a transfer when its file is
 *   closed (upload or download, with its outcome), others when done; a refusal is logged as failed. Never a secret.
 */
import { randomUUID } from 'node:crypto'
import { posix } from 'node:path'
import { sql } from 'kysely'
import type { SFTPWrapper, Stats } from 'ssh2'
import { openSftp, SshError, type SftpSession, type SshTarget } from '../automation/ssh.ts'
import type { DB } from '../db/connection.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { decideLoginAsset, type LoginAssetAclLike } from '../resources/acls/decide.ts'
import { assetGrant, ensureUserGrants } from '../resources/perms/grants.ts'
import { ACTION_BITS } from '../resources/perms/permissions.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { accountCredential, credentialTarget, knownHostKey, reachOf, recordHostKey } from '../ssh/target.ts'
import './messages.ts'
import './files-messages.ts'
import type { CloseInfo, FileSession, TerminalManager } from './session.ts'

export type FtpOperate = 'mkdir' | 'rmdir' | 'delete' | 'upload' | 'rename' | 'symlink' | 'download'
export type FileAction = 'upload' | 'download' | 'delete'

/** SFTP status codes (draft-ietf-secsh-filexfer-02), which the HTTP API maps to its own answers. */
export const STATUS = { OK: 0, EOF: 1, NO_SUCH_FILE: 2, PERMISSION_DENIED: 3, FAILURE: 4, OP_UNSUPPORTED: 8 } as const

/** At most this many host connections per space (an SFTP session, a web user). */
export const MAX_CONNECTIONS = 16
/** Directory listings through the web API stop here (`truncated`). */
export const LIST_MAX = 5000

export class FileError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
    this.name = 'FileError'
  }
}

export interface FileUser { id: string; username: string; name: string }
interface OrgEntry { id: string; name: string }
interface AssetEntry { id: string; name: string; address: string; org_id: string; org_name: string }
export interface AccountEntry { id: string; name: string; username: string; actions: number }

/** Where a path of the tree lands. */
export type Place =
  | { level: 'root'; path: string }
  | { level: 'org'; path: string; org: OrgEntry }
  | { level: 'asset'; path: string; org: OrgEntry; asset: AssetEntry }
  | { level: 'remote'; path: string; org: OrgEntry; asset: AssetEntry; account: AccountEntry; remote: string }
export type RemotePlace = Extract<Place, { level: 'remote' }>

/** A folder name for a name that may hold a slash. */
export const folderName = (name: string) => name.replace(/\//g, '_')

/** The tree's absolute path for a path a client sent (relative paths start at the root); undefined when unusable. */
export function normalize(path: string): string | undefined {
  if (path.includes('\0') || path.length > 4096) return undefined
  return posix.resolve('/', path)
}

export interface DirEntry { name: string; type: 'dir' | 'file' | 'link' | 'other'; size: number; mtime: number; mode: number }

const DIR_MODE = 0o040555
export const dirAttrs = (): { mode: number; uid: number; gid: number; size: number; atime: number; mtime: number } =>
  ({ mode: DIR_MODE, uid: 0, gid: 0, size: 4096, atime: 0, mtime: 0 })

export function typeOf(mode: number): DirEntry['type'] {
  const t = mode & 0o170000
  return t === 0o040000 ? 'dir' : t === 0o100000 ? 'file' : t === 0o120000 ? 'link' : 'other'
}

/** Read-ahead (downloads): chunks of this size are asked of the host ahead of a reader that reads in order… */
export const AHEAD_CHUNK = 32 * 1024
/** …at most this far beyond its farthest request (the window starts at 4 chunks and doubles with each read served). */
export const AHEAD_MAX = 4 * 1024 * 1024
/** Write-behind (uploads): at most this many bytes per file sent to the host and not yet answered by it. */
export const BEHIND_MAX = 4 * 1024 * 1024
/** Read-ahead and write-behind bytes held per space (all its files), whatever the number of files. */
export const SPACE_BUFFER_MAX = 16 * 1024 * 1024

/** Bytes a space may hold for read-ahead and write-behind. */
export class Budget {
  constructor(public free: number) {}
  take(n: number): boolean {
    if (n > this.free) return false
    this.free -= n
    return true
  }
  give(n: number): void {
    this.free += n
  }
}

/** A chunk read ahead: its data (or error) once the host answered; its budget given back when settled and dropped. */
interface Chunk { done: Promise<void>; data?: Buffer; err?: unknown; served: number; settled: boolean; dropped: boolean }

/**
 * A file being read or written on a host: one FTP log when it is closed.
 *
 * For a reader or writer that does not pipeline its requests (the web file manager: one 64 KiB piece after the
 * other), a transfer would wait a round trip to the host per piece. So, on request:
 * - `read(…, ahead = true)`: reads in order are read ahead — from a read at offset 0 or at the end of the previous
 *   read, the file is asked of the host in AHEAD_CHUNK pieces up to a window beyond the farthest request (4 chunks,
 *   doubling up to AHEAD_MAX), the reader served from them; a read elsewhere drops them and asks the host. A chunk's
 *   error reaches the reader only if it reads there (a read-ahead past a failing spot fails nobody).
 * - `write(…, behind = true)`: a write is answered as soon as it is sent while at most BEHIND_MAX bytes per file
 *   (and the space's budget) wait on the host (write-behind). The host's SFTP server answers a channel's requests in
 *   order; the first failure it reports fails every later write and the `close()`, which waits for every write to
 *   be answered first. The web upload answers its HTTP request only after `close()`, so a user is never told an
 *   upload succeeded that the host refused.
 * The SFTP relay uses neither: its clients pipeline their own requests (OpenSSH: 64 of 32 KiB), so each is relayed
 * as it comes and answered with the host's answer (docs/terminal.md "Files", Throughput).
 */
export class Transfer {
  failed = false
  bytes = 0
  private done = false
  /** Read-ahead: the chunks by offset (ascending), the first chunk's offset, where the next chunk starts. */
  private chunks = new Map<number, Chunk>()
  private aheadBase = 0
  private aheadNext = 0
  private window = 4 * AHEAD_CHUNK
  /** Where a read continues the previous one (the reader reads in order when it reads there). */
  private expect = 0
  /** The host said end of file at this offset (no chunk is asked from there). */
  private eofAt = Infinity
  /** Write-behind: bytes and writes waiting on the host, the first failure. */
  private behind = 0
  private writes = new Set<Promise<void>>()
  private writeError?: FileError

  constructor(
    private readonly space: FileSpace,
    readonly place: RemotePlace,
    readonly sftp: SFTPWrapper,
    readonly handle: Buffer,
    readonly operate: 'upload' | 'download',
    private readonly budget = new Budget(SPACE_BUFFER_MAX),
  ) {
    this.sessionId = space.fileSession(place)?.id ?? ''
  }

  /** The session of the host connection the file was opened on (its FTP log names it, even after it ended). */
  readonly sessionId: string

  /** Reads from the host directly: the number of bytes read, 0 at the end of the file. */
  private readHost(buf: Buffer, position: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.sftp.read(this.handle, buf, 0, buf.length, position, (err, n) => {
        if (err && (err as { code?: number }).code === STATUS.EOF) return resolve(0)
        if (err) return reject(remoteError(err))
        resolve(n)
      })
    })
  }

  /** Reads at `position`: the number of bytes read (maybe fewer than asked), 0 at the end; `ahead`: read ahead. */
  async read(buf: Buffer, position: number, ahead = false): Promise<number> {
    this.space.fileSession(this.place)?.touch()
    try {
      const n = ahead && this.operate === 'download' ? await this.readAhead(buf, position) : await this.readHost(buf, position)
      this.bytes += n
      return n
    } catch (e) {
      this.failed = true
      throw e
    }
  }

  private async readAhead(buf: Buffer, pos: number): Promise<number> {
    const streaming = this.aheadNext > this.aheadBase
    if (streaming && (pos < this.aheadBase || pos > this.aheadNext + AHEAD_MAX)) this.dropAhead()
    if (!(this.aheadNext > this.aheadBase)) {
      if (pos !== this.expect) {
        // not in order: straight to the host
        const n = await this.readHost(buf, pos)
        this.expect = pos + n
        return n
      }
      this.aheadBase = this.aheadNext = pos
      this.window = 4 * AHEAD_CHUNK
    }
    // the state moves before any wait: requests that arrive together (a pipelining client) are planned in order
    this.expect = pos + buf.length
    this.fill(pos + buf.length)
    let copied = 0
    while (copied < buf.length) {
      const at = pos + copied
      const key = this.aheadBase + Math.floor((at - this.aheadBase) / AHEAD_CHUNK) * AHEAD_CHUNK
      const c = this.chunks.get(key)
      if (!c) break
      await c.done
      if (c.err) {
        if (copied) break
        this.dropChunk(key, c)
        throw remoteError(c.err)
      }
      const data = c.data!
      const from = at - key
      if (from >= data.length) break
      const n = Math.min(buf.length - copied, data.length - from)
      data.copy(buf, copied, from, from + n)
      copied += n
      c.served += n
      if (c.served >= data.length) this.dropChunk(key, c)
      if (data.length < AHEAD_CHUNK) break
    }
    if (!copied) return this.readHost(buf, pos)
    this.window = Math.min(AHEAD_MAX, this.window * 2)
    // chunks the reader went past are not needed any more
    for (const [key, c] of this.chunks) {
      if (key + AHEAD_CHUNK > pos) break
      this.dropChunk(key, c)
    }
    this.fill(pos + copied)
    return copied
  }

  /** Asks the host for the chunks up to `upTo` + the window (within the budget, not past the end of the file). */
  private fill(upTo: number): void {
    const limit = Math.min(upTo + this.window, this.eofAt)
    while (!this.done && this.aheadNext < limit && this.budget.take(AHEAD_CHUNK)) {
      const key = this.aheadNext
      this.aheadNext += AHEAD_CHUNK
      const buf = Buffer.allocUnsafe(AHEAD_CHUNK)
      const c: Chunk = { done: Promise.resolve(), served: 0, settled: false, dropped: false }
      c.done = new Promise<void>((resolve) => {
        const settle = () => {
          c.settled = true
          if (c.dropped) this.budget.give(AHEAD_CHUNK)
          resolve()
        }
        try {
          this.sftp.read(this.handle, buf, 0, AHEAD_CHUNK, key, (err, n) => {
            if (err && (err as { code?: number }).code === STATUS.EOF) {
              c.data = buf.subarray(0, 0)
              this.eofAt = Math.min(this.eofAt, key)
            } else if (err) c.err = err
            else {
              c.data = n === AHEAD_CHUNK ? buf : buf.subarray(0, n)
              // a short answer is most likely the end of the file: nothing more is asked ahead (a read there asks the host)
              if (n < AHEAD_CHUNK) this.eofAt = Math.min(this.eofAt, key + n)
            }
            settle()
          })
        } catch (e) {
          c.err = e
          settle()
        }
      })
      this.chunks.set(key, c)
    }
  }

  private dropChunk(key: number, c: Chunk): void {
    if (c.dropped) return
    c.dropped = true
    this.chunks.delete(key)
    if (c.settled) this.budget.give(AHEAD_CHUNK)
  }

  private dropAhead(): void {
    for (const [key, c] of this.chunks) this.dropChunk(key, c)
    this.aheadBase = this.aheadNext = 0
  }

  /**
   * Writes `data` at `position`. Answers when the host answered — or, with `behind`, as soon as it is sent while
   * the bytes waiting on the host stay within BEHIND_MAX and the space's budget (see the class's note).
   */
  async write(data: Buffer, position: number, behind = false): Promise<void> {
    if (this.writeError) throw this.writeError
    this.space.fileSession(this.place)?.touch()
    const len = data.length
    const early = behind && this.behind + len <= BEHIND_MAX && this.budget.take(len)
    const sent = new Promise<void>((resolve) => {
      const answered = (err: unknown) => {
        if (early) {
          this.behind -= len
          this.budget.give(len)
        }
        if (err) {
          this.failed = true
          this.writeError ??= remoteError(err)
        } else this.bytes += len
        resolve()
      }
      try {
        this.sftp.write(this.handle, data, 0, len, position, (err) => answered(err))
      } catch (e) {
        answered(e)
      }
    })
    if (early) {
      this.behind += len
      this.writes.add(sent)
      void sent.then(() => this.writes.delete(sent))
      return
    }
    await sent
    if (this.writeError) throw this.writeError
  }

  /** Every write sent so far is answered by the host. */
  private async settled(): Promise<void> {
    while (this.writes.size) await Promise.all([...this.writes])
  }

  /** Closes the host's file and logs the transfer (once); `ok: false` marks it failed (an aborted upload). */
  async close(ok = true): Promise<void> {
    if (this.done) return
    this.done = true
    if (!ok) this.failed = true
    this.dropAhead()
    await this.settled()
    let closeErr: unknown = this.writeError
    await new Promise<void>((resolve) => this.sftp.close(this.handle, (err) => {
      closeErr ??= err
      resolve()
    }))
    if (closeErr) this.failed = true
    await this.space.log(this.place, this.operate, this.place.remote, !this.failed, this.sessionId)
    if (closeErr) throw remoteError(closeErr)
  }
}

/** An error of the host's SFTP server as a FileError (its status code kept). */
export function remoteError(err: unknown): FileError {
  if (err instanceof FileError) return err
  const e = err as { code?: number | string; message?: string }
  const code = typeof e?.code === 'number' && e.code > 0 && e.code <= 8 ? e.code : STATUS.FAILURE
  return new FileError(code, String(e?.message ?? err))
}

interface Connection { session: SftpSession; key: string; file?: FileSession }

/** The sessions of a space's host connections (Audit → Sessions): the manager, where the user logged in from. */
export interface SpaceSessions {
  manager: TerminalManager
  loginFrom: 'ST' | 'WT'
  /** The session was terminated from the audit (its connection is closed already): end what the user holds. */
  onTerminated?: (info: CloseInfo) => void
}

/** One user's file tree (an SFTP session of the gateway, or the web file manager's requests). */
export class FileSpace {
  private connections = new Map<string, Promise<Connection>>()
  /** The session of each open host connection, by asset/account. */
  private files = new Map<string, FileSession>()
  private closed = false
  /** Read-ahead and write-behind bytes of all the space's files (SPACE_BUFFER_MAX). */
  readonly budget = new Budget(SPACE_BUFFER_MAX)

  constructor(
    readonly db: DB,
    readonly user: FileUser,
    readonly o: {
      remoteAddr: string; lang: Lang; tz: string; now?: () => number
      /** Only this asset (an SSH login on a connection token or `user@asset`): its id, or its name or address. */
      only?: { assetId?: string; asset?: string }
      /** Each host connection is a session of the audit (protocol sftp), its FTP logs carrying its id. */
      sessions?: SpaceSessions
    },
  ) {}

  // ------------------------------------------------------------------------------------------- the tree

  /** The user's granted, active assets with SSH (or SFTP) in every organization, optionally one org/name. */
  async assets(filter: { org?: string; asset?: string } = {}): Promise<AssetEntry[]> {
    const active = (await sql<{ ok: boolean }>`select (is_active and (date_expired is null or date_expired > now())) as ok from users where id = ${this.user.id}`.execute(this.db)).rows[0]
    if (!active?.ok) return []
    await ensureUserGrants(this.db, this.user.id, ORG_IDS.ROOT)
    const rows = (await sql<AssetEntry>`select a.id, a.name, a.address, a.org_id, o.name as org_name from assets a join organizations o on o.id = a.org_id
      where a.id in (select g.asset_id from perm_user_assets g where g.user_id = ${this.user.id} and g.org_id = ${ORG_IDS.ROOT})
        and a.is_active and exists (select 1 from asset_protocols p where p.asset_id = a.id and p.name in ('ssh', 'sftp'))
      order by o.name, a.name, a.id limit 2000`.execute(this.db)).rows
    const only = this.o.only
    return rows.filter((a) => (!only?.assetId || a.id === only.assetId) && (!only?.asset || a.name === only.asset || a.address === only.asset))
      .filter((a) => (!filter.org || folderName(a.org_name) === filter.org) && (!filter.asset || folderName(a.name) === filter.asset))
  }

  /** The accounts of the user's valid grant on the asset holding `connect` (with their secret on the server). */
  async accounts(asset: AssetEntry): Promise<AccountEntry[]> {
    const grant = await assetGrant(this.db, { kind: 'user', id: this.user.id }, asset.org_id, asset.id, this.user.username)
    if (!grant) return []
    if (grant.protocols !== 'all' && !grant.protocols.has('ssh') && !grant.protocols.has('sftp')) return []
    return grant.accounts
      .filter((a) => a.id && (a.actions & ACTION_BITS.connect!) !== 0)
      .map((a) => ({ id: a.id!, name: a.name, username: a.username, actions: a.actions }))
  }

  private notFound(path: string): FileError {
    return new FileError(STATUS.NO_SUCH_FILE, tr(this.o.lang, 'No such file or folder: {path}', { path }))
  }

  /** Where a path lands; not found when a folder of the tree is not the user's. */
  async resolve(raw: string): Promise<Place> {
    const path = normalize(raw)
    if (!path) throw new FileError(STATUS.NO_SUCH_FILE, tr(this.o.lang, 'Invalid path.'))
    const parts = path.split('/').filter(Boolean)
    if (!parts.length) return { level: 'root', path }
    const [orgName, assetName, accountName, ...rest] = parts
    const assets = await this.assets({ org: orgName, asset: assetName })
    const first = assets[0]
    if (!first) throw this.notFound(path)
    const org = { id: first.org_id, name: first.org_name }
    if (!assetName) return { level: 'org', path, org }
    if (!accountName) return { level: 'asset', path, org, asset: first }
    const account = (await this.accounts(first)).find((a) => folderName(a.name) === accountName)
    if (!account) throw this.notFound(path)
    return { level: 'remote', path, org, asset: first, account, remote: `/${rest.join('/')}` }
  }

  /** The folders of a level of the tree (root, organization, asset). */
  async virtualEntries(place: Exclude<Place, RemotePlace>): Promise<string[]> {
    if (place.level === 'root') return [...new Set((await this.assets()).map((a) => folderName(a.org_name)))]
    if (place.level === 'org') return [...new Set((await this.assets({ org: folderName(place.org.name) })).map((a) => folderName(a.name)))]
    return (await this.accounts(place.asset)).map((a) => folderName(a.name))
  }

  /** Refuses (and logs the refusal as a failed `operate`) unless the account's actions hold `action` now. */
  async require(place: RemotePlace, action: FileAction, operate: FtpOperate, filename = place.remote): Promise<void> {
    const fresh = (await this.accounts(place.asset)).find((a) => a.id === place.account.id)
    if (fresh && (fresh.actions & ACTION_BITS[action]!) !== 0) return
    await this.log(place, operate, filename, false)
    const text = action === 'download' ? 'You are not allowed to download files from this asset.'
      : action === 'upload' ? 'You are not allowed to upload files to this asset.' : 'You are not allowed to delete files on this asset.'
    throw new FileError(STATUS.PERMISSION_DENIED, tr(this.o.lang, text))
  }

  /** Refuses a path that is not on a host (the tree's own folders are read-only). */
  async remote(raw: string): Promise<RemotePlace> {
    const place = await this.resolve(raw)
    if (place.level !== 'remote') throw new FileError(STATUS.PERMISSION_DENIED, tr(this.o.lang, 'This folder is read-only: choose an account folder of an asset.'))
    return place
  }

  // ------------------------------------------------------------------------------------------- the hosts

  /** The SFTP client on the place's host and account (opened on first use). */
  async sftp(place: RemotePlace): Promise<SFTPWrapper> {
    if (this.closed) throw new FileError(STATUS.FAILURE, 'closed')
    const key = keyOf(place)
    this.files.get(key)?.touch()
    let c = this.connections.get(key)
    if (!c) {
      if (this.connections.size >= MAX_CONNECTIONS) {
        const [oldest] = this.connections.keys()
        const old = this.connections.get(oldest!)!
        this.connections.delete(oldest!)
        void old.then((x) => x.session.close(), () => undefined)
      }
      c = this.connect(place, key)
      this.connections.set(key, c)
      c.then((x) => x.session.onClose(() => {
        if (this.connections.get(key) === c) this.connections.delete(key)
      }), () => {
        if (this.connections.get(key) === c) this.connections.delete(key)
      })
    }
    return (await c).session.sftp
  }

  private async connect(place: RemotePlace, key: string): Promise<Connection> {
    const { asset, account } = place
    const lang = this.o.lang
    const loginAcls = (await sql<LoginAssetAclLike>`select a.id, a.name, a.org_id, a.priority, a.action, a.is_active, a.date_updated, a.users, a.assets, a.accounts, a.rules
      from login_asset_acls a where a.org_id = ${asset.org_id} and a.is_active`.execute(this.db)).rows
    const decision = decideLoginAsset(loginAcls, {
      user: this.user.username, asset, account: account.username, ip: this.o.remoteAddr, now: new Date(this.o.now?.() ?? Date.now()), tz: this.o.tz,
    })
    if (decision.action === 'reject' || decision.action === 'review') {
      throw new FileError(STATUS.PERMISSION_DENIED, tr(lang, 'The login was refused by the asset login rule "{name}".', { name: decision.acl!.name }))
    }
    const cred = await accountCredential(this.db, asset.id, account.id)
    if (!cred?.username) throw new FileError(STATUS.PERMISSION_DENIED, tr(lang, 'The account has no secret to log in with.'))
    const reach = await reachOf(this.db, asset.id, 'ssh')
    if (!reach) throw this.notFound(place.path)
    if (reach.gatewayError) throw new FileError(STATUS.FAILURE, tr(lang, 'Cannot reach the asset: {reason}', { reason: reach.gatewayError }))
    const target: SshTarget = credentialTarget(asset.address, reach.port, cred)
    const known = await knownHostKey(this.db, asset.id, reach.port)
    if (known) target.hostKeyFingerprint = known
    let session: SftpSession
    try {
      session = await openSftp(target, { gateway: reach.gateway, timeoutMs: 15_000 })
    } catch (e) {
      if (e instanceof SshError && e.kind === 'host_key' && e.hop === 'target') {
        throw new FileError(STATUS.FAILURE, tr(lang, 'The host key of {host} has changed (recorded {old}, offered {new}). An administrator must clear the recorded key on the asset before you can connect.',
          { host: `${asset.name} (${asset.address}:${reach.port})`, old: known ?? '', new: e.hostKeyFingerprint ?? '' }))
      }
      if (e instanceof SshError && e.kind === 'auth' && e.hop === 'target') throw new FileError(STATUS.FAILURE, tr(lang, 'The asset refused the account\'s credentials.'))
      throw new FileError(STATUS.FAILURE, tr(lang, 'Cannot reach the asset: {reason}', { reason: e instanceof Error ? e.message : String(e) }))
    }
    if (!known) await recordHostKey(this.db, asset.id, reach.port, session.hostKeyFingerprint)
    const conn: Connection = { session, key }
    const sessions = this.o.sessions
    if (sessions && !this.closed) {
      try {
        conn.file = await sessions.manager.openFile({
          user: this.user, lang, asset, account, accountUsername: cred.username, loginFrom: sessions.loginFrom, remoteAddr: this.o.remoteAddr,
          onEnd: (info) => {
            session.close()
            if (info.reason === 'terminated') sessions.onTerminated?.(info)
          },
        })
      } catch (e) {
        session.close()
        throw new FileError(STATUS.FAILURE, tr(lang, 'Cannot reach the asset: {reason}', { reason: e instanceof Error ? e.message : String(e) }))
      }
      const file = conn.file
      this.files.set(key, file)
      session.onClose(() => {
        if (this.files.get(key) === file) this.files.delete(key)
        void file.end('closed', tr(lang, 'The session ended.'))
      })
    }
    if (this.closed) session.close()
    return conn
  }

  /** The session of the place's host connection, when it is open. */
  fileSession(place: RemotePlace): FileSession | undefined {
    return this.files.get(keyOf(place))
  }

  /** Ends every host connection. */
  close(): void {
    this.closed = true
    for (const c of this.connections.values()) void c.then((x) => x.session.close(), () => undefined)
    this.connections.clear()
  }

  // ------------------------------------------------------------------------------------------- operations

  async stat(raw: string, follow = true): Promise<Partial<Stats> & { mode: number }> {
    const place = await this.resolve(raw)
    if (place.level !== 'remote') return dirAttrs()
    const sftp = await this.sftp(place)
    return call<Stats>((cb) => (follow ? sftp.stat(place.remote, cb) : sftp.lstat(place.remote, cb)))
  }

  /** Opens a file on a host for reading (`download`) or writing (`upload`), the action checked first. */
  async open(raw: string, mode: 'read' | 'write' | number, attrs: Record<string, unknown> = {}): Promise<Transfer> {
    const place = await this.remote(raw)
    const flags = typeof mode === 'number' ? mode : mode === 'read' ? 0x01 : 0x02 | 0x08 | 0x10
    const writes = (flags & 0x02) !== 0
    const reads = (flags & 0x01) !== 0
    const operate = writes ? 'upload' : 'download'
    if (writes) await this.require(place, 'upload', 'upload')
    if (reads) await this.require(place, 'download', writes ? 'upload' : 'download')
    const sftp = await this.sftp(place)
    try {
      const handle = await call<Buffer>((cb) => sftp.open(place.remote, flags, attrs, cb))
      return new Transfer(this, place, sftp, handle, operate, this.budget)
    } catch (e) {
      await this.log(place, operate, place.remote, false)
      throw e
    }
  }

  async mkdir(raw: string, attrs: Record<string, unknown> = {}): Promise<void> {
    const place = await this.remote(raw)
    await this.require(place, 'upload', 'mkdir')
    await this.logged(place, 'mkdir', place.remote, async (sftp) => call<void>((cb) => sftp.mkdir(place.remote, attrs, cb)))
  }

  async rmdir(raw: string): Promise<void> {
    const place = await this.remote(raw)
    await this.require(place, 'delete', 'rmdir')
    await this.logged(place, 'rmdir', place.remote, async (sftp) => call<void>((cb) => sftp.rmdir(place.remote, cb)))
  }

  async remove(raw: string): Promise<void> {
    const place = await this.remote(raw)
    await this.require(place, 'delete', 'delete')
    await this.logged(place, 'delete', place.remote, async (sftp) => call<void>((cb) => sftp.unlink(place.remote, cb)))
  }

  /** Renames within one account folder of one asset (a move between hosts is refused). */
  async rename(rawFrom: string, rawTo: string): Promise<void> {
    const from = await this.remote(rawFrom)
    const to = await this.resolve(rawTo).catch(() => undefined)
    const name = `${from.remote} => ${to?.level === 'remote' ? to.remote : normalize(rawTo) ?? ''}`
    if (!to || to.level !== 'remote' || to.asset.id !== from.asset.id || to.account.id !== from.account.id) {
      await this.log(from, 'rename', name, false)
      throw new FileError(STATUS.OP_UNSUPPORTED, tr(this.o.lang, 'A file can only be renamed or moved within the same account folder of an asset.'))
    }
    await this.require(from, 'upload', 'rename', name)
    await this.logged(from, 'rename', name, async (sftp) => call<void>((cb) => sftp.rename(from.remote, to.remote, cb)))
  }

  /** A host's directory, whole (bounded by LIST_MAX). */
  async list(place: RemotePlace): Promise<{ entries: DirEntry[]; truncated: boolean }> {
    const sftp = await this.sftp(place)
    const handle = await call<Buffer>((cb) => sftp.opendir(place.remote, cb))
    const entries: DirEntry[] = []
    let truncated = false
    try {
      for (;;) {
        const batch = await new Promise<Array<{ filename: string; attrs: Stats }> | false>((resolve, reject) =>
          sftp.readdir(handle, (err, list) => {
            if (err && (err as { code?: number }).code === STATUS.EOF) return resolve(false)
            if (err) return reject(remoteError(err))
            resolve(list as unknown as Array<{ filename: string; attrs: Stats }> | false)
          }))
        if (!batch || !batch.length) break
        for (const e of batch) {
          if (e.filename === '.' || e.filename === '..') continue
          if (entries.length >= LIST_MAX) {
            truncated = true
            break
          }
          entries.push({ name: e.filename, type: typeOf(e.attrs.mode), size: Number(e.attrs.size ?? 0), mtime: Number(e.attrs.mtime ?? 0), mode: e.attrs.mode & 0o7777 })
        }
        if (truncated) break
      }
    } finally {
      sftp.close(handle, () => undefined)
    }
    return { entries, truncated }
  }

  private async logged(place: RemotePlace, operate: FtpOperate, filename: string, run: (sftp: SFTPWrapper) => Promise<void>): Promise<void> {
    let ok = false
    try {
      await run(await this.sftp(place))
      ok = true
    } finally {
      await this.log(place, operate, filename, ok)
    }
  }

  /** One FTP log row (the audit's FTP logs, in the asset's organization), with the session of the host connection. */
  async log(place: RemotePlace, operate: FtpOperate, filename: string, ok: boolean, session = this.fileSession(place)?.id ?? ''): Promise<void> {
    await this.db.insertInto('ftp_logs').values({
      id: randomUUID(), user: `${this.user.name}(${this.user.username})`.slice(0, 128), remote_addr: this.o.remoteAddr.slice(0, 128),
      asset: `${place.asset.name}(${place.asset.address})`.slice(0, 1024), account: `${place.account.name}(${place.account.username})`.slice(0, 128),
      org_id: place.asset.org_id, operate, filename: filename.slice(0, 1024), is_success: ok, session,
    }).execute()
  }
}

const keyOf = (place: RemotePlace) => `${place.asset.id}/${place.account.id}`

/** An ssh2 callback call as a promise; the host's error as a FileError. */
export function call<T>(run: (cb: (err: Error | null | undefined, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    try {
      run((err, value) => (err ? reject(remoteError(err)) : resolve(value)))
    } catch (e) {
      reject(remoteError(e))
    }
  })
}
