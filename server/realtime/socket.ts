import type { FastifyInstance, FastifyRequest } from 'fastify'
import { keepAlive } from './keepalive.ts'
import { sql } from 'kysely'
import type { WebSocket } from 'ws'
import { cookieNames, loadUser } from '../http/context.ts'
import { loadSession } from '../http/session.ts'
import { SiteMessageHub } from './hub.ts'

export const SITE_MSG_SOCKET_PATH = '/ws/notifications/site-msg/'
/** Close code sent to anonymous or logged-out sockets (application range 4000–4999). */
export const CLOSE_UNAUTHENTICATED = 4401
/** Protocol pings detect dead peers (a sleeping laptop, a dropped proxy) so their sockets are released. */
const MIN_REFRESH_S = 5
const MAX_REFRESH_S = 3600

/** Cookie-authenticated sockets must come from our own origin (cross-site WebSocket hijacking). */
export function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin
  if (!origin) return true
  try {
    return new URL(origin).host === req.headers.host
  } catch {
    return false
  }
}

/** Is the credential that opened the socket still valid (session not logged out, token not expired, user active)? */
function credentialCheck(app: FastifyInstance, req: FastifyRequest): () => Promise<boolean> {
  const db = app.services.database.db
  const userId = req.ctx.user!.id
  if (req.ctx.authBy === 'session') {
    const sid = req.cookies[cookieNames(app.services.config).session]
    return async () => (await loadSession(db, sid))?.data.userId === userId && (await loadUser(db, userId)) !== null
  }
  const token = (req.headers.authorization ?? '').split(/\s+/, 2)[1] ?? ''
  return async () => {
    const r = await sql<{ n: number }>`select count(*)::int as n from auth_tokens where key = ${token} and date_expired > now()`.execute(db)
    return (r.rows[0]?.n ?? 0) > 0 && (await loadUser(db, userId)) !== null
  }
}

/**
 * `/ws/notifications/site-msg/` (contract §4.14): sends `{"type":"unread_count","unread_count":N}` on connect and
 * whenever the user's unread count changes in any server process; `{"refresh_every_seconds": N}` from the client
 * additionally re-sends the count every N seconds (5…3600).
 */
export function registerSiteMessageSocket(app: FastifyInstance, hub: SiteMessageHub): void {
  const database = app.services.database
  app.get(SITE_MSG_SOCKET_PATH, { websocket: true }, (socket: WebSocket, req: FastifyRequest) => {
    const user = req.ctx.user
    if (!user || (req.ctx.authBy === 'session' && !sameOrigin(req))) {
      socket.close(CLOSE_UNAUTHENTICATED, 'unauthenticated')
      return
    }
    const stillValid = credentialCheck(app, req)
    let refresh: NodeJS.Timeout | undefined
    const push = async () => {
      if (socket.readyState !== socket.OPEN) return
      if (!(await stillValid())) {
        socket.close(CLOSE_UNAUTHENTICATED, 'unauthenticated')
        return
      }
      const text = await SiteMessageHub.countMessage(database, user.id)
      if (socket.readyState === socket.OPEN) socket.send(text)
    }
    const remove = hub.add({ userId: user.id, socket, push })
    const stopPing = keepAlive(socket)
    socket.on('message', (data) => {
      let seconds: number
      try {
        const parsed = JSON.parse(data.toString()) as { refresh_every_seconds?: unknown }
        seconds = Number.parseInt(String(parsed?.refresh_every_seconds), 10)
      } catch {
        return
      }
      if (!Number.isFinite(seconds) || seconds <= 0) return
      clearInterval(refresh)
      const every = Math.min(Math.max(seconds, MIN_REFRESH_S), MAX_REFRESH_S)
      refresh = setInterval(() => void push().catch(() => undefined), every * 1000)
    })
    socket.on('close', () => {
      remove()
      stopPing()
      clearInterval(refresh)
    })
    push().catch((err) => req.log.warn({ err }, 'site message push failed'))
  })
}
