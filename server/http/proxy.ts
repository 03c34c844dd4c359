import fastifyHttpProxy from '@fastify/http-proxy'
import type { FastifyInstance } from 'fastify'

/**
 * Proxy mode (JUMPSERVER_URL): this server only serves the console under /ui/ and forwards the JumpServer
 * paths — /api, /ws (websockets), /core, /static, /media, /luna, /koko — to the real JumpServer, keeping the
 * Host-independent cookies (jms_sessionid, jms_csrftoken, jms_public_key) flowing through untouched.
 */
export async function registerProxy(app: FastifyInstance): Promise<void> {
  const upstream = app.services.config.jumpserverUrl!.replace(/\/+$/, '')
  for (const prefix of ['/api', '/core', '/static', '/media', '/luna', '/koko']) {
    await app.register(fastifyHttpProxy, { upstream, prefix, rewritePrefix: prefix, http2: false })
  }
  await app.register(fastifyHttpProxy, {
    upstream,
    prefix: '/ws',
    rewritePrefix: '/ws',
    websocket: true,
    wsUpstream: upstream.replace(/^http/, 'ws'),
  })
}
