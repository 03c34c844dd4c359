/**
 * Bounds every websocket endpoint inherits (issue 36 point 4), in the one place @fastify/websocket is registered:
 * - the frame size: ws's `maxPayload`, checked from a frame's header before its payload is buffered (a larger
 *   frame closes the socket with 1009). 64 KiB unless the route declares its own in
 *   `config: { websocket: { maxPayload } }` (a terminal's paste may want more; the library default was 100 MiB);
 * - the sockets one user holds open on this process: WS_DEFAULTS.perUser over all endpoints, and a route's own
 *   `perUser` on it; the socket beyond is closed with 4429 at once (anonymous sockets count per address).
 * The per-route frame bound reaches ws through a WebSocket subclass that reads it from the upgraded TCP socket,
 * where an onRequest hook of the route put it.
 */
import type { Duplex } from 'node:stream'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { WebSocket } from 'ws'

export const WS_DEFAULTS = { maxPayload: 64 * 1024, perUser: 20 }
/** Close code of a socket beyond its user's bound (application range 4000–4999; 429 as in HTTP). */
export const CLOSE_TOO_MANY_SOCKETS = 4429

export interface WebsocketBounds { maxPayload?: number; perUser?: number }

declare module 'fastify' {
  interface FastifyContextConfig {
    websocket?: WebsocketBounds
  }
}

const kMaxPayload = Symbol('bastion.wsMaxPayload')
type Marked = Duplex & { [kMaxPayload]?: number }

/** ws's WebSocket with the frame bound of the route that upgraded the socket. */
class BoundedWebSocket extends WebSocket {
  setSocket(socket: Duplex, head: Buffer, options: Record<string, unknown>): void {
    const bound = (socket as Marked)[kMaxPayload]
    // @ts-expect-error setSocket is ws's internal (undocumented) hook, called once by the server on upgrade
    super.setSocket(socket, head, bound === undefined ? options : { ...options, maxPayload: bound })
  }
}

/** The options @fastify/websocket is registered with. */
export const websocketOptions = () => ({ options: { maxPayload: WS_DEFAULTS.maxPayload, WebSocket: BoundedWebSocket as never } })

const routes: Array<{ url: string; maxPayload: number; perUser: number }> = []
/** Every websocket route registered so far, with its bounds (for the generated security suite). */
export const websocketRoutes = () => [...new Map(routes.map((r) => [r.url, r])).values()]

type WsHandler = (this: unknown, socket: WebSocket, req: FastifyRequest) => unknown

/** Must run before @fastify/websocket is registered: its onRoute hook then wraps what this one wrapped. */
export function registerWebsocketBounds(app: FastifyInstance): void {
  const open = new Map<string, number>()
  const take = (key: string, limit: number) => {
    const n = open.get(key) ?? 0
    if (n >= limit) return false
    open.set(key, n + 1)
    return true
  }
  const give = (key: string) => {
    const n = (open.get(key) ?? 1) - 1
    if (n <= 0) open.delete(key)
    else open.set(key, n)
  }
  app.addHook('onRoute', (route: RouteOptions & { websocket?: boolean }) => {
    if (!route.websocket) return
    const declared = (route.config as { websocket?: WebsocketBounds } | undefined)?.websocket ?? {}
    const maxPayload = declared.maxPayload ?? WS_DEFAULTS.maxPayload
    const perRoute = Math.min(declared.perUser ?? WS_DEFAULTS.perUser, WS_DEFAULTS.perUser)
    routes.push({ url: route.url, maxPayload, perUser: perRoute })
    const mark = (req: FastifyRequest, _reply: unknown, done: () => void) => {
      if (req.raw.socket) (req.raw.socket as Marked)[kMaxPayload] = maxPayload
      done()
    }
    route.onRequest = [...(Array.isArray(route.onRequest) ? route.onRequest : route.onRequest ? [route.onRequest] : []), mark] as RouteOptions['onRequest']
    const handler = route.handler as unknown as WsHandler
    const bounded: WsHandler = function (socket, req) {
      const who = req.ctx?.user?.id ?? `ip:${req.ip}`
      const keys: Array<[string, number]> = [[who, WS_DEFAULTS.perUser], [`${who} ${route.url}`, perRoute]]
      const taken: string[] = []
      for (const [key, limit] of keys) {
        if (!take(key, limit)) {
          taken.forEach(give)
          socket.close(CLOSE_TOO_MANY_SOCKETS, 'too many sockets')
          return undefined
        }
        taken.push(key)
      }
      socket.once('close', () => taken.forEach(give))
      return handler.call(this, socket, req)
    }
    route.handler = bounded as unknown as RouteOptions['handler']
  })
}
