/**
 * `POST /api/v1/settings/mail/testing/` (contract §4.17, `settings.change_email` at system scope): sends a test
 * mail through the saved mail server to EMAIL_RECIPIENT of the body, else of the settings, else to the caller's own
 * address; EMAIL_FROM of the body replaces the sender. 200 `{msg}` or 400 `{error}` with the mail server's reason.
 * Also registers the reset-password page and API (password-reset.ts).
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { requirePerm, requireUser } from '../http/context.ts'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { allSettings } from '../settings/store.ts'
import { MAIL_MESSAGES } from './messages.ts'
import { registerPasswordReset } from './password-reset.ts'
import { MailError, mailConfigured, sendMail } from './sender.ts'

const text = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 256) : '')

export function registerMail(app: FastifyInstance): void {
  app.post('/api/v1/settings/mail/testing/', async (req) => {
    const user = requireUser(req)
    await requirePerm(req, 'settings.change_email', ORG_IDS.ROOT)
    const body = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>
    const db = req.ctx.db
    if (!(await mailConfigured(db))) throw new ApiError(400, { error: tr(req.ctx.lang, MAIL_MESSAGES.notConfigured) })
    const own = (await sql<{ email: string }>`select email from users where id = ${user.id}`.execute(db)).rows[0]?.email ?? ''
    const to = text(body.EMAIL_RECIPIENT) || String((await allSettings(db)).get('EMAIL_RECIPIENT') ?? '').trim() || own
    if (!to) throw new ApiError(400, { error: tr(req.ctx.lang, MAIL_MESSAGES.testNoRecipient) })
    try {
      await sendMail(db, app.services.config, { to, subject: tr(req.ctx.lang, MAIL_MESSAGES.testSubject), text: tr(req.ctx.lang, MAIL_MESSAGES.testBody) }, { from: text(body.EMAIL_FROM) })
    } catch (e) {
      if (e instanceof MailError) throw new ApiError(400, { error: tr(req.ctx.lang, MAIL_MESSAGES.sendFailed, { reason: e.message }) })
      throw e
    }
    return { msg: tr(req.ctx.lang, MAIL_MESSAGES.testSent, { to }) }
  })
  registerPasswordReset(app)
}
