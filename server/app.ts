import { join } from 'node:path'
import fastifyCookie from '@fastify/cookie'
import fastifyMultipart from '@fastify/multipart'
import fastifyWebsocket from '@fastify/websocket'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { ServerConfig } from './config.ts'
import type { Database } from './db/connection.ts'
import { tr } from './i18n.ts'
import { buildContext, cookieNames, isApiPath } from './http/context.ts'
import { ApiError } from './http/errors.ts'
import { compressAnswer } from './http/compress.ts'
import { createAssetStore } from './http/assets.ts'
import { ensurePageSession, finishSession } from './http/pages.ts'
import { registerModules } from './modules.ts'
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

const FILE_LIMIT = 10 * 1024 * 1024
/** How much of an oversized body is read and discarded so the client gets the answer (more: the connection closes). */
const DRAIN_LIMIT = 64 * 1024 * 1024

export interface RouteEntry { method: string; url: string }

/** A 5xx is a bug: always logged with its stack, with or without the request logger. */
function logServerError(req: FastifyRequest, err: Error): void {
  if (req.log.level && req.log.level !== 'silent') req.log.error({ err }, 'unhandled error')
  else console.error(`[${new Date().toISOString()}] unhandled error on ${req.method} ${req.url.slice(0, 200)}:`, err.stack ?? err)
}

const NUL = '\u0000'

/**
 * NUL bytes cannot be stored or compared by PostgreSQL: a query parameter or a header holding one is refused
 * with a 400 on every URL; a cookie holding one is ignored (as if absent), so a bad cookie never locks a browser
 * out of the login page.
 */
function rejectNulBytes(req: FastifyRequest): void {
  const bad = () => new ApiError(400, { detail: 'Null characters are not allowed.', code: 'invalid' })
  if (req.url.includes('%00') || req.url.includes(NUL)) {
    const q = (req.query ?? {}) as Record<string, unknown>
    for (const [k, v] of Object.entries(q)) {
      if (k.includes(NUL) || [v].flat().some((x) => typeof x === 'string' && x.includes(NUL))) throw bad()
    }
    if (decodeURIComponentSafe(req.url.split('?')[0] ?? '').includes(NUL)) throw bad()
  }
  for (const [k, v] of Object.entries(req.headers)) {
    if (k === 'cookie') continue
    if ([v].flat().some((x) => typeof x === 'string' && x.includes(NUL))) throw bad()
  }
  const cookies = req.cookies as Record<string, string | undefined> | undefined
  if (cookies) for (const [k, v] of Object.entries(cookies)) if (typeof v === 'string' && (v.includes(NUL) || k.includes(NUL))) delete cookies[k]
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/**
 * Framing, content and referrer policies on every answer (the console needs inline styles: Fluent UI's CSS-in-JS;
 * the replay player compiles its terminal emulator from WebAssembly: 'wasm-unsafe-eval', which allows no JS eval).
 */
function contentSecurityPolicy(scriptHashes: string[] = []): string {
  return [
    "default-src 'self'", ["script-src 'self' 'wasm-unsafe-eval'", ...scriptHashes].join(' '), "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:", "font-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'self'",
    "form-action 'self'", "frame-ancestors 'none'",
  ].join('; ')
}
const CSP = contentSecurityPolicy()

/**
 * Paths of files anyone may fetch (the built console's assets, the default images): they are answered without a
 * session, a user or an organization (no database work), as the login page needs them before anyone has logged in.
 */
const PUBLIC_FILE = /^\/(ui\/assets|static\/img)\//

function securityHeaders(reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff')
  reply.header('X-Frame-Options', 'DENY')
  reply.header('Referrer-Policy', 'same-origin')
  // A page's own policy (its inline scripts' hashes, server/http/assets.ts) stays.
  if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', CSP)
}

function hasUnreadBody(req: FastifyRequest): boolean {
  const h = req.headers
  const declared = Number(h['content-length'] ?? 0) > 0 || h['transfer-encoding'] !== undefined
  return declared && !req.raw.readableEnded && !req.raw.destroyed && req.raw.listenerCount('data') === 0
}

/** Reads and discards the request body up to `limit` bytes (resolves when it ended or the limit was passed). */
function drainBody(req: FastifyRequest, limit: number): Promise<void> {
  const raw = req.raw
  if (raw.readableEnded || raw.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    let seen = 0
    const done = () => {
      raw.off('data', onData)
      raw.off('end', done)
      raw.off('error', done)
      raw.off('close', done)
      resolve()
    }
    const onData = (chunk: Buffer) => {
      seen += chunk.length
      if (seen > limit) done()
    }
    raw.on('data', onData)
    raw.on('end', done)
    raw.on('error', done)
    raw.on('close', done)
    raw.resume()
  })
}

function errorBody(req: FastifyRequest, status: number, body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { detail?: unknown }).detail === 'string') {
    const lang = req.ctx?.lang ?? 'en'
    return { ...(body as object), detail: tr(lang, (body as { detail: string }).detail) }
  }
  return status === 400 && body === '' ? undefined : body
}

/** Builds the Fastify app (used by `main.ts` and by tests through `app.inject`). */
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
  const routeList: RouteEntry[] = []
  app.decorate('routeList', routeList)
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routeList.push({ method: String(method), url: r.url })
  })

  await app.register(fastifyCookie)
  await app.register(fastifyMultipart, { limits: { fileSize: FILE_LIMIT, files: 1 } })
  await app.register(fastifyWebsocket)

  // Body parsers: JSON (with DRF-style errors), form bodies, and raw files for render-to-json.
  app.removeContentTypeParser(['application/json'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch (e) {
      done(new ApiError(400, { detail: `JSON parse error - ${(e as Error).message}`, code: 'parse_error' }), undefined)
    }
  })
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))))
  })
  app.addContentTypeParser(['text/csv', 'text/xlsx', 'application/xlsx', 'application/octet-stream',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  { parseAs: 'buffer', bodyLimit: FILE_LIMIT }, (_req, body, done) => done(null, body))

  app.decorateRequest('ctx', null as never)
  const proxyMode = !!config.jumpserverUrl
  app.addHook('onRequest', async (req) => {
    rejectNulBytes(req)
    // In proxy mode the real JumpServer owns sessions, auth and organizations.
    if (proxyMode || PUBLIC_FILE.test(req.url)) return
    req.ctx = await buildContext(req, database.db, config)
  })
  app.addHook('onSend', async (req, reply, payload) => {
    securityHeaders(reply)
    // An answer given before the body was read (a 401/403 from a hook, a 413): read the rest first, up to a
    // bound, so the client — still sending — gets the answer instead of a reset connection.
    if (hasUnreadBody(req)) await drainBody(req, DRAIN_LIMIT)
    await finishSession(req, reply, config, database.db)
    return payload
  })
  // Compression of the server's own answers above 1 KB (docs/architecture.md, "First visit").
  if (!proxyMode) app.addHook('onSend', compressAnswer)

  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string; validation?: unknown }, req, reply) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v)
      const body = errorBody(req, err.statusCode, err.body)
      return reply.status(err.statusCode).send(body === undefined ? '' : body)
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      // Read (and discard) the rest of the body, up to a bound, before answering: a client still sending would
      // otherwise see its connection reset (EPIPE) instead of this answer.
      await drainBody(req, DRAIN_LIMIT)
      const isFile = /render-to-json|import/.test(req.url)
      if (isFile) {
        return reply.status(400).send({ detail: tr(req.ctx?.lang ?? 'en', 'The file content overflowed (The maximum length `{n}` bytes)', { n: FILE_LIMIT }), code: 'file_content_overflowed' })
      }
      return reply.status(413).send({ detail: tr(req.ctx?.lang ?? 'en', 'Request body is too large'), code: 'payload_too_large' })
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
      return reply.status(415).send({ detail: tr(req.ctx?.lang ?? 'en', 'Unsupported media type'), code: 'unsupported_media_type' })
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ detail: err.message, code: (err.code ?? 'bad_request').toLowerCase() })
    }
    logServerError(req, err)
    return reply.status(500).send({ detail: tr(req.ctx?.lang ?? 'en', 'Unexpect error occur'), code: 'unexpect_error' })
  })

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? ''
    if (isApiPath(path)) return reply.status(404).send({ detail: tr(req.ctx?.lang ?? 'en', 'Not found.'), code: 'not_found' })
    if (path === '/ui' || path.startsWith('/ui/')) return serveConsole(req, reply)
    return reply.status(404).type('text/plain').send('Not found')
  })

  if (!proxyMode) {
    app.get('/api/health/', async () => ({ status: 'ok', time: Date.now() }))
    app.get('/api/v1/health/', async () => ({ status: 'ok', time: Date.now() }))
  }
  app.get('/', async (_req, reply) => reply.redirect('/ui/'))
  app.get('/ui', async (_req, reply) => reply.redirect('/ui/'))

  // The built console and login page (vite build output), from memory (server/http/assets.ts).
  const dist = createAssetStore(config.distDir)
  const IMMUTABLE = 'public, max-age=31536000, immutable'

  async function serveHtml(req: FastifyRequest, reply: FastifyReply, file: string) {
    if (!proxyMode) await ensurePageSession(req, reply, config)
    return dist.serve(req, reply, file, { cacheControl: 'no-store', csp: contentSecurityPolicy })
      || reply.status(503).type('text/plain').send('The console is not built yet: run `npm run build` (npm start does it).')
  }
  async function serveConsole(req: FastifyRequest, reply: FastifyReply) {
    return serveHtml(req, reply, 'index.html')
  }
  app.decorate('serveLoginPage', (req: FastifyRequest, reply: FastifyReply) => serveHtml(req, reply, 'login.html'))

  if (!proxyMode) {
    // Default images (logo, favicon, avatars) of the settings' INTERFACE_* defaults; drawn by scripts/make-images.ts.
    const images = createAssetStore(join(import.meta.dirname, 'static', 'img'))
    app.get('/static/img/*', async (req, reply) => {
      const path = (req.params as { '*': string })['*']
      return images.serve(req, reply, path, { cacheControl: 'public, max-age=86400' }) || reply.status(404).type('text/plain').send('Not found')
    })
  }
  app.get('/ui/', serveConsole)
  app.get('/ui/*', async (req, reply) => {
    const path = (req.params as { '*': string })['*']
    if (path.startsWith('assets/') || /\.[a-z0-9]+$/i.test(path)) {
      // Hashed assets are kept for good; other files (the pages themselves are answered above) are revalidated.
      const served = !path.endsWith('.html') && dist.serve(req, reply, path, { cacheControl: path.startsWith('assets/') ? IMMUTABLE : 'no-cache' })
      return served || reply.status(404).type('text/plain').send('Not found')
    }
    return serveConsole(req, reply)
  })

  collectGetRoutes(app)
  await registerModules(app)
  addMissingOptions(app)
  void cookieNames
  return app
}

declare module 'fastify' {
  interface FastifyInstance {
    serveLoginPage: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>
  }
}
