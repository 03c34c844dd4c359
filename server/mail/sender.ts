/**
 * Sends mail through the SMTP server of the Email settings (EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, the sealed
 * EMAIL_HOST_PASSWORD, EMAIL_USE_SSL / EMAIL_USE_TLS, EMAIL_FROM, EMAIL_SUBJECT_PREFIX) with nodemailer. The
 * settings are read at each send, so a changed mail server takes the next mail. Unconfigured (no EMAIL_HOST):
 * `mailConfigured` is false and `sendMail` refuses.
 */
import nodemailer from 'nodemailer'
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import { allSettings, getSecretSetting } from '../settings/store.ts'

export interface Mail {
  to: string | string[]
  /** without the prefix: EMAIL_SUBJECT_PREFIX is put in front */
  subject: string
  text: string
  html?: string
  /** files attached to the mail (e.g. an account backup archive) */
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>
}

/** Connection and greeting limits (ms): a dead mail server fails the send instead of hanging the request. */
const TIMEOUT_MS = 10_000

export class MailError extends Error {}

export async function mailConfigured(db: DB): Promise<boolean> {
  return String((await allSettings(db)).get('EMAIL_HOST') ?? '').trim() !== ''
}

/** The transport and sender from the current settings. */
async function transportOf(db: DB, config: ServerConfig) {
  const s = await allSettings(db)
  const host = String(s.get('EMAIL_HOST') ?? '').trim()
  if (!host) throw new MailError('No mail server is configured')
  const port = Number(String(s.get('EMAIL_PORT') ?? '25').trim() || '25')
  const user = String(s.get('EMAIL_HOST_USER') ?? '').trim()
  const pass = await getSecretSetting(db, config, 'EMAIL_HOST_PASSWORD')
  const ssl = s.get('EMAIL_USE_SSL') === true
  const tls = s.get('EMAIL_USE_TLS') === true
  const transport = nodemailer.createTransport({
    host,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 25,
    // SSL: TLS from the first byte (465); TLS: STARTTLS required (587); neither: STARTTLS only when offered.
    secure: ssl,
    requireTLS: tls && !ssl,
    ignoreTLS: !tls && !ssl,
    auth: user ? { user, pass } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS * 3,
  })
  const from = String(s.get('EMAIL_FROM') ?? '').trim() || user || `noreply@${host}`
  const prefix = String(s.get('EMAIL_SUBJECT_PREFIX') ?? '')
  return { transport, from, prefix }
}

/** Sends one mail; a failure of the mail server throws a MailError with its reason. */
export async function sendMail(db: DB, config: ServerConfig, mail: Mail, opts: { from?: string } = {}): Promise<void> {
  const { transport, from, prefix } = await transportOf(db, config)
  try {
    await transport.sendMail({
      from: opts.from?.trim() || from,
      to: mail.to,
      // the settings trim the prefix ("[JMS] " is stored "[JMS]"): a space separates it from the subject
      subject: prefix && !/\s$/.test(prefix) ? `${prefix} ${mail.subject}` : `${prefix}${mail.subject}`,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments,
    })
  } catch (e) {
    throw new MailError(e instanceof Error ? e.message : String(e))
  } finally {
    transport.close()
  }
}

/** Escapes text for the HTML part of a mail. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
