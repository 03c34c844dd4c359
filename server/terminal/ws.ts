/**
 * `/ws/terminal/`: the web terminal's websocket (docs/terminal.md, "The web terminal's websocket"). JSON text
 * frames from the client (`connect` | `attach` first, then `data`, `resize`, `ping`, `close`); binary frames of
 * terminal output and JSON control frames from the server. A dropped socket leaves the SSH session running for
 * 60 s: `attach` with the session id and its resume key takes it back and the screen is redrawn.
 */
import { keepAlive } from '../realtime/keepalive.ts'
import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { RawData, WebSocket } from 'ws'
import { isUuid, normUuid } from '../engine/parse.ts'
import { tr } from '../i18n.ts'
import { openSecret } from '../resources/accounts/secrets.ts'
import { getTicketWaiter } from './approval.ts'
import { TerminalError, type CloseInfo, type TerminalManager, type TerminalSession } from './session.ts'
import { openSocket, parseFrame } from './socket-open.ts'

export const TERMINAL_SOCKET_PATH = '/ws/terminal/'
export const MAX_FRAME_BYTES = 64 * 1024
/** Input bound per socket: a bucket of this many bytes, refilled at this rate per second. */
export const INPUT_BURST_BYTES = 1024 * 1024
export const INPUT_RATE_BYTES = 256 * 1024
export const MAX_SOCKETS_PER_USER = 16
export const REATTACH_MS = 60_000
/** Output waiting in a socket beyond this pauses the host's output until it drains below LOW. */
const OUT_HIGH = 1024 * 1024
const OUT_LOW = 256 * 1024

interface Attachment { socket: WebSocket | null; detachTimer?: NodeJS.Timeout; unbind?: () => void }
const attachments = new WeakMap<TerminalSession, Attachment>()
const socketsPerUser = new Map<string, number>()

const clampSize = (v: unknown, max: number, dflt: number) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= max ? v : dflt)

function sessionInfo(s: TerminalSession, idleTimeout: number, maxDuration: number) {
  return {
    type: 'session-info',
    session: {
      id: s.id,
      asset: { id: s.asset.id, name: s.asset.name, address: s.asset.address },
      account: { id: s.account.id, name: s.account.name, username: s.accountUsername },
      user: `${s.user.name}(${s.user.username})`,
      protocol: 'ssh',
      resume: s.resumeKey,
      actions: s.actions,
      idle_timeout: idleTimeout,
      max_duration: maxDuration,
    },
  }
}

export function registerTerminalSocket(app: FastifyInstance, manager: TerminalManager): void {
  const db = app.services.database.db
  app.get(TERMINAL_SOCKET_PATH, { websocket: true }, (socket: WebSocket, req: FastifyRequest) => {
    const opened = openSocket(socket, req)
    if (!opened) return
    const { user, lang, sendJson, fail } = opened
    const count = socketsPerUser.get(user.id) ?? 0
    if (count >= MAX_SOCKETS_PER_USER) return fail('too_many_sockets', tr(lang, 'Too many open terminals.'))
    socketsPerUser.set(user.id, count + 1)

    let session: TerminalSession | undefined
    let started = false
    let closedByUser = false
    const abort = new AbortController()
    let bucket = INPUT_BURST_BYTES
    let bucketAt = Date.now()
    const stopPing = keepAlive(socket)

    const limits = async () => {
      const { getSetting } = await import('../settings/store.ts')
      const idle = Number((await getSetting(db, 'SECURITY_MAX_IDLE_TIME')) ?? 30) * 60
      const max = Number((await getSetting(db, 'SECURITY_MAX_SESSION_TIME')) ?? 24) * 3600
      return { idle, max }
    }

    /** Binds the session's output and events to this socket (replacing a previous socket). */
    const bind = async (s: TerminalSession, restore: boolean) => {
      const prev = attachments.get(s)
      if (prev) {
        clearTimeout(prev.detachTimer)
        prev.unbind?.()
        if (prev.socket && prev.socket !== socket) prev.socket.close(1000)
      }
      const att: Attachment = { socket }
      attachments.set(s, att)
      // Everything from here on reaches the socket exactly once: the output so far (or, re-attaching, the screen
      // as of now), then what comes while session-info is being sent, then the stream.
      let queue: Buffer[] | null = []
      let waiting = 0
      const sendOutput = (d: Buffer) => {
        if (socket.readyState !== socket.OPEN) return
        waiting += d.length
        if (waiting > OUT_HIGH) s.pauseOutput('ws')
        socket.send(d, () => {
          waiting -= d.length
          if (waiting < OUT_LOW) s.resumeOutput('ws')
        })
      }
      const onOutput = (d: Buffer) => {
        if (queue) queue.push(d)
        else sendOutput(d)
      }
      const onNotice = (n: { code: string; message: string }) => sendJson({ type: 'error', code: n.code, message: n.message })
      const onWait = (w: { ticket: string; reviewers: string[] }) => sendJson({ type: 'wait', reason: 'approval', ticket: w.ticket, reviewers: w.reviewers })
      const onWaitEnd = () => sendJson({ type: 'wait-end' })
      const onLive = (frame: unknown) => sendJson(frame)
      const onClose = (c: CloseInfo) => {
        sendJson({ type: 'close', reason: c.reason, message: c.message })
        socket.close(1000)
      }
      s.on('output', onOutput)
      s.on('notice', onNotice)
      s.on('wait', onWait)
      s.on('wait-end', onWaitEnd)
      s.on('close', onClose)
      s.on('live', onLive)
      att.unbind = () => {
        s.off('live', onLive)
        s.off('output', onOutput)
        s.off('notice', onNotice)
        s.off('wait', onWait)
        s.off('wait-end', onWaitEnd)
        s.off('close', onClose)
        s.resumeOutput('ws')
      }
      const early = s.takeEarlyOutput()
      const screen = restore ? s.serialize() : undefined
      const { idle, max } = await limits()
      sendJson(sessionInfo(s, idle, max))
      if (screen) sendOutput(Buffer.from(await screen, 'utf8'))
      else if (early.length) sendOutput(early)
      for (const d of queue) sendOutput(d)
      queue = null
    }

    const connect = async (msg: Record<string, unknown>) => {
      const cols = clampSize(msg.cols, 1000, 80)
      const rows = clampSize(msg.rows, 500, 24)
      if (msg.type === 'attach') {
        const id = typeof msg.session === 'string' && isUuid(msg.session) ? normUuid(msg.session) : ''
        const s = id ? manager.sessions.get(id) : undefined
        const key = Buffer.from(typeof msg.resume === 'string' ? msg.resume : '')
        const want = Buffer.from(s?.resumeKey ?? '')
        if (!s || s.closed || s.user.id !== user.id || key.length !== want.length || !timingSafeEqual(key, want)) {
          return fail('session_not_found', tr(lang, 'The session does not exist or can no longer be resumed.'))
        }
        session = s
        s.resize(cols, rows)
        await bind(s, true)
        return
      }
      const tokenId = typeof msg.token === 'string' && isUuid(msg.token) ? normUuid(msg.token) : ''
      const readToken = async () => tokenId ? (await sql<{ id: string; asset_id: string; account: string; input_username: string; input_secret: string; protocol: string; is_active: boolean; from_ticket_id: string | null }>`select id, asset_id, account, input_username, input_secret, protocol, is_active, from_ticket_id
        from connection_tokens where id = ${tokenId} and user_id = ${user.id} and date_expired > now()`.execute(db)).rows[0] : undefined
      let token = await readToken()
      const expired = () => fail('token_expired', tr(lang, 'The connection token is not valid or has expired.'))
      if (!token || token.protocol !== 'ssh' || (!token.is_active && !token.from_ticket_id)) return expired()
      // A token asked under a login review (`?create_ticket=1`) is inactive until its ticket's final approval: wait
      // for it here, as luna waits on the ticket's status; cancelling (close, or leaving) closes the ticket.
      const fromTicket = token.from_ticket_id
      if (!token.is_active && fromTicket) {
        const waiter = getTicketWaiter()
        if (!waiter) return fail('needs_approval', tr(lang, 'This login needs approval and no approval is available.'))
        const handle = await waiter(fromTicket)
        sendJson({ type: 'wait', reason: 'approval', ticket: fromTicket, reviewers: handle.reviewers })
        const cancel = () => void handle.cancel().catch((err) => req.log.warn({ err }, 'closing a login ticket failed'))
        abort.signal.addEventListener('abort', cancel, { once: true })
        const { decision, by } = await handle.decision.finally(() => abort.signal.removeEventListener('abort', cancel))
        if (socket.readyState !== socket.OPEN) return
        sendJson({ type: 'wait-end' })
        if (decision === 'rejected') {
          return fail('acl_rejected', by.length ? tr(lang, 'The login was rejected by {name}.', { name: by.join(', ') }) : tr(lang, 'The login was not approved.'))
        }
        if (decision !== 'approved') return fail('acl_rejected', tr(lang, 'The login request was closed before it was approved.'))
        token = await readToken()
        if (!token?.is_active) return expired()
      }
      const s = await manager.open({
        user, lang, assetId: token.asset_id, account: token.account, inputUsername: token.input_username || undefined,
        inputSecret: token.input_secret ? openSecret(app.services.database, 'connection_tokens', token.id, 'input_secret', token.input_secret) : undefined,
        loginFrom: 'WT', remoteAddr: req.ip, cols, rows, signal: abort.signal, loginApproved: !!fromTicket,
        onWait: (w) => sendJson({ type: 'wait', reason: 'approval', ticket: w.ticket, reviewers: w.reviewers }),
        onWaitEnd: () => sendJson({ type: 'wait-end' }),
      })
      if (socket.readyState !== socket.OPEN) {
        // the user left while it was connecting
        await s.end('closed', tr(lang, 'The session ended.'))
        return
      }
      session = s
      await bind(s, false)
    }

    socket.on('message', (data: RawData, isBinary: boolean) => {
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength
      if (size > MAX_FRAME_BYTES) {
        sendJson({ type: 'error', code: 'frame_too_large', message: tr(lang, 'Too much input.') })
        socket.close(1009)
        return
      }
      const msg = parseFrame(data, isBinary)
      if (!msg) return
      if (!started) {
        if (msg.type !== 'connect' && msg.type !== 'attach') return fail('bad_request', tr(lang, 'The session ended.'))
        started = true
        connect(msg).catch((e) => {
          if (e instanceof TerminalError) fail(e.code, e.message)
          else {
            req.log.warn({ err: e }, 'terminal connect failed')
            fail('unreachable', tr(lang, 'Cannot reach the asset: {reason}', { reason: e instanceof Error ? e.message : String(e) }))
          }
        })
        return
      }
      switch (msg.type) {
        case 'data': {
          if (typeof msg.data !== 'string' || !session) return
          const now = Date.now()
          bucket = Math.min(INPUT_BURST_BYTES, bucket + ((now - bucketAt) / 1000) * INPUT_RATE_BYTES)
          bucketAt = now
          const n = Buffer.byteLength(msg.data)
          if (n > bucket) {
            sendJson({ type: 'error', code: 'rate_limited', message: tr(lang, 'Too much input.') })
            return
          }
          bucket -= n
          session.input(msg.data)
          return
        }
        case 'resize':
          if (session) session.resize(clampSize(msg.cols, 1000, session.cols), clampSize(msg.rows, 500, session.rows))
          return
        case 'ping':
          sendJson({ type: 'pong' })
          return
        case 'close':
          closedByUser = true
          if (session) void session.end('closed', tr(lang, 'The session ended.'))
          else abort.abort()
          return
        default:
      }
    })

    socket.on('close', () => {
      stopPing()
      const n = (socketsPerUser.get(user.id) ?? 1) - 1
      if (n > 0) socketsPerUser.set(user.id, n)
      else socketsPerUser.delete(user.id)
      abort.abort()
      const s = session
      if (!s || s.closed) return
      const att = attachments.get(s)
      if (!att || att.socket !== socket) return
      att.unbind?.()
      att.socket = null
      if (closedByUser) return
      // keep the SSH session for a re-attach; its output goes on into the screen and the recording
      att.detachTimer = setTimeout(() => {
        if (attachments.get(s)?.socket === null) void s.end('detached', tr(s.lang, 'The session ended.'))
      }, REATTACH_MS)
      att.detachTimer.unref()
    })
  })
}
