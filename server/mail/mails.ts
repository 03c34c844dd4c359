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
import { MM } from './messages.ts'
import { escapeHtml, sendMail } from './sender.ts'

export interface MailUser { username: string; name: string; email: string }

const html = (text: string, link?: string) =>
  `<div style="font-family:sans-serif;white-space:pre-wrap">${escapeHtml(text).replace(escapeHtml(link ?? '\u0000'), `<a href="${escapeHtml(link ?? '')}">${escapeHtml(link ?? '')}</a>`)}</div>`

export async function sendResetMail(db: DB, config: ServerConfig, lang: Lang, user: MailUser, link: string): Promise<void> {
  const text = tr(lang, MM.resetBody, { name: user.name || user.username, link })
  await sendMail(db, config, { to: user.email, subject: tr(lang, MM.resetSubject), text, html: html(text, link) })
}

export async function sendUserCreatedMail(db: DB, config: ServerConfig, lang: Lang, user: MailUser, link?: string): Promise<void> {
  const s = await allSettings(db)
  const custom = (key: string, fallback: string) => String(s.get(key) ?? '').trim() || tr(lang, fallback)
  const lines = [
    `${custom('EMAIL_CUSTOM_USER_CREATED_HONORIFIC', MM.createdHonorific)} ${user.name || user.username},`,
    '',
    custom('EMAIL_CUSTOM_USER_CREATED_BODY', MM.createdBody),
    '',
    tr(lang, MM.createdAccount, { username: user.username }),
  ]
  if (link) lines.push('', tr(lang, MM.createdLink), link)
  const signature = String(s.get('EMAIL_CUSTOM_USER_CREATED_SIGNATURE') ?? '').trim()
  if (signature) lines.push('', signature)
  const text = lines.join('\n')
  await sendMail(db, config, { to: user.email, subject: custom('EMAIL_CUSTOM_USER_CREATED_SUBJECT', MM.createdSubject), text, html: html(text, link) })
}
