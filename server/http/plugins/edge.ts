/**
 * The request edge, on every request: NUL bytes refused, the request context built (session, user, organization,
 * language; server/http/context.ts), and on every answer the security headers, the draining of an unread body, the
 * session saved and the answer compressed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors.ts'
import { buildContext } from '../context.ts'
import { identityReader } from '../identity.ts'
import { compressAnswer } from '../compress.ts'
import { finishSession } from '../pages.ts'
import { DRAIN_LIMIT, drainBody, hasUnreadBody } from './body-parsers.ts'
import { appWide } from './plugin.ts'

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
export function contentSecurityPolicy(scriptHashes: string[] = []): string {
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

export const requestEdge = appWide('request-edge', async (app) => {
  const { config, database } = app.services
  app.decorateRequest('ctx', null as never)
  const proxyMode = !!config.jumpserverUrl
  // Sessions, users, bindings: read once per request (kept between requests only beside PGlite; identity.ts).
  const identities = proxyMode ? undefined : await identityReader(database)
  app.addHook('onRequest', async (req) => {
    rejectNulBytes(req)
    // In proxy mode the real JumpServer owns sessions, auth and organizations.
    if (proxyMode || PUBLIC_FILE.test(req.url)) return
    req.ctx = await buildContext(req, database.db, config, identities)
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
})
