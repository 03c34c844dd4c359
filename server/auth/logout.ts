import type { FastifyInstance } from 'fastify'
import { cookieNames } from '../http/context.ts'
import { isSafeNext } from './next.ts'

/**
 * `GET /core/auth/logout/[?next=]`: ends the session (row deleted, cookie cleared), clears the session mark and
 * redirects (302) to the login page, passing a same-site `next` on. `POST /vue-admin-template/user/logout` is a
 * leftover of the reference console's template: it answers `{}` and changes nothing.
 */
export function registerLogout(app: FastifyInstance): void {
  const names = cookieNames(app.services.config)
  app.get('/core/auth/logout/', async (req, reply) => {
    if (req.ctx.session) req.ctx.session.destroyed = true
    reply.clearCookie(names.sessionExpire, { path: '/' })
    const next = (req.query as Record<string, unknown> | undefined)?.next
    return reply.redirect(isSafeNext(next) ? `/core/auth/login/?next=${encodeURIComponent(next)}` : '/core/auth/login/', 302)
  })
  app.get('/core/auth/logout', async (req, reply) => {
    const q = req.url.indexOf('?')
    return reply.redirect(`/core/auth/logout/${q >= 0 ? req.url.slice(q) : ''}`)
  })
  app.post('/vue-admin-template/user/logout', async () => ({}))
}
