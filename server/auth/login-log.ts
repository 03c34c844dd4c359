import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { normalizeIp } from './ip-match.ts'

/** `mfa` column: 0 not enabled, 1 enabled, 2 unknown (e.g. no such user). */
export type MfaFlag = 0 | 1 | 2

export interface LoginLogEntry {
  username: string
  /** W web login, T token (API / terminal components). */
  type: 'W' | 'T'
  mfa: MfaFlag
  status: boolean
  /** English reason text (messages.ts `reason*`), translated by whoever displays it; '' on success. */
  reason?: string
  backend?: string
}

/** One row of login_logs per login attempt outcome (contract §5.5 "login logs"). */
export async function writeLoginLog(req: FastifyRequest, e: LoginLogEntry): Promise<void> {
  const ua = typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : ''
  await sql`insert into login_logs (id, username, type, ip, city, user_agent, mfa, reason, backend, status)
    values (${randomUUID()}, ${e.username.slice(0, 128)}, ${e.type}, ${normalizeIp(req.ip).slice(0, 128)}, '',
            ${ua.slice(0, 254)}, ${e.mfa}, ${(e.reason ?? '').slice(0, 128)}, ${e.backend ?? 'password'}, ${e.status})`.execute(req.ctx.db)
}
