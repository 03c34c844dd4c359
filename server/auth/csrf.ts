import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { cookieNames } from '../http/context.ts'
import { ApiError } from '../http/errors.ts'

/**
 * Login CSRF: the login endpoints have no logged-in user yet, so the generic rule (a CSRF failure makes the
 * request anonymous) protects nothing there. They require X-CSRFToken equal to the jms_csrftoken cookie
 * that the login page sets, else 403 — as Django's CsrfViewMiddleware does for its login form.
 */
export function requireLoginCsrf(req: FastifyRequest): void {
  const cookie = req.cookies[cookieNames(req.server.services.config).csrf]
  const header = req.headers['x-csrftoken']
  const ok = typeof header === 'string' && !!cookie && header.length > 0 &&
    Buffer.byteLength(header) === Buffer.byteLength(cookie) && timingSafeEqual(Buffer.from(header), Buffer.from(cookie))
  if (!ok) throw new ApiError(403, { detail: 'CSRF Failed: CSRF token missing or incorrect.', code: 'csrf_failed' })
}
