/**
 * The live-session websocket (`/ws/terminal/live/`, frames in docs/terminal.md "Live sessions"): an auditor's
 * monitor of a session and a share link's joiner. One `LiveLink` per view: it sends the first frame (`monitor` or
 * `join`), hands output bytes to the screen and the control frames to its owner, and sends a writable joiner's
 * input. Authenticated by the session cookie.
 */
export const LIVE_WS_PATH = '/ws/terminal/live/'
const PING_MS = 20_000

export function liveSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${LIVE_WS_PATH}`
}

export interface LiveSessionSummary { id: string; user: string; asset: string; account: string }

export type LiveEvent =
  | { type: 'info'; mode: 'monitor' | 'readonly' | 'writable'; cols: number; rows: number; session: LiveSessionSummary }
  | { type: 'resize'; cols: number; rows: number }
  | { type: 'error'; code: string; message: string }
  | { type: 'close'; reason: string; message: string }
  /** the socket closed without a close or error frame */
  | { type: 'dropped' }

export type LiveStart = { type: 'monitor'; session: string } | { type: 'join'; sharing: string; code: string }

export interface LiveLinkOptions {
  onOutput: (bytes: Uint8Array) => void
  onEvent: (event: LiveEvent) => void
  url?: string
  WebSocketImpl?: typeof WebSocket
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')
const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d)

/** A server JSON frame as a LiveEvent; undefined for `pong` and frames this client does not know. */
export function parseLiveFrame(text: string): LiveEvent | undefined {
  let f: Record<string, unknown>
  try {
    const parsed = JSON.parse(text) as unknown
    if (!parsed || typeof parsed !== 'object') return undefined
    f = parsed as Record<string, unknown>
  } catch {
    return undefined
  }
  switch (f.type) {
    case 'live-info': {
      const s = (f.session ?? {}) as Record<string, unknown>
      const mode = f.mode === 'writable' || f.mode === 'readonly' ? f.mode : 'monitor'
      return { type: 'info', mode, cols: num(f.cols, 80), rows: num(f.rows, 24), session: { id: str(s.id), user: str(s.user), asset: str(s.asset), account: str(s.account) } }
    }
    case 'resize': return { type: 'resize', cols: num(f.cols, 80), rows: num(f.rows, 24) }
    case 'error': return { type: 'error', code: str(f.code) || 'error', message: str(f.message) }
    case 'close': return { type: 'close', reason: str(f.reason) || 'closed', message: str(f.message) }
    default: return undefined
  }
}

export class LiveLink {
  private socket: WebSocket | undefined
  private ping: ReturnType<typeof setInterval> | undefined
  private over = false

  constructor(private readonly options: LiveLinkOptions) {}

  open(start: LiveStart): void {
    const Impl = this.options.WebSocketImpl ?? WebSocket
    const socket = new Impl(this.options.url ?? liveSocketUrl(window.location))
    socket.binaryType = 'arraybuffer'
    this.socket = socket
    socket.onopen = () => {
      socket.send(JSON.stringify(start))
      this.ping = setInterval(() => this.frame({ type: 'ping' }), PING_MS)
    }
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') {
        this.options.onOutput(new Uint8Array(event.data as ArrayBuffer))
        return
      }
      const parsed = parseLiveFrame(event.data)
      if (!parsed) return
      // a close frame, or a refusal (the server closes the socket after it): not a dropped connection
      if (parsed.type === 'close' || (parsed.type === 'error' && parsed.code !== 'rate_limited')) this.over = true
      this.options.onEvent(parsed)
    }
    socket.onclose = () => {
      clearInterval(this.ping)
      if (this.socket === socket) this.socket = undefined
      if (!this.over) this.options.onEvent({ type: 'dropped' })
      this.over = true
    }
  }

  /** A writable joiner's keystrokes (the server drops them on a monitor or a read-only share). */
  input(data: string): void {
    this.frame({ type: 'data', data })
  }

  private frame(f: Record<string, unknown>): void {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(f))
  }

  /** Leaves (the session goes on). */
  dispose(): void {
    this.over = true
    clearInterval(this.ping)
    const s = this.socket
    this.socket = undefined
    if (s && s.readyState <= 1) s.close(1000)
  }
}
