/**
 * Login confirm (JumpServer's `login_confirm`): a web login whose login ACL says review opens a ticket for the
 * ACL's reviewers and waits. The login page polls `GET /api/v1/authentication/login-confirm-ticket/status/`:
 * pending → 200 `{state: 'pending', reviewers, ticket_id}`; approved → the login completes (or goes on to the
 * second factor) `{ok, next}`; rejected or closed → 400 with the reason (the wait ends); `DELETE` cancels.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { completeWebLogin } from '../auth/complete.ts'
import { mfaMethods } from '../auth/login.ts'
import { findLoginUser, type LoginUser } from '../auth/authenticate.ts'
import { ApiError } from '../http/errors.ts'
import type { Session } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { openSystemTicket, systemClose } from './gate.ts'
import './messages.ts'

/** A wait older than this is over (JumpServer's ticket stays; the login must start again). */
export const LOGIN_CONFIRM_MS = 30 * 60_000

interface Pending { userId: string; ticketId: string; at: number; next: string }

function setKey(session: Session, key: string, value: unknown) {
  if (value === undefined) delete session.data[key]
  else session.data[key] = value
  session.changed.add(key)
  session.dirty = true
}

async function reviewerNames(req: FastifyRequest, ticketId: string): Promise<string[]> {
  return (await sql<{ name: string }>`select u.name from ticket_assignees a join users u on u.id = a.user_id where a.ticket_id = ${ticketId} order by u.name`.execute(req.ctx.db)).rows.map((r) => r.name)
}

export async function startLoginConfirm(req: FastifyRequest, user: LoginUser, reviewerIds: string[], next: string) {
  const session = req.ctx.session!
  const ticketId = await openSystemTicket(req.server.services, {
    type: 'login_confirm', orgId: ORG_IDS.ROOT, userId: user.id, reviewerIds,
    columns: { apply_login_ip: req.ip.slice(0, 64), apply_login_city: '', apply_login_datetime: new Date() },
  }, req.log)
  if (session.data.userId !== undefined) setKey(session, 'userId', undefined)
  setKey(session, 'loginConfirm', { userId: user.id, ticketId, at: Date.now(), next } satisfies Pending)
  const reviewers = await reviewerNames(req, ticketId)
  return { confirm_required: true, ticket_id: ticketId, reviewers, msg: tr(req.ctx.lang, 'Login needs a reviewer\'s approval: waiting for {reviewers}', { reviewers: reviewers.join(', ') }) }
}

function pendingOf(req: FastifyRequest): Pending | undefined {
  const p = req.ctx.session?.data.loginConfirm as Pending | undefined
  if (!p || typeof p.ticketId !== 'string' || Date.now() - p.at > LOGIN_CONFIRM_MS) return undefined
  return p
}

async function status(req: FastifyRequest, reply: FastifyReply) {
  const lang = req.ctx.lang
  const p = pendingOf(req)
  if (!p) throw new ApiError(404, { error: tr(lang, 'No login is waiting for approval'), code: 'login_confirm_none' })
  const t = (await sql<{ state: string; status: string; updated_by: string }>`select state, status, updated_by from tickets where id = ${p.ticketId}`.execute(req.ctx.db)).rows[0]
  if (t && t.status === 'open') return { state: 'pending', ticket_id: p.ticketId, reviewers: await reviewerNames(req, p.ticketId) }
  const session = req.ctx.session!
  setKey(session, 'loginConfirm', undefined)
  if (!t || t.state !== 'approved') {
    const rejected = t?.state === 'rejected'
    throw new ApiError(400, {
      error: tr(lang, rejected ? 'The reviewer rejected the login' : 'The login request was closed'),
      code: rejected ? 'login_confirm_rejected' : 'login_confirm_closed', processor: t?.updated_by ?? '',
    })
  }
  const user = await findLoginUser(req, { id: p.userId })
  if (!user || !user.is_active) throw new ApiError(400, { error: tr(lang, 'The login request was closed'), code: 'login_confirm_closed' })
  if (user.otp_secret) {
    setKey(session, 'mfaPending', { userId: user.id, at: Date.now(), next: p.next })
    return { mfa_required: true, methods: await mfaMethods(req, user) }
  }
  await completeWebLogin(req, reply, user, 0)
  return { ok: true, next: p.next }
}

async function cancel(req: FastifyRequest, reply: FastifyReply) {
  const p = pendingOf(req)
  if (p) {
    await systemClose(req.server.services, p.ticketId, (await sql<{ d: string }>`select name || '(' || username || ')' as d from users where id = ${p.userId}`.execute(req.ctx.db)).rows[0]?.d ?? 'System')
    setKey(req.ctx.session!, 'loginConfirm', undefined)
  }
  return reply.status(204).send()
}

export function registerLoginConfirm(app: FastifyInstance): void {
  app.get('/api/v1/authentication/login-confirm-ticket/status/', status)
  app.delete('/api/v1/authentication/login-confirm-ticket/status/', cancel)
}
