/** What the terminal's two websockets (`/ws/terminal/`, `/ws/terminal/live/`) do first with a new socket. */
import type { FastifyRequest } from 'fastify'
import type { RawData, WebSocket } from 'ws'
import type { AuthUser, Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { sameOrigin } from '../realtime/socket.ts'

export interface OpenedSocket {
  user: AuthUser
  lang: Lang
  /** a JSON frame, when the socket is still open */
  sendJson(msg: unknown): void
  /** an `error` frame, then the socket closed */
  fail(code: string, message: string): void
}

/**
 * The signed-in user of a new socket (a session's socket must come from the console's own origin), with the frame
 * senders; undefined when it is refused (an `error` frame and close code 4401 already sent).
 */
export function openSocket(socket: WebSocket, req: FastifyRequest): OpenedSocket | undefined {
  const user = req.ctx?.user
  const lang = req.ctx?.lang ?? 'en'
  const sendJson = (msg: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg))
  }
  const fail = (code: string, message: string) => {
    sendJson({ type: 'error', code, message })
    socket.close(1000)
  }
  if (!user || (req.ctx.authBy === 'session' && !sameOrigin(req))) {
    sendJson({ type: 'error', code: 'permission_denied', message: tr(lang, 'Not signed in.') })
    socket.close(4401, 'unauthenticated')
    return undefined
  }
  return { user, lang, sendJson, fail }
}

/** A client's JSON frame as an object, or undefined (not JSON, or not an object: the frame is ignored). */
export function parseFrame(data: RawData, isBinary = false): Record<string, unknown> | undefined {
  try {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : isBinary ? Buffer.from(data as ArrayBuffer).toString('utf8') : String(data)
    const parsed: unknown = JSON.parse(text)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
