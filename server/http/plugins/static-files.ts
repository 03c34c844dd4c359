/**
 * Files: the built console and login page (vite's output, held in memory by server/http/assets.ts) and the
 * default images. Decorates `app.consoleFiles` (an asset of the build, a page of it) and `app.serveLoginPage`.
 */
import { join } from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { createAssetStore } from '../assets.ts'
import { ensurePageSession } from '../pages.ts'
import { contentSecurityPolicy } from './edge.ts'
import { appWide } from './plugin.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'

export interface ConsoleFiles {
  /** A file of the build (`assets/…` kept for good, others revalidated); false when there is none. */
  asset(req: FastifyRequest, reply: FastifyReply, path: string): FastifyReply | false
  /** A page of the build (`index.html`, `login.html`), with a page session; 503 while the console is not built. */
  page(req: FastifyRequest, reply: FastifyReply, file: string): Promise<unknown>
}

declare module 'fastify' {
  interface FastifyInstance {
    consoleFiles: ConsoleFiles
    serveLoginPage: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>
  }
}

export const staticFiles = appWide('static-files', async (app) => {
  const { config } = app.services
  const proxyMode = !!config.jumpserverUrl
  const dist = createAssetStore(config.distDir)
  const files: ConsoleFiles = {
    asset: (req, reply, path) =>
      // Hashed assets are kept for good; other files (the pages themselves are answered as pages) are revalidated.
      !path.endsWith('.html') && dist.serve(req, reply, path, { cacheControl: path.startsWith('assets/') ? IMMUTABLE : 'no-cache' }),
    async page(req, reply, file) {
      if (!proxyMode) await ensurePageSession(req, reply, config)
      return dist.serve(req, reply, file, { cacheControl: 'no-store', csp: contentSecurityPolicy })
        || reply.status(503).type('text/plain').send('The console is not built yet: run `npm run build` (npm start does it).')
    },
  }
  app.decorate('consoleFiles', files)
  app.decorate('serveLoginPage', (req: FastifyRequest, reply: FastifyReply) => files.page(req, reply, 'login.html'))

  if (!proxyMode) {
    // Default images (logo, favicon, avatars) of the settings' INTERFACE_* defaults; drawn by scripts/make-images.ts.
    const images = createAssetStore(join(import.meta.dirname, '..', '..', 'static', 'img'))
    app.get('/static/img/*', async (req, reply) => {
      const path = (req.params as { '*': string })['*']
      return images.serve(req, reply, path, { cacheControl: 'public, max-age=86400' }) || reply.status(404).type('text/plain').send('Not found')
    })
  }
})
