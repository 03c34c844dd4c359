import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import { generateSessionKeyPair } from '../auth/secret.ts'
import { cookieNames } from './context.ts'
import { newSession, saveSession, touchSession } from './session.ts'

const raw = (v: string) => v

/**
 * Non-API (page) responses: make sure the visitor has a session holding an RSA key pair, and publish the
 * public key, the CSRF token and the cookie-name prefix as cookies (contract §1.7, §6).
 */
export async function ensurePageSession(req: FastifyRequest, reply: FastifyReply, cfg: ServerConfig): Promise<void> {
  const names = cookieNames(cfg)
  if (!req.ctx.session) req.ctx.session = newSession()
  const s = req.ctx.session
  if (!s.data.privateKey || !s.data.publicKeyCookie) {
    const kp = await generateSessionKeyPair(cfg.rsaBits)
    s.data.privateKey = kp.privateKeyPem
    s.data.publicKeyCookie = kp.publicKeyCookie
    s.dirty = true
  }
  const secure = req.protocol === 'https'
  if (req.cookies[names.publicKey] !== s.data.publicKeyCookie) {
    reply.setCookie(names.publicKey, s.data.publicKeyCookie!, { path: '/', sameSite: 'lax', secure, encode: raw })
  }
  if (!req.cookies[names.csrf]) {
    reply.setCookie(names.csrf, randomBytes(24).toString('base64url'), { path: '/', sameSite: 'lax', secure, maxAge: 31_449_600, encode: raw })
  }
  if (req.cookies[names.prefix] !== cfg.sessionCookiePrefix) {
    reply.setCookie(names.prefix, cfg.sessionCookiePrefix, { path: '/', sameSite: 'lax', secure, encode: raw })
  }
}

/** Persists the session at the end of a request and (re)issues its cookie. */
export async function finishSession(req: FastifyRequest, reply: FastifyReply, cfg: ServerConfig, db: DB): Promise<void> {
  const s = req.ctx?.session
  if (!s) return
  const names = cookieNames(cfg)
  if (s.destroyed) {
    if (!s.isNew) await saveSession(db, s, cfg.sessionAge)
    reply.clearCookie(names.session, { path: '/' })
    return
  }
  if (s.dirty) {
    const wasNew = s.isNew
    await saveSession(db, s, cfg.sessionAge)
    if (wasNew) {
      reply.setCookie(names.session, s.id, {
        path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https', encode: raw,
        ...(cfg.sessionExpireAtBrowserClose ? {} : { maxAge: cfg.sessionAge }),
      })
    }
  } else if (s.data.userId && req.method === 'GET' && req.url.startsWith('/api/v1/users/profile/')) {
    // The console reads the profile 30 s after activity to slide the session's age (contract §1.7).
    await touchSession(db, s, cfg.sessionAge)
  }
}
