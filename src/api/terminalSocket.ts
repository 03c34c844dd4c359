/**
 * The web terminal's websocket (`/ws/terminal/`, frames in docs/terminal.md): one `TerminalLink` per terminal tab.
 * The terminal machine (machines/terminal) drives it through its `socket` actor — CONNECT and ATTACH open a new
 * websocket, CLOSE ends the session — and hears back one event per server frame. Output bytes go straight to the
 * screen (`onOutput`), never through the machine; typed text and resizes go to whichever websocket is live.
 * Authenticated by the session cookie; no secret travels on it.
 */
import type { TerminalSessionInfo, TerminalSocketCommand, TerminalSocketEvent } from '../../machines/terminal/terminal.types.ts'

export const TERMINAL_WS_PATH = '/ws/terminal/'
/** Client ping period (the protocol's 20 s). */
export const PING_MS = 20_000
/** No answer at all (pong or output) for this long: the socket is dead even if the browser has not noticed (sleep). */
export const DEAD_MS = 50_000

export function terminalSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${TERMINAL_WS_PATH}`
}

export interface TerminalSize { cols: number; rows: number }

export interface TerminalLinkOptions {
  url?: string
  /** the screen's size now (sent with connect, attach) */
  size: () => TerminalSize
  /** raw output bytes, in order */
  onOutput: (bytes: Uint8Array) => void
  /** an attach succeeded: the screen is about to be drawn again from the server's copy */
  onRestore: () => void
  /** a JSON frame the machine does not take (`share-participants`: who joined the session through a share link) */
  onFrame?: (frame: Record<string, unknown>) => void
  /** for tests: a WebSocket constructor */
  WebSocketImpl?: typeof WebSocket
}

type Send = (event: TerminalSocketEvent) => void

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))

/** A server JSON frame as the machine's event; undefined for `pong` and frames this client does not know. */
export function parseFrame(text: string): TerminalSocketEvent | 'pong' | undefined {
  let frame: Record<string, unknown>
  try {
    const parsed = JSON.parse(text) as unknown
    if (typeof parsed !== 'object' || parsed === null) return undefined
    frame = parsed as Record<string, unknown>
  } catch {
    return undefined
  }
  switch (frame.type) {
    case 'pong': return 'pong'
    case 'session-info': {
      const s = frame.session
      if (typeof s !== 'object' || s === null || typeof (s as { id?: unknown }).id !== 'string') return undefined
      return { type: 'SESSION_INFO', session: s as TerminalSessionInfo }
    }
    case 'wait':
      return { type: 'WAIT', wait: { reason: str(frame.reason), ticket: str(frame.ticket), reviewers: Array.isArray(frame.reviewers) ? frame.reviewers.map(str) : [] } }
    case 'wait-end': return { type: 'WAIT_END' }
    case 'error': return { type: 'SERVER_ERROR', problem: { code: str(frame.code) || 'error', message: str(frame.message) } }
    case 'close': return { type: 'SERVER_CLOSE', problem: { code: str(frame.reason) || 'closed', message: str(frame.message) } }
    default: return undefined
  }
}

export class TerminalLink {
  private socket: WebSocket | undefined
  private send: Send = () => {}
  private ping: ReturnType<typeof setInterval> | undefined
  private lastHeard = 0
  private readonly options: TerminalLinkOptions
  private readonly url: string

  constructor(options: TerminalLinkOptions) {
    this.options = options
    this.url = options.url ?? terminalSocketUrl(window.location)
  }

  /** The machine's socket actor: where events go (its `sendBack`). */
  bind(send: Send): void {
    this.send = send
  }

  command(command: TerminalSocketCommand): void {
    if (command.type === 'CLOSE') {
      this.frame({ type: 'close' })
      this.drop()
      return
    }
    const { cols, rows } = this.options.size()
    const first = command.type === 'CONNECT'
      ? { type: 'connect', token: command.token, cols, rows }
      : { type: 'attach', session: command.session, resume: command.resume, cols, rows }
    this.open(first, command.type === 'ATTACH')
  }

  /** Text typed or pasted. */
  input(data: string): void {
    this.frame({ type: 'data', data })
  }

  resize(size: TerminalSize): void {
    this.frame({ type: 'resize', cols: size.cols, rows: size.rows })
  }

  /** Whether text can be sent now (a live, open websocket). */
  get live(): boolean {
    return this.socket?.readyState === 1
  }

  /** Closes the websocket without a `close` frame (the actor stops; the server keeps the session for a re-attach). */
  dispose(): void {
    this.drop()
    this.send = () => {}
  }

  private frame(frame: Record<string, unknown>): void {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(frame))
  }

  private open(first: Record<string, unknown>, attaching: boolean): void {
    this.drop()
    const Impl = this.options.WebSocketImpl ?? WebSocket
    const socket = new Impl(this.url)
    socket.binaryType = 'arraybuffer'
    this.socket = socket
    let over = false
    let restorePending = attaching
    const mine = () => this.socket === socket
    socket.onopen = () => {
      if (!mine()) return
      socket.send(JSON.stringify(first))
      this.lastHeard = Date.now()
      this.ping = setInterval(() => {
        if (Date.now() - this.lastHeard > DEAD_MS) {
          // asleep or cut off without the browser noticing: treat as a drop
          this.lost(socket)
          return
        }
        this.frame({ type: 'ping' })
      }, PING_MS)
    }
    socket.onmessage = (event: MessageEvent) => {
      if (!mine() || over) return
      this.lastHeard = Date.now()
      if (typeof event.data !== 'string') {
        this.options.onOutput(new Uint8Array(event.data as ArrayBuffer))
        return
      }
      const parsed = parseFrame(event.data)
      if (parsed === undefined && this.options.onFrame) {
        try {
          const frame = JSON.parse(event.data) as unknown
          if (frame && typeof frame === 'object' && !Array.isArray(frame)) this.options.onFrame(frame as Record<string, unknown>)
        } catch {
          // not JSON: ignored
        }
      }
      if (parsed === undefined || parsed === 'pong') return
      if (parsed.type === 'SESSION_INFO' && restorePending) {
        // the server draws the screen again right after this frame: start from a clean one
        restorePending = false
        this.options.onRestore()
      }
      if (parsed.type === 'SERVER_CLOSE') over = true
      this.send(parsed)
    }
    socket.onclose = (event: CloseEvent) => {
      if (!mine()) return
      this.stopPing()
      this.socket = undefined
      if (!over) this.send({ type: 'DROPPED', code: event.code })
    }
  }

  private lost(socket: WebSocket): void {
    if (this.socket !== socket) return
    this.drop()
    this.send({ type: 'DROPPED', code: 4000 })
  }

  private stopPing(): void {
    if (this.ping !== undefined) clearInterval(this.ping)
    this.ping = undefined
  }

  private drop(): void {
    this.stopPing()
    const socket = this.socket
    this.socket = undefined
    if (socket && socket.readyState <= 1) socket.close(1000)
  }
}
