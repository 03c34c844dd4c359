/**
 * The mails the server sends: a new user's "account created" mail (the Email content settings: subject,
 * honorific, body, signature; with the link that sets the first password) and the administrator's "reset
 * password" link. Texts in the language of the request that caused them.
 */
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { allSettings } from '../settings/store.ts'
import { MAIL_MESSAGES } from './messages.ts'
import { escapeHtml, sendMail } from './sender.ts'

export interface MailUser { username: string; name: string; email: string }

const html = (text: string, link?: string) =>
  `<div style="font-family:sans-serif;white-space:pre-wrap">${escapeHtml(text).replace(escapeHtml(link ?? '\u0000'), `<a href="${escapeHtml(link ?? '')}">${escapeHtml(link ?? '')}</a>`)}</div>`

export async function sendResetMail(db: DB, config: ServerConfig, lang: Lang, user: MailUser, link: string): Promise<void> {
  const text = tr(lang, MAIL_MESSAGES.resetBody, { name: user.name || user.username, link })
  await sendMail(db, config, { to: user.email, subject: tr(lang, MAIL_MESSAGES.resetSubject), text, html: html(text, link) })
}

export async function sendUserCreatedMail(db: DB, config: ServerConfig, lang: Lang, user: MailUser, link?: string): Promise<void> {
  const s = await allSettings(db)
  const custom = (key: string, fallback: string) => String(s.get(key) ?? '').trim() || tr(lang, fallback)
  const lines = [
    `${custom('EMAIL_CUSTOM_USER_CREATED_HONORIFIC', MAIL_MESSAGES.createdHonorific)} ${user.name || user.username},`,
    '',
    custom('EMAIL_CUSTOM_USER_CREATED_BODY', MAIL_MESSAGES.createdBody),
    '',
    tr(lang, MAIL_MESSAGES.createdAccount, { username: user.username }),
  ]
  if (link) lines.push('', tr(lang, MAIL_MESSAGES.createdLink), link)
  const signature = String(s.get('EMAIL_CUSTOM_USER_CREATED_SIGNATURE') ?? '').trim()
  if (signature) lines.push('', signature)
  const text = lines.join('\n')
  await sendMail(db, config, { to: user.email, subject: custom('EMAIL_CUSTOM_USER_CREATED_SUBJECT', MAIL_MESSAGES.createdSubject), text, html: html(text, link) })
}
