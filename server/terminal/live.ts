/**
 * Live sessions of the built-in terminal (issue 31; docs/terminal.md "Live sessions: monitor, terminate, share"):
 *
 * - **Monitor**: an auditor watches an open session read-only (`/ws/terminal/live/`, first frame `monitor`): the
 *   session's current screen (its headless xterm, serialized), then its output as it comes.
 * - **Join**: a user opens a share link, gives the verify code (first frame `join`) and sees — and, when the share
 *   is writable, types into — the same session. Each join is a session-join record (the component API, as koko
 *   records it); the owner's web terminal hears who joined and can remove them.
 * - **Terminate**: `POST /terminal/tasks/kill-session/` NOTIFYs `terminal_live`; the holding process ends the session
 *   (a terminal's, or a file transfer's: an SFTP connection's sessions are leased here too, without a screen).
 * - **Several processes**: `terminal_live_sessions` (migration 071) names the process holding each open session,
 *   under a lease it renews. A monitor, join or kill that lands on another process reaches the holder through
 *   LISTEN/NOTIFY: requests on `terminal_live`, the session's screen and output back on its own channel
 *   `tl_<session id>` while someone elsewhere watches. A process that dies leaves its rows to expire: any process
 *   then finishes those sessions with the reason and stores the recording written so far.
 *
 * Hooks into the session are small: the manager's `openObservers`, the session's `output` / `resize` / `close`
 * events, `serialize()` and `live` frames for the owner's socket (ws.ts forwards them).
 */
import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { constants as zlib, createGunzip, createGzip } from 'node:zlib'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { RawData, WebSocket } from 'ws'
import type { Database, DB } from '../db/connection.ts'
import { resourceApi } from '../engine/index.ts'
import { isUuid, normUuid } from '../engine/parse.ts'
import { requirePerm, requireUser } from '../http/context.ts'
import { ApiError, badRequest, notFound, permissionDenied } from '../http/errors.ts'
import { formatDateTime } from '../http/datetime.ts'
import type { Lang } from '../http/request-context.ts'
import { addMessages, tr } from '../i18n.ts'
import { keepAlive } from '../realtime/keepalive.ts'
import { replayDir, storeReplay, TERMINAL_LIVE_CHANNEL } from '../resources/terminal/components.ts'
import { sessions as sessionResource } from '../resources/terminal/resources.ts'
import { ACTION_BITS } from '../resources/perms/permissions.ts'
import { ComponentCallError } from './builtin.ts'
import { FileSession, type CloseInfo, type SessionActions, type TerminalManager, type TerminalSession } from './session.ts'
import { openSocket, parseFrame } from './socket-open.ts'

export const LIVE_SOCKET_PATH = '/ws/terminal/live/'
/** Output is sent between processes in NOTIFY payloads of at most this many bytes (base64: ~6.7 KB of the 8000). */
const NOTIFY_BYTES = 5000
/** At most this many notifications in one statement (~110 KB). */
const NOTIFY_BATCH = 16
/** A remote watcher says it is still there this often; the holder stops publishing after WATCH_EXPIRE_MS without. */
const WATCH_REFRESH_MS = 10_000
const WATCH_EXPIRE_MS = 30_000
/** A snapshot asked of another process must come within this. */
const SNAPSHOT_WAIT_MS = 10_000
/** Output waiting to be published beyond this is dropped and the remote watchers redraw from a fresh screen. */
const PUBLISH_MAX_PENDING = 4 * 1024 * 1024
/** Output waiting in a watcher's socket beyond HIGH is dropped until it drains below LOW, then the screen is redrawn. */
const OUT_HIGH = 1024 * 1024
const OUT_LOW = 256 * 1024
const MAX_FRAME_BYTES = 64 * 1024
/** A session's output is handed to its watchers at most this often (one frame per watcher per period). */
const COALESCE_MS = 5
const INPUT_BURST_BYTES = 1024 * 1024
const INPUT_RATE_BYTES = 256 * 1024
export const MAX_WATCHERS_PER_SESSION = 64

export const LIVE_MESSAGES: Record<string, [zh: string, ja: string]> = {
  'The session is not online.': ['会话不在线。', 'セッションはオンラインではありません。'],
  'A file transfer session has no screen to watch or join.': ['文件传输会话没有可监控或加入的屏幕。', 'ファイル転送セッションには監視や参加ができる画面がありません。'],
  'You are not allowed to monitor this session.': ['您无权监控此会话。', 'このセッションを監視する権限がありません。'],
  'The share link does not exist.': ['分享链接不存在。', '共有リンクが存在しません。'],
  'Too many people are watching this session.': ['观看此会话的人数过多。', 'このセッションを見ている人が多すぎます。'],
  'The session was terminated.': ['会话已被终断。', 'セッションは終了させられました。'],
  'The session ended.': ['会话已结束。', 'セッションは終了しました。'],
  'The session owner removed you from the session.': ['会话所有者已将您移出会话。', 'セッションの所有者があなたをセッションから外しました。'],
  'The share link expired: you have left the session.': ['分享链接已过期：您已离开会话。', '共有リンクの有効期限が切れたため、セッションから退出しました。'],
  'The server holding the session did not answer.': ['持有该会话的服务器没有响应。', 'セッションを保持しているサーバーが応答しませんでした。'],
  'Only the session\'s user can share it.': ['只有会话的用户可以分享它。', 'セッションを共有できるのはセッションのユーザーだけです。'],
  'Sharing is not permitted on this session.': ['此会话不允许分享。', 'このセッションでは共有が許可されていません。'],
  'Terminated by {by}': ['由 {by} 终断', '{by} により終了'],
  'The server process holding this session ({process}) stopped responding: its lease expired at {time}.': [
    '持有此会话的服务器进程（{process}）停止响应：其租约已于 {time} 过期。',
    'このセッションを保持するサーバープロセス（{process}）が応答しなくなりました：リースは {time} に期限切れになりました。'],
  'Ensure this value is greater than or equal to {min}.': ['请确保该值大于或等于 {min}。', '{min} 以上の値にしてください。'],
  'Ensure this value is less than or equal to {max}.': ['请确保该值小于或等于 {max}。', '{max} 以下の値にしてください。'],
  'A valid integer is required.': ['需要一个有效的整数。', '有効な整数が必要です。'],
  'Not a valid choice.': ['不是有效的选项。', '有効な選択肢ではありません。'],
}
addMessages(LIVE_MESSAGES)

type Mode = 'monitor' | 'readonly' | 'writable'

/** Timers of the live service (tests inject their own with the manager's clock: nothing waits on real time). */
export interface LiveTimers {
  set(fn: () => void, ms: number): unknown
  clear(handle: unknown): void
}

const realTimers: LiveTimers = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/** The longest a timer is set for (setTimeout's bound); a later deadline is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Where a watcher's screen goes. `seq` orders output relayed from another process against a snapshot. */
interface Sink {
  output(d: Buffer, seq?: number): void
  resize(cols: number, rows: number): void
  end(info: CloseInfo): void
  /** Output was dropped on the way: redraw from a fresh snapshot. */
  lost(): void
}

interface Snapshot { screen: Buffer; cols: number; rows: number; seq?: number }

/** A session's screen and stream, from the session itself or from its holder through NOTIFY. */
interface Feed {
  readonly sessionId: string
  add(sink: Sink): void
  remove(sink: Sink): void
  size(): number
  /** The screen now; output that it holds is not sent to `requester` afterwards. */
  snapshot(requester?: Sink): Promise<Snapshot>
  input(data: string): void
}

const streamChannel = (sessionId: string) => `tl_${sessionId.replace(/-/g, '')}`

/**
 * Several notifications on one channel in one statement (PostgreSQL delivers them in the order they were made:
 * `unnest` gives the array's elements in order); PGlite's in-process notify one by one.
 */
async function notifyAll(database: Database, channel: string, payloads: string[]): Promise<void> {
  if (database.kind !== 'postgres' || payloads.length === 1) {
    for (const p of payloads) await database.notify(channel, p)
    return
  }
  await sql`select pg_notify(${channel}, p) from unnest(${payloads}::text[]) as p`.execute(database.db)
}

/** The session of this process: one listener on it, fanned out to every sink. */
class LocalFeed implements Feed {
  private readonly sinks = new Set<Sink>()
  readonly sessionId: string

  constructor(private readonly session: TerminalSession, private readonly onEmpty: () => void) {
    this.sessionId = session.id
    session.on('output', this.onOutput)
    session.on('resize', this.onResize)
    session.once('close', this.onClose)
  }

  /**
   * Output is gathered for COALESCE_MS and handed to every sink as one piece: a busy session writes thousands of
   * small chunks a second, and each one would be a websocket frame per watcher.
   */
  private pending: Buffer[] = []
  private timer?: NodeJS.Timeout

  private readonly onOutput = (d: Buffer) => {
    this.pending.push(d)
    this.timer ??= setTimeout(this.flush, COALESCE_MS)
  }

  /** Hands the gathered output to the sinks (but `except`: a sink about to be drawn from the screen, which holds it). */
  readonly flush = (except?: Sink) => {
    clearTimeout(this.timer)
    this.timer = undefined
    if (!this.pending.length) return
    const d = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending)
    this.pending = []
    for (const s of this.sinks) if (s !== except) s.output(d)
  }

  private readonly onResize = (cols: number, rows: number) => {
    this.flush()
    for (const s of this.sinks) s.resize(cols, rows)
  }

  private readonly onClose = (info: CloseInfo) => {
    this.flush()
    for (const s of [...this.sinks]) s.end(info)
    this.sinks.clear()
    this.detach()
  }

  private detach() {
    this.session.off('output', this.onOutput)
    this.session.off('resize', this.onResize)
    this.session.off('close', this.onClose)
    this.onEmpty()
  }

  add(sink: Sink) {
    // what was gathered so far is already on the screen the new sink will be drawn from
    this.flush()
    this.sinks.add(sink)
  }

  remove(sink: Sink) {
    this.sinks.delete(sink)
    if (!this.sinks.size) this.detach()
  }

  size() {
    return this.sinks.size
  }

  /** The screen now; the gathered output (on that screen already) goes to every sink but the one being drawn. */
  async snapshot(requester?: Sink): Promise<Snapshot> {
    this.flush(requester)
    const { cols, rows } = this.session
    return { screen: Buffer.from(await this.session.serialize(), 'utf8'), cols, rows }
  }

  input(data: string) {
    this.session.input(data)
  }
}

type StreamMessage =
  | { t: 'o'; q: number; d: string }
  | { t: 's'; r: string; i: number; n: number; q: number; c: number; w: number; d: string }
  | { t: 'r'; c: number; w: number }
  | { t: 'c'; reason: string; message: string }
  | { t: 'l' }

type LiveMessage =
  | { op: 'kill'; session: string; by: string }
  | { op: 'watch'; session: string; proc: string; req?: string }
  | { op: 'unwatch'; session: string; proc: string }
  | { op: 'input'; session: string; d: string }
  | { op: 'kick'; record: string }
  | { op: 'joined' | 'left'; session: string; record: string }

/**
 * The holder's side of a session watched from other processes: a sink on the local feed that publishes the
 * output (batched, base64, in order through one chain of NOTIFYs) and the snapshots asked for.
 */
class Publisher implements Sink {
  private seq = 0
  private batch: Buffer[] = []
  private batchBytes = 0
  private batchTimer?: NodeJS.Timeout
  /** Messages waiting for the database, in order; one statement at a time carries all of them (up to NOTIFY_BATCH). */
  private queue: Array<{ payload: string; bytes: number }> = []
  private sending = false
  private pending = 0
  private dropped = false
  readonly watchers = new Map<string, number>()
  private readonly channel: string

  constructor(private readonly live: LiveService, private readonly feed: LocalFeed, private readonly onDone: () => void) {
    this.channel = streamChannel(feed.sessionId)
    feed.add(this)
  }

  private publish(msg: StreamMessage, bytes = 0) {
    this.pending += bytes
    this.queue.push({ payload: JSON.stringify(msg), bytes })
    if (!this.sending) void this.send()
  }

  /**
   * Sends what waits, in order: while one statement is on its way the next messages gather, and the next statement
   * carries them all (a round trip per message capped a busy session's stream at the database's round-trip rate).
   */
  private async send() {
    this.sending = true
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, NOTIFY_BATCH)
        await notifyAll(this.live.database, this.channel, batch.map((m) => m.payload))
          .catch((err) => this.live.app.log.warn({ err }, 'live session publish failed'))
        for (const m of batch) this.pending -= m.bytes
        if (this.dropped && this.pending === 0) {
          this.dropped = false
          this.queue.push({ payload: JSON.stringify({ t: 'l' } satisfies StreamMessage), bytes: 0 })
        }
      }
    } finally {
      this.sending = false
    }
  }

  private flushBatch() {
    clearTimeout(this.batchTimer)
    this.batchTimer = undefined
    if (!this.batchBytes) return
    const all = Buffer.concat(this.batch)
    this.batch = []
    this.batchBytes = 0
    for (let i = 0; i < all.length; i += NOTIFY_BYTES) {
      const piece = all.subarray(i, i + NOTIFY_BYTES)
      this.publish({ t: 'o', q: ++this.seq, d: piece.toString('base64') }, piece.length)
    }
  }

  output(d: Buffer) {
    if (this.dropped || this.pending > PUBLISH_MAX_PENDING) {
      // the database cannot keep up: drop, and the watchers redraw from a fresh screen once it has caught up
      this.dropped = true
      return
    }
    this.batch.push(d)
    this.batchBytes += d.length
    if (this.batchBytes >= NOTIFY_BYTES) this.flushBatch()
    else this.batchTimer ??= setTimeout(() => this.flushBatch(), 2)
  }

  resize(cols: number, rows: number) {
    this.flushBatch()
    this.publish({ t: 'r', c: cols, w: rows })
  }

  end(info: CloseInfo) {
    this.flushBatch()
    this.publish({ t: 'c', reason: info.reason, message: info.message })
    this.onDone()
  }

  lost() {}

  async snapshot(req: string) {
    // everything the screen holds reaches this publisher (and gets its sequence numbers) before the mark is taken
    this.feed.flush()
    this.flushBatch()
    const seq = this.seq
    const snap = await this.feed.snapshot()
    const n = Math.max(1, Math.ceil(snap.screen.length / NOTIFY_BYTES))
    for (let i = 0; i < n; i++) {
      const piece = snap.screen.subarray(i * NOTIFY_BYTES, (i + 1) * NOTIFY_BYTES)
      this.publish({ t: 's', r: req, i, n, q: seq, c: snap.cols, w: snap.rows, d: piece.toString('base64') }, piece.length)
    }
  }

  /** Drops watchers that stopped refreshing; answers whether any is left. */
  prune(now: number): boolean {
    for (const [proc, until] of this.watchers) if (until < now) this.watchers.delete(proc)
    return this.watchers.size > 0
  }

  close() {
    this.flushBatch()
    this.feed.remove(this)
  }
}

/** A session held by another process, followed through its stream channel. */
class RemoteFeed implements Feed {
  private readonly sinks = new Set<Sink>()
  private unlisten?: Promise<() => Promise<void>>
  private refresh?: NodeJS.Timeout
  private readonly snapshots = new Map<string, { parts: string[]; got: number; resolve: (s: Snapshot) => void; timer: NodeJS.Timeout }>()

  constructor(private readonly live: LiveService, readonly sessionId: string, private readonly onEmpty: () => void) {}

  private onMessage(raw: string) {
    let m: StreamMessage
    try {
      m = JSON.parse(raw) as StreamMessage
    } catch {
      return
    }
    switch (m.t) {
      case 'o': {
        const d = Buffer.from(m.d, 'base64')
        for (const s of this.sinks) s.output(d, m.q)
        return
      }
      case 's': {
        const want = this.snapshots.get(m.r)
        if (!want) return
        want.parts[m.i] = m.d
        if (++want.got < m.n) return
        clearTimeout(want.timer)
        this.snapshots.delete(m.r)
        want.resolve({ screen: Buffer.concat(want.parts.map((p) => Buffer.from(p, 'base64'))), cols: m.c, rows: m.w, seq: m.q })
        return
      }
      case 'r':
        for (const s of this.sinks) s.resize(m.c, m.w)
        return
      case 'c':
        for (const s of [...this.sinks]) s.end({ reason: m.reason, message: m.message })
        this.sinks.clear()
        this.stop()
        return
      case 'l':
        for (const s of this.sinks) s.lost()
    }
  }

  private watch(req?: string) {
    return this.live.send({ op: 'watch', session: this.sessionId, proc: this.live.processId, ...(req ? { req } : {}) })
  }

  add(sink: Sink) {
    this.sinks.add(sink)
    if (this.unlisten) return
    this.unlisten = this.live.database.listen(streamChannel(this.sessionId), (raw) => this.onMessage(raw))
    this.refresh = setInterval(() => void this.keep(), WATCH_REFRESH_MS)
    this.refresh.unref()
  }

  /** Still watching; and is the holder still alive? A session whose lease is gone has ended. */
  private async keep() {
    await this.watch()
    const alive = await this.live.holderOf(this.sessionId)
    if (!alive) this.onMessage(JSON.stringify({ t: 'c', reason: 'exit', message: '' }))
  }

  remove(sink: Sink) {
    this.sinks.delete(sink)
    if (!this.sinks.size) this.stop()
  }

  private stop() {
    clearInterval(this.refresh)
    const un = this.unlisten
    this.unlisten = undefined
    void un?.then((f) => f()).catch(() => undefined)
    void this.live.send({ op: 'unwatch', session: this.sessionId, proc: this.live.processId }).catch(() => undefined)
    for (const s of this.snapshots.values()) clearTimeout(s.timer)
    this.snapshots.clear()
    this.onEmpty()
  }

  size() {
    return this.sinks.size
  }

  async snapshot(): Promise<Snapshot> {
    await this.unlisten
    const req = randomUUID()
    const result = new Promise<Snapshot>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.snapshots.delete(req)
        reject(new Error('snapshot timeout'))
      }, SNAPSHOT_WAIT_MS)
      timer.unref()
      this.snapshots.set(req, { parts: [], got: 0, resolve, timer })
    })
    await this.watch(req)
    return result
  }

  input(data: string) {
    const bytes = Buffer.from(data, 'utf8')
    for (let i = 0; i < bytes.length; i += NOTIFY_BYTES) {
      void this.live.send({ op: 'input', session: this.sessionId, d: bytes.subarray(i, i + NOTIFY_BYTES).toString('base64') })
    }
  }
}

/** One monitor or joiner socket. */
class Watcher implements Sink {
  private ready = false
  private queue: Array<{ d: Buffer; seq?: number }> = []
  private waiting = 0
  private lagging = false
  private resyncing = false
  closed = false
  /** A joiner's record is finished (left, removed or expired): the socket's close does not finish it again. */
  recordFinished = false
  /** A joiner's removal when the share expires (LiveService.expireAt). */
  expiry?: unknown

  constructor(readonly socket: WebSocket, readonly feed: Feed, readonly mode: Mode, readonly lang: Lang, readonly recordId?: string) {}

  json(msg: unknown) {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(msg))
  }

  private send(d: Buffer) {
    if (this.socket.readyState !== this.socket.OPEN || !d.length) return
    this.waiting += d.length
    if (this.waiting > OUT_HIGH) this.lagging = true
    this.socket.send(d, () => {
      this.waiting -= d.length
      if (this.lagging && this.waiting < OUT_LOW) {
        this.lagging = false
        this.lost()
      }
    })
  }

  /** Subscribes, then draws the current screen; what came meanwhile follows it. */
  async start(info: Record<string, unknown>): Promise<void> {
    this.feed.add(this)
    const snap = await this.feed.snapshot(this)
    this.json({ type: 'live-info', mode: this.mode, cols: snap.cols, rows: snap.rows, session: info, ...(this.recordId ? { record: this.recordId } : {}) })
    this.draw(snap)
  }

  private draw(snap: Snapshot) {
    this.send(snap.screen)
    for (const q of this.queue) if (snap.seq === undefined || q.seq === undefined || q.seq > snap.seq) this.send(q.d)
    this.queue = []
    this.ready = true
  }

  output(d: Buffer, seq?: number) {
    if (!this.ready) this.queue.push({ d, seq })
    else if (!this.lagging) this.send(d)
  }

  resize(cols: number, rows: number) {
    this.json({ type: 'resize', cols, rows })
  }

  lost() {
    if (this.resyncing || this.closed) return
    this.resyncing = true
    this.ready = false
    this.queue = []
    this.feed.snapshot(this).then((snap) => {
      this.json({ type: 'resize', cols: snap.cols, rows: snap.rows })
      this.send(Buffer.from('\x1bc'))
      this.draw(snap)
    }, () => this.end({ reason: 'unreachable', message: tr(this.lang, 'The server holding the session did not answer.') }))
      .finally(() => (this.resyncing = false))
  }

  end(info: CloseInfo) {
    if (this.closed) return
    this.closed = true
    this.feed.remove(this)
    const message = info.reason === 'terminated' ? tr(this.lang, 'The session was terminated.')
      : info.reason === 'removed' || info.reason === 'unreachable' || info.reason === 'expired' ? info.message : tr(this.lang, 'The session ended.')
    this.json({ type: 'close', reason: info.reason, message })
    this.socket.close(1000)
  }
}

export interface ShareInput { users: string[]; expiredTime: number; actionPermission: 'readonly' | 'writable' }

/** Per app: leases, the NOTIFY channel, the feeds, the watchers. */
export class LiveService {
  readonly processId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  private readonly local = new Map<string, LocalFeed>()
  private readonly remote = new Map<string, RemoteFeed>()
  private readonly publishers = new Map<string, Publisher>()
  private readonly byRecord = new Map<string, Watcher>()
  /** Injectable (tests): the joiners' expiry timers. The clock is the manager's `now()`. */
  timers: LiveTimers = realTimers
  private unlisten?: () => Promise<void>
  private timer?: NodeJS.Timeout
  private dead = false
  readonly leaseMs: number

  constructor(readonly app: FastifyInstance, readonly manager: TerminalManager) {
    this.leaseMs = Math.max(300, app.services.config.taskLeaseSeconds * 1000)
    manager.openObservers.push((s) => void this.opened(s).catch((err) => app.log.warn({ err }, 'live session lease failed')))
    // a file-transfer session (SFTP) is leased too: terminated from any process, finished when its process dies
    manager.fileObservers.push((s) => void this.opened(s).catch((err) => app.log.warn({ err }, 'live session lease failed')))
  }

  get database() {
    return this.app.services.database
  }

  get db(): DB {
    return this.database.db
  }

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(TERMINAL_LIVE_CHANNEL, (raw) => void this.onNotify(raw).catch((err) => this.app.log.warn({ err }, 'live session message failed')))
    this.timer = setInterval(() => void this.tick().catch((err) => this.app.log.warn({ err }, 'live session lease round failed')), Math.max(100, Math.floor(this.leaseMs / 3)))
    this.timer.unref()
    await this.sweep().catch((err) => this.app.log.warn({ err }, 'live session sweep failed'))
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.unlisten?.()
    this.unlisten = undefined
  }

  /** Tests: the process "dies" — no lease renewal, no messages heard (its rows are left to expire). */
  async kill(): Promise<void> {
    this.dead = true
    await this.stop()
  }

  send(msg: LiveMessage): Promise<void> {
    return this.database.notify(TERMINAL_LIVE_CHANNEL, JSON.stringify(msg))
  }

  private leaseUntil(): Date {
    return new Date(this.manager.now() + this.leaseMs)
  }

  private async opened(s: TerminalSession | FileSession): Promise<void> {
    // a file session: no actions (nothing to share), no recording
    const [actions, replay] = s instanceof FileSession ? [0, ''] : [actionBits(s.actions), s.replayTempPath]
    await sql`insert into terminal_live_sessions (session_id, process, lease_until, actions, user_id, replay_temp)
      values (${s.id}, ${this.processId}, ${this.leaseUntil()}, ${actions}, ${s.user.id}, ${replay})
      on conflict (session_id) do nothing`.execute(this.db)
    s.once('close', () => {
      void sql`delete from terminal_live_sessions where session_id = ${s.id} and process = ${this.processId}`.execute(this.db)
        .catch((err) => this.app.log.warn({ err }, 'live session lease release failed'))
    })
  }

  /** One round: renew this process's leases (with a recording checkpoint), finish the sessions of dead processes. */
  async tick(): Promise<void> {
    if (this.dead) return
    for (const s of this.manager.sessions.values()) s.checkpointRecording()
    if (this.manager.sessions.size || this.manager.fileSessions.size) {
      await sql`update terminal_live_sessions set lease_until = ${this.leaseUntil()} where process = ${this.processId}`.execute(this.db)
    }
    const now = this.manager.now()
    for (const [id, p] of this.publishers) {
      if (!p.prune(now)) {
        p.close()
        this.publishers.delete(id)
      }
    }
    await this.sweep()
  }

  /** Finishes the sessions whose holder's lease has expired; keeps what their recording holds. */
  async sweep(): Promise<string[]> {
    const now = new Date(this.manager.now())
    const gone = await this.db.transaction().execute(async (tx) => {
      const rows = (await sql<{ session_id: string; process: string; lease_until: Date; replay_temp: string }>`
        select session_id, process, lease_until, replay_temp from terminal_live_sessions where lease_until < ${now}
        for update skip locked`.execute(tx)).rows
      for (const r of rows) {
        const reason = tr('en', 'The server process holding this session ({process}) stopped responding: its lease expired at {time}.',
          { process: r.process, time: new Date(r.lease_until).toISOString() })
        await sql`update terminal_sessions set is_finished = true, date_end = coalesce(date_end, ${now}),
            comment = case when comment = '' then ${reason} else comment || ' ' || ${reason} end
          where id = ${r.session_id}`.execute(tx)
        await sql`delete from terminal_live_sessions where session_id = ${r.session_id}`.execute(tx)
      }
      return rows
    })
    for (const r of gone) {
      await this.salvage(r.session_id, r.replay_temp).catch((err) => this.app.log.warn({ err }, 'salvaging a recording failed'))
    }
    return gone.map((r) => r.session_id)
  }

  /**
   * The recording of a session whose process died: the gzip stream up to its last checkpoint (a complete deflate
   * block, no trailer) is decompressed as far as it goes and stored again as a complete file.
   */
  private async salvage(sessionId: string, temp: string): Promise<void> {
    const root = replayDir(this.app.services.config.dataDir)
    if (!temp || !resolve(temp).startsWith(resolve(root) + '/') || !(await stat(temp).catch(() => undefined))) return
    const fixed = `${temp}.salvaged.part`
    try {
      await pipeline(createReadStream(temp), createGunzip({ finishFlush: zlib.Z_SYNC_FLUSH }), createGzip({ level: 3 }), createWriteStream(fixed, { mode: 0o600 }))
    } catch {
      // a truncated stream ends with an error after what it could give: keep what was written
    }
    const row = (await sql<{ date_start: Date }>`select date_start from terminal_sessions where id = ${sessionId}`.execute(this.db)).rows[0]
    if (!row || dirname(fixed) !== dirname(temp)) return
    if (await storeReplay(this.db, root, { id: sessionId, date_start: row.date_start }, fixed)) await rm(temp, { force: true })
    else await rm(fixed, { force: true })
  }

  /** The process holding a live session (lease not expired), or undefined. */
  async holderOf(sessionId: string): Promise<{ process: string; actions: number; user_id: string | null } | undefined> {
    return (await sql<{ process: string; actions: number; user_id: string | null }>`select process, actions, user_id from terminal_live_sessions
      where session_id = ${sessionId} and lease_until >= ${new Date(this.manager.now())}`.execute(this.db)).rows[0]
  }

  private async onNotify(raw: string): Promise<void> {
    if (this.dead) return
    let m: LiveMessage
    try {
      m = JSON.parse(raw) as LiveMessage
    } catch {
      return
    }
    if (m.op === 'kick') {
      const w = this.byRecord.get(m.record)
      if (!w) return
      // the owner's call finished the record and told the owner's tab
      w.recordFinished = true
      w.end({ reason: 'removed', message: tr(w.lang, 'The session owner removed you from the session.') })
      return
    }
    const file = this.manager.fileSessions.get(m.session)
    if (file && m.op === 'kill') {
      this.manager.component.onKill?.(file.id, m.by)
      await this.killed(file.id, m.by)
      return
    }
    const s = this.manager.sessions.get(m.session)
    if (!s || s.closed) return
    switch (m.op) {
      case 'kill': {
        this.manager.component.onKill?.(s.id, m.by)
        await s.end('terminated', '')
        await this.killed(s.id, m.by)
        return
      }
      case 'watch': {
        let p = this.publishers.get(s.id)
        if (!p) {
          p = new Publisher(this, this.localFeed(s), () => this.publishers.delete(s.id))
          this.publishers.set(s.id, p)
        }
        p.watchers.set(m.proc, this.manager.now() + WATCH_EXPIRE_MS)
        if (m.req) await p.snapshot(m.req)
        return
      }
      case 'unwatch': {
        const p = this.publishers.get(s.id)
        if (p) {
          p.watchers.delete(m.proc)
          if (!p.watchers.size) {
            p.close()
            this.publishers.delete(s.id)
          }
        }
        return
      }
      case 'input':
        s.input(Buffer.from(m.d, 'base64').toString('utf8'))
        return
      case 'joined':
      case 'left':
        s.emit('live', { type: 'share-participants', participants: await this.participants(s.id) })
    }
  }

  /** A session ended by a kill: its task done, who terminated it in its comment. */
  private async killed(id: string, by: string): Promise<void> {
    await sql`update terminal_tasks set is_finished = true, date_finished = now() where name = 'kill_session' and args = ${id} and not is_finished`.execute(this.db)
    if (by) await sql`update terminal_sessions set comment = ${tr('en', 'Terminated by {by}', { by }).slice(0, 1000)} where id = ${id} and comment = ''`.execute(this.db)
  }

  private localFeed(s: TerminalSession): LocalFeed {
    let f = this.local.get(s.id)
    if (!f) {
      f = new LocalFeed(s, () => this.local.delete(s.id))
      this.local.set(s.id, f)
    }
    return f
  }

  /** The feed of a live session: local, or followed from its holder; undefined when it is not live. */
  async feedOf(sessionId: string): Promise<Feed | undefined> {
    const s = this.manager.sessions.get(sessionId)
    if (s && !s.closed) return this.localFeed(s)
    if (!(await this.holderOf(sessionId))) return undefined
    let f = this.remote.get(sessionId)
    if (!f) {
      f = new RemoteFeed(this, sessionId, () => this.remote.delete(sessionId))
      this.remote.set(sessionId, f)
    }
    return f
  }

  /** The joiners in a session now (successful, not finished). */
  async participants(sessionId: string) {
    const rows = (await sql<{ id: string; joiner: string; action_permission: string; date_joined: Date; remote_addr: string }>`
      select r.id, coalesce((select u.name || '(' || u.username || ')' from users u where u.id = r.joiner_id), '') as joiner,
        s.action_permission, r.date_joined, r.remote_addr
      from session_join_records r join session_sharings s on s.id = r.sharing_id
      where r.session_id = ${sessionId} and r.is_success and not r.is_finished order by r.date_joined`.execute(this.db)).rows
    return rows.map((r) => ({ id: r.id, user: r.joiner, action_permission: r.action_permission, date_joined: r.date_joined.toISOString(), remote_addr: r.remote_addr }))
  }

  watch(w: Watcher) {
    if (w.recordId) this.byRecord.set(w.recordId, w)
  }

  unwatch(w: Watcher) {
    if (w.recordId && this.byRecord.get(w.recordId) === w) this.byRecord.delete(w.recordId)
    if (w.expiry !== undefined) this.timers.clear(w.expiry)
    w.expiry = undefined
  }

  /**
   * A joiner stays while their share link is valid: at `expiresAt` (the sharing's creation + its minutes, on the
   * manager's clock) they are removed — the record finished with that time, the socket told (`close`, reason
   * `expired`) and closed, the owner's tab told who is left. Checked again when the timer fires, so a clock that
   * moved less than the timer does not remove early.
   */
  expireAt(w: Watcher, expiresAt: number): void {
    if (!w.recordId || w.closed) return
    if (w.expiry !== undefined) this.timers.clear(w.expiry)
    const wait = expiresAt - this.manager.now()
    if (wait > 0) {
      w.expiry = this.timers.set(() => this.expireAt(w, expiresAt), Math.min(wait, MAX_TIMER_MS))
      return
    }
    w.expiry = undefined
    void this.expire(w).catch((err) => this.app.log.warn({ err }, 'removing an expired joiner failed'))
  }

  private async expire(w: Watcher): Promise<void> {
    if (w.closed || !w.recordId) return
    w.recordFinished = true
    await sql`update session_join_records set is_finished = true, date_left = ${new Date(this.manager.now())}, date_updated = ${new Date(this.manager.now())}
      where id = ${w.recordId} and not is_finished`.execute(this.db)
    w.end({ reason: 'expired', message: tr(w.lang, 'The share link expired: you have left the session.') })
    await this.send({ op: 'left', session: w.feed.sessionId, record: w.recordId })
  }
}

const actionBits = (a: SessionActions) => (Object.keys(a) as Array<keyof SessionActions>).reduce((n, k) => (a[k] ? n | (ACTION_BITS[k] ?? 0) : n), 0)

const services = new WeakMap<FastifyInstance, LiveService>()
export function liveService(app: FastifyInstance): LiveService | undefined {
  return services.get(app)
}

interface SessionSummary { id: string; user: string; asset: string; account: string; org_id: string; user_id: string; is_finished: boolean; protocol: string }

async function sessionRow(db: DB, id: string): Promise<SessionSummary | undefined> {
  return (await sql<SessionSummary>`select id, "user", asset, account, org_id, user_id, is_finished, protocol from terminal_sessions where id = ${id}`.execute(db)).rows[0]
}

const summary = (r: SessionSummary) => ({ id: r.id, user: r.user, asset: r.asset, account: r.account })

export function registerLive(app: FastifyInstance, manager: TerminalManager): LiveService {
  const live = new LiveService(app, manager)
  services.set(app, live)
  app.addHook('onReady', async () => live.start())
  app.addHook('onClose', async () => live.stop())
  const db = () => app.services.database.db

  app.get(LIVE_SOCKET_PATH, { websocket: true }, (socket: WebSocket, req: FastifyRequest) => {
    const opened = openSocket(socket, req)
    if (!opened) return
    const { user, lang, sendJson, fail } = opened
    const stopPing = keepAlive(socket)
    let watcher: Watcher | undefined
    let started = false
    let bucket = INPUT_BURST_BYTES
    let bucketAt = Date.now()
    const leave = async (w: Watcher) => {
      if (w.recordFinished || !w.recordId) return
      w.recordFinished = true
      await manager.component.call('PATCH', `/api/v1/terminal/session-join-records/${w.recordId}/finished/`).catch(() => undefined)
      await live.send({ op: 'left', session: w.feed.sessionId, record: w.recordId }).catch(() => undefined)
    }

    const begin = async (msg: Record<string, unknown>) => {
      if (msg.type === 'monitor') {
        const id = isUuid(msg.session) ? normUuid(msg.session) : ''
        // organization first (another organization's session is not found), then the permission
        const row = id ? await resourceApi(sessionResource).getObject(req, id).catch(() => undefined) : undefined
        if (!row) return fail('session_not_found', tr(lang, 'The session is not online.'))
        try {
          await requirePerm(req, 'terminal.monitor_session', String(row.org_id))
        } catch {
          return fail('permission_denied', tr(lang, 'You are not allowed to monitor this session.'))
        }
        return attach(id, 'monitor')
      }
      // join: the share link's id and its verify code
      const sharingId = isUuid(msg.sharing) ? normUuid(msg.sharing) : ''
      const sharing = sharingId ? (await sql<{ session_id: string; action_permission: string; date_created: Date; expired_time: number }>`
        select session_id, action_permission, date_created, expired_time from session_sharings where id = ${sharingId}`.execute(db())).rows[0] : undefined
      if (!sharing) return fail('share_not_found', tr(lang, 'The share link does not exist.'))
      if (!(await live.holderOf(sharing.session_id))) return fail('session_not_found', tr(lang, 'The session is not online.'))
      let record: string
      try {
        const made = await manager.component.call<{ id: string }>('POST', '/api/v1/terminal/session-join-records/', {
          sharing: sharingId, verify_code: typeof msg.code === 'string' ? msg.code.slice(0, 16) : '', joiner: user.id,
          remote_addr: req.ip.slice(0, 128), login_from: 'WT',
        })
        record = made.id
      } catch (e) {
        if (e instanceof ComponentCallError && e.status === 400) {
          let reason = 'Invalid verification code'
          try {
            const body = JSON.parse(e.body) as { error?: unknown }
            if (typeof body.error === 'string') reason = body.error
          } catch {
            // field errors (a blank code): an invalid code
          }
          return fail('join_refused', tr(lang, reason))
        }
        throw e
      }
      const expiresAt = new Date(sharing.date_created).getTime() + sharing.expired_time * 60_000
      return attach(sharing.session_id, sharing.action_permission === 'writable' ? 'writable' : 'readonly', { record, expiresAt })
    }

    const attach = async (sessionId: string, mode: Mode, join?: { record: string; expiresAt: number }) => {
      const record = join?.record
      const feed = await live.feedOf(sessionId)
      const row = await sessionRow(db(), sessionId)
      if (row?.protocol === 'sftp') return fail('session_not_found', tr(lang, 'A file transfer session has no screen to watch or join.'))
      if (!feed || !row || row.is_finished) return fail('session_not_found', tr(lang, 'The session is not online.'))
      if (feed.size() >= MAX_WATCHERS_PER_SESSION) return fail('too_many_watchers', tr(lang, 'Too many people are watching this session.'))
      if (socket.readyState !== socket.OPEN) return
      const w = new Watcher(socket, feed, mode, lang, record)
      watcher = w
      live.watch(w)
      try {
        await w.start(summary(row))
      } catch {
        w.end({ reason: 'unreachable', message: tr(lang, 'The server holding the session did not answer.') })
        return
      }
      if (join) {
        live.expireAt(w, join.expiresAt)
        await live.send({ op: 'joined', session: sessionId, record: join.record })
      }
    }

    socket.on('message', (data: RawData) => {
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength
      if (size > MAX_FRAME_BYTES) {
        sendJson({ type: 'error', code: 'frame_too_large', message: tr(lang, 'Too much input.') })
        socket.close(1009)
        return
      }
      const msg = parseFrame(data)
      if (!msg) return
      if (!started) {
        if (msg.type !== 'monitor' && msg.type !== 'join') return fail('bad_request', tr(lang, 'The session ended.'))
        started = true
        begin(msg).catch((err) => {
          req.log.warn({ err }, 'live session start failed')
          fail('unreachable', tr(lang, 'The server holding the session did not answer.'))
        })
        return
      }
      switch (msg.type) {
        case 'data': {
          if (typeof msg.data !== 'string' || !watcher || watcher.mode !== 'writable' || watcher.closed) return
          const now = Date.now()
          bucket = Math.min(INPUT_BURST_BYTES, bucket + ((now - bucketAt) / 1000) * INPUT_RATE_BYTES)
          bucketAt = now
          const n = Buffer.byteLength(msg.data)
          if (n > bucket) {
            sendJson({ type: 'error', code: 'rate_limited', message: tr(lang, 'Too much input.') })
            return
          }
          bucket -= n
          watcher.feed.input(msg.data)
          return
        }
        case 'ping':
          sendJson({ type: 'pong' })
          return
        case 'close':
          socket.close(1000)
          return
        default:
      }
    })

    socket.on('close', () => {
      stopPing()
      const w = watcher
      if (!w) return
      live.unwatch(w)
      if (!w.closed) {
        w.closed = true
        w.feed.remove(w)
      }
      void leave(w)
    })
  })

  // --- the session owner's share calls (the web terminal) ---------------------------------------------------------

  /** The caller's own live session, or a refusal. */
  const ownLive = async (req: FastifyRequest) => {
    const user = requireUser(req)
    const id = (req.params as { id?: string }).id
    if (!isUuid(id)) throw notFound('Session')
    const sessionId = normUuid(id)
    const holder = await live.holderOf(sessionId)
    if (!holder) throw notFound('Session')
    if (holder.user_id !== user.id) throw permissionDenied(tr(req.ctx.lang, 'Only the session\'s user can share it.'))
    return { sessionId, holder, user }
  }

  app.post('/api/v1/terminal/live/sessions/:id/sharings/', async (req, reply) => {
    const { sessionId, holder } = await ownLive(req)
    if ((holder.actions & (ACTION_BITS.share ?? 0)) === 0) throw permissionDenied(tr(req.ctx.lang, 'Sharing is not permitted on this session.'))
    const input = parseShare(req.body, req.ctx.lang)
    try {
      const made = await manager.component.call<Record<string, unknown>>('POST', '/api/v1/terminal/session-sharings/', {
        session: sessionId, users: input.users, expired_time: input.expiredTime, action_permission: input.actionPermission,
      })
      return reply.status(201).send({
        id: made.id, verify_code: made.verify_code, expired_time: made.expired_time, action_permission: input.actionPermission,
        users: made.users_display ?? [], url: shareUrl(String(made.id)),
      })
    } catch (e) {
      if (e instanceof ComponentCallError && e.status === 405) throw new ApiError(405, { detail: tr(req.ctx.lang, 'Secure session sharing settings is disabled'), code: 'method_not_allowed' })
      if (e instanceof ComponentCallError && e.status === 400) throw new ApiError(400, JSON.parse(e.body) as unknown)
      throw e
    }
  })

  app.get('/api/v1/terminal/live/sessions/:id/participants/', async (req) => {
    const { sessionId } = await ownLive(req)
    const list = await live.participants(sessionId)
    return list.map((p) => ({ ...p, date_joined: formatDateTime(new Date(p.date_joined), req.ctx.tz) }))
  })

  app.delete('/api/v1/terminal/live/sessions/:id/participants/:record/', async (req, reply) => {
    const { sessionId } = await ownLive(req)
    const record = (req.params as { record?: string }).record
    if (!isUuid(record)) throw notFound('Session join record')
    const r = await sql`update session_join_records set is_finished = true, date_left = now(), date_updated = now()
      where id = ${normUuid(record)} and session_id = ${sessionId} and not is_finished`.execute(db())
    if (!Number(r.numAffectedRows ?? 0n)) throw notFound('Session join record')
    await live.send({ op: 'kick', record: normUuid(record) })
    await live.send({ op: 'left', session: sessionId, record: normUuid(record) })
    return reply.status(204).send()
  })

  // JumpServer's share URL (`<site>/koko/share/<id>/`) opens the share in our web terminal.
  app.get('/koko/share/:id/', async (req, reply) => {
    const id = (req.params as { id: string }).id
    return reply.redirect(isUuid(id) ? shareUrl(normUuid(id)) : '/luna/')
  })

  return live
}

export const shareUrl = (id: string) => `/luna/share/${id}/`

const SHARE_MINUTES_MAX = 24 * 60

/** `{users: [ids], expired_time: minutes 1…1440, action_permission: readonly|writable}`: field errors, translated. */
function parseShare(body: unknown, lang: Lang): ShareInput {
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
  const errors: Record<string, string[]> = {}
  const users: string[] = []
  if (b.users !== undefined && b.users !== null) {
    if (!Array.isArray(b.users) || b.users.length > 100) errors.users = [tr(lang, 'Expected a list of items but got type "{type}".', { type: typeof b.users })]
    else for (const u of b.users) {
      if (isUuid(u)) users.push(normUuid(u))
      else errors.users = [tr(lang, 'Must be a valid UUID.')]
    }
  }
  const minutes = b.expired_time ?? 10
  let expiredTime = 10
  if (typeof minutes !== 'number' || !Number.isInteger(minutes)) errors.expired_time = [tr(lang, 'A valid integer is required.')]
  else if (minutes < 1) errors.expired_time = [tr(lang, 'Ensure this value is greater than or equal to {min}.', { min: 1 })]
  else if (minutes > SHARE_MINUTES_MAX) errors.expired_time = [tr(lang, 'Ensure this value is less than or equal to {max}.', { max: SHARE_MINUTES_MAX })]
  else expiredTime = minutes
  const perm = b.action_permission ?? 'writable'
  if (perm !== 'readonly' && perm !== 'writable') errors.action_permission = [tr(lang, 'Not a valid choice.')]
  if (Object.keys(errors).length) throw badRequest(errors)
  return { users, expiredTime, actionPermission: perm as 'readonly' | 'writable' }
}
