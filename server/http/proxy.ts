import fastifyHttpProxy from '@fastify/http-proxy'
import type { FastifyInstance } from 'fastify'

/** The JumpServer paths forwarded in proxy mode (plain HTTP); `/ws` is forwarded as websockets. */
export const PROXIED_PREFIXES = ['/api', '/core', '/static', '/media', '/luna', '/koko'] as const

/**
 * Proxy mode (JUMPSERVER_URL): this server only serves the console under /ui/ and forwards the JumpServer
 * paths — /api, /ws (websockets), /core, /static, /media, /luna, /koko — to the real JumpServer, keeping the
 * Host-independent cookies (jms_sessionid, jms_csrftoken, jms_public_key) flowing through untouched.
 *
 * The forwarding lives in a scope of its own without the server's body parsers: @fastify/http-proxy adds its own
 * pass-through parsers (`application/json`, `*`) so a body reaches the upstream as sent, and adding them beside the
 * server's JSON parser (registered app-wide) stopped the start with FST_ERR_CTP_ALREADY_PRESENT
 * (docs/decisions/proxy-mode-forwards-bodies-untouched.md).
 */
export async function registerProxy(app: FastifyInstance): Promise<void> {
  const upstream = app.services.config.jumpserverUrl!.replace(/\/+$/, '')
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    for (const prefix of PROXIED_PREFIXES) {
      await scope.register(fastifyHttpProxy, { upstream, prefix, rewritePrefix: prefix, http2: false })
    }
    await scope.register(fastifyHttpProxy, {
      upstream,
      prefix: '/ws',
      rewritePrefix: '/ws',
      websocket: true,
      wsUpstream: upstream.replace(/^http/, 'ws'),
    })
  })
}
