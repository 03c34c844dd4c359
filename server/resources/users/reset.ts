/**
 * Password reset links (password strategy "email" and the admin's "reset password" action). JumpServer
 * mails the link; this server stores a one-time token (1 hour) and logs the link for the administrator.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../../db/connection.ts'
import { allSettings } from '../../settings/store.ts'

export const RESET_TOKEN_TTL_SECONDS = 3600

export async function createResetLink(db: DB, userId: string, req?: FastifyRequest): Promise<string> {
  const token = randomBytes(24).toString('base64url')
  await sql`insert into password_reset_tokens (token, user_id, expires_at)
    values (${token}, ${userId}, now() + make_interval(secs => ${RESET_TOKEN_TTL_SECONDS}))`.execute(db)
  const site = String((await allSettings(db)).get('SITE_URL') ?? '').replace(/\/+$/, '')
  const link = `${site}/core/auth/password/reset/?token=${token}`
  req?.log.info({ userId, link }, 'password reset link generated')
  return link
}
