/**
 * The console is one page: `/ui/` and every client route under it answer index.html (files under `/ui/` are
 * answered as files); an unknown URL is a DRF-style 404 under the API, the console under `/ui`, else plain text.
 * The web terminal is one page too: `/luna/` and every path under it answer luna.html (its own entry of the build;
 * docs/terminal.md "Web terminal"), to a signed-in user — the login page first otherwise, back here after.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { tr } from '../../i18n.ts'
import { isApiPath } from '../context.ts'
import { appWide } from './plugin.ts'

export const spaFallback = appWide('spa-fallback', async (app) => {
  const serveConsole = (req: FastifyRequest, reply: FastifyReply) => app.consoleFiles.page(req, reply, 'index.html')

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? ''
    if (isApiPath(path)) return reply.status(404).send({ detail: tr(req.ctx?.lang ?? 'en', 'Not found.'), code: 'not_found' })
    if (path === '/ui' || path.startsWith('/ui/')) return serveConsole(req, reply)
    return reply.status(404).type('text/plain').send('Not found')
  })

  app.get('/', async (_req, reply) => reply.redirect('/ui/'))
  app.get('/ui', async (_req, reply) => reply.redirect('/ui/'))
  app.get('/ui/', serveConsole)
  app.get('/ui/*', async (req, reply) => {
    const path = (req.params as { '*': string })['*']
    if (path.startsWith('assets/') || /\.[a-z0-9]+$/i.test(path)) {
      return app.consoleFiles.asset(req, reply, path) || reply.status(404).type('text/plain').send('Not found')
    }
    return serveConsole(req, reply)
  })

  if (!app.services.config.jumpserverUrl) {
    const serveLuna = async (req: FastifyRequest, reply: FastifyReply) => {
      if (!req.ctx.user || req.ctx.authBy !== 'session') return reply.redirect(`/core/auth/login/?next=${encodeURIComponent(req.url)}`)
      return app.consoleFiles.page(req, reply, 'luna.html')
    }
    app.get('/luna', async (_req, reply) => reply.redirect('/luna/'))
    app.get('/luna/', serveLuna)
    app.get('/luna/*', serveLuna)
  }
})
