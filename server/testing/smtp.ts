/**
 * A real SMTP server for tests (`smtp-server` on a free loopback port, started by the test): it accepts every
 * mail (optionally only with the given login) and keeps each one parsed enough to check — envelope, headers,
 * text — so a test reads what a user would receive.
 */
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  /** the raw message (headers and body, as sent) */
  raw: string
  subject: string
  /** the text/plain part, quoted-printable decoded */
  text: string
  /** the login used, if any */
  user?: string
}

export interface TestSmtp {
  host: string
  port: number
  mails: ReceivedMail[]
  /** Resolves with the next mail to `to` (or any), waiting up to `ms`. */
  next(to?: string, ms?: number): Promise<ReceivedMail>
  stop(): Promise<void>
}

function decodeQp(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

function decodeWords(s: string): string {
  return s.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQp(text.replace(/_/g, ' ')))
}

/** The text/plain part of a (possibly multipart) message. */
function textPart(raw: string): string {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/)
  for (const part of parts.length > 1 ? parts : [raw]) {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/)
    if (parts.length > 1 && !/content-type:\s*text\/plain/i.test(head)) continue
    const body = rest.join('\n\n')
    if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) return decodeQp(body)
    return body
  }
  return ''
}

/** The attachments of a received (multipart) message: the base64 parts with a file name. */
export function attachments(mail: ReceivedMail): Array<{ filename: string; content: Buffer; type: string }> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mail.raw)?.[1]
  if (!boundary) return []
  const out: Array<{ filename: string; content: Buffer; type: string }> = []
  for (const part of mail.raw.split(`--${boundary}`)) {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/)
    const filename = /filename="?([^";\r\n]+)"?/i.exec(head)?.[1]
    if (!filename) continue
    out.push({ filename, content: Buffer.from(rest.join('\n\n').replace(/\s+/g, ''), 'base64'), type: /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1] ?? '' })
  }
  return out
}

export async function startSmtp(opts: { user?: string; password?: string } = {}): Promise<TestSmtp> {
  const mails: ReceivedMail[] = []
  const waiters: Array<{ to?: string; resolve: (m: ReceivedMail) => void }> = []
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: !opts.user,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === opts.user && auth.password === opts.password) cb(null, { user: auth.username })
      else cb(new Error('Invalid username or password'))
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const header = raw.split(/\r?\n\r?\n/)[0] ?? ''
        const subjectLine = /^subject:\s*((?:.*)(?:\r?\n[ \t].*)*)/im.exec(header)?.[1] ?? ''
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: decodeWords(subjectLine.replace(/\r?\n[ \t]/g, ' ')).trim(),
          text: textPart(raw),
          user: typeof session.user === 'string' ? session.user : undefined,
        }
        mails.push(mail)
        for (const w of [...waiters]) {
          if (!w.to || mail.to.includes(w.to)) {
            waiters.splice(waiters.indexOf(w), 1)
            w.resolve(mail)
          }
        }
        cb()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as { port: number }).port
  return {
    host: '127.0.0.1',
    port,
    mails,
    next(to, ms = 10_000) {
      const seen = mails.find((m) => !to || m.to.includes(to))
      if (seen) {
        mails.splice(mails.indexOf(seen), 1)
        return Promise.resolve(seen)
      }
      return new Promise((resolve, reject) => {
        const w = { to, resolve: (m: ReceivedMail) => { clearTimeout(timer); mails.splice(mails.indexOf(m), 1); resolve(m) } }
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1)
          reject(new Error(`no mail${to ? ` to ${to}` : ''} within ${ms} ms`))
        }, ms)
        waiters.push(w)
      })
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
