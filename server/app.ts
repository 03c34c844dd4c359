import fastifyCookie from '@fastify/cookie'
import fastifyWebsocket from '@fastify/websocket'
import { setRuntimeDefault } from './settings/store.ts'
import Fastify, { type FastifyInstance } from 'fastify'
import type { ServerConfig } from './config.ts'
import type { Database } from './db/connection.ts'
import { bodyParsers } from './http/plugins/body-parsers.ts'
import { requestEdge } from './http/plugins/edge.ts'
import { errorMapping } from './http/plugins/error-mapping.ts'
import { spaFallback } from './http/plugins/spa-fallback.ts'
import { staticFiles } from './http/plugins/static-files.ts'
import { registerModules } from './modules.ts'
import { registerWebsocketBounds, websocketOptions } from './realtime/bounds.ts'
import { addMissingOptions, collectGetRoutes } from './engine/options.ts'

export interface AppOptions {
  config: ServerConfig
  database: Database
  logger?: boolean
}

export interface AppServices {
  config: ServerConfig
  database: Database
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices
    /** Every route registered (method and URL pattern): the security tests walk them. */
    routeList: RouteEntry[]
  }
}

export interface RouteEntry { method: string; url: string }

/**
 * Builds the Fastify app (used by `main.ts` and by tests through `app.inject`): one plugin per concern of the
 * HTTP edge (server/http/plugins/), then the modules of server/modules.ts.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts
  const app = Fastify({
    logger: opts.logger ? { level: config.logLevel } : false,
    bodyLimit: config.bodyLimit,
    // X-Forwarded-* are believed only from the configured proxies (TRUSTED_PROXIES, none by default).
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: false },
  })
  app.decorate('services', { config, database })
  // The Site URL's default is where this server really listens (issue 35), once it does.
  app.addHook('onListen', async () => {
    const addr = app.server.address()
    if (!addr || typeof addr === 'string') return
    const host = addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
    setRuntimeDefault(database.db, 'SITE_URL', `http://${host}:${addr.port}`)
  })
  const routeList: RouteEntry[] = []
  app.decorate('routeList', routeList)
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routeList.push({ method: String(method), url: r.url })
  })

  await app.register(fastifyCookie)
  await app.register(bodyParsers)
  // In proxy mode /ws is the proxy's (server/http/proxy.ts): a second upgrade listener would take the same sockets.
  if (!config.jumpserverUrl) {
    registerWebsocketBounds(app)
    await app.register(fastifyWebsocket, websocketOptions())
  }
  await app.register(requestEdge)
  await app.register(errorMapping)
  await app.register(staticFiles)
  await app.register(spaFallback)

  if (!config.jumpserverUrl) {
    app.get('/api/health/', async () => ({ status: 'ok', time: Date.now() }))
    app.get('/api/v1/health/', async () => ({ status: 'ok', time: Date.now() }))
  }

  collectGetRoutes(app)
  await registerModules(app)
  addMissingOptions(app)
  return app
}
