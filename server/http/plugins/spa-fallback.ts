/**
 * The console is one page: `/ui/` and every client route under it answer index.html (files under `/ui/` are
 * answered as files); an unknown URL is a DRF-style 404 under the API, the console under `/ui`, else plain text.
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
})
