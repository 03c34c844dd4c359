import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyCookie from '@fastify/cookie'
import fastifyMultipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import fastifyWebsocket from '@fastify/websocket'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { ServerConfig } from './config.ts'
import type { Database } from './db/connection.ts'
import { tr } from './i18n.ts'
import { buildContext, cookieNames, isApiPath } from './http/context.ts'
import { ApiError } from './http/errors.ts'
import { compressAnswer } from './http/compress.ts'
import { ensurePageSession, finishSession } from './http/pages.ts'
import { registerModules } from './modules.ts'

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
  }
}

const FILE_LIMIT = 10 * 1024 * 1024

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
    trustProxy: true,
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: false },
  })
  app.decorate('services', { config, database })

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
    // In proxy mode the real JumpServer owns sessions, auth and organizations.
    if (proxyMode) return
    req.ctx = await buildContext(req, database.db, config)
  })
  app.addHook('onSend', async (req, reply, payload) => {
    await finishSession(req, reply, config, database.db)
    return payload
  })
  // Compression of the server's own answers above 1 KB (docs/architecture.md, "First visit").
  if (!proxyMode) app.addHook('onSend', compressAnswer)

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string; validation?: unknown }, req, reply) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v)
      const body = errorBody(req, err.statusCode, err.body)
      return reply.status(err.statusCode).send(body === undefined ? '' : body)
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      const isFile = /render-to-json|import/.test(req.url)
      if (isFile) {
        return reply.status(400).send({ detail: `The file content overflowed (The maximum length \`${FILE_LIMIT}\` bytes)`, code: 'file_content_overflowed' })
      }
      return reply.status(413).send({ detail: tr(req.ctx?.lang ?? 'en', 'Request body is too large'), code: 'payload_too_large' })
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
      return reply.status(415).send({ detail: tr(req.ctx?.lang ?? 'en', 'Unsupported media type'), code: 'unsupported_media_type' })
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ detail: err.message, code: (err.code ?? 'bad_request').toLowerCase() })
    }
    req.log.error({ err }, 'unhandled error')
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

  // The built console and login page (vite build output).
  const distDir = config.distDir
  const indexFile = join(distDir, 'index.html')
  const loginFile = join(distDir, 'login.html')
  const readHtml = (file: string): string | undefined => (existsSync(file) ? readFileSync(file, 'utf8') : undefined)

  async function serveHtml(req: FastifyRequest, reply: FastifyReply, file: string) {
    if (!proxyMode) await ensurePageSession(req, reply, config)
    const html = readHtml(file)
    if (!html) {
      return reply.status(503).type('text/plain').send('The console is not built yet: run `npm run build` (npm start does it).')
    }
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html)
  }
  async function serveConsole(req: FastifyRequest, reply: FastifyReply) {
    return serveHtml(req, reply, indexFile)
  }
  app.decorate('serveLoginPage', (req: FastifyRequest, reply: FastifyReply) => serveHtml(req, reply, loginFile))

  if (existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/ui/',
      wildcard: false,
      index: false,
      serve: true,
      cacheControl: false,
      // dist/ holds brotli and gzip copies made at build time (scripts/vite-plugins.ts): sent by Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, path) => {
        if (path.includes(join(distDir, 'assets'))) res.header('Cache-Control', 'public, max-age=31536000, immutable')
      },
    })
  }
  if (!proxyMode) {
    // Default images (logo, favicon, avatars) of the settings' INTERFACE_* defaults; drawn by scripts/make-images.ts.
    await app.register(fastifyStatic, {
      root: join(import.meta.dirname, 'static', 'img'),
      prefix: '/static/img/',
      decorateReply: false,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: (reply) => reply.header('Cache-Control', 'public, max-age=86400'),
    })
  }
  app.get('/ui/', serveConsole)
  app.get('/ui/*', async (req, reply) => {
    const path = (req.params as { '*': string })['*']
    if (path.startsWith('assets/') || /\.[a-z0-9]+$/i.test(path)) {
      const file = join(distDir, path)
      if (existsSync(file) && file.startsWith(distDir)) return reply.sendFile(path)
      return reply.status(404).type('text/plain').send('Not found')
    }
    return serveConsole(req, reply)
  })

  await registerModules(app)
  void cookieNames
  return app
}

declare module 'fastify' {
  interface FastifyInstance {
    serveLoginPage: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>
  }
}
