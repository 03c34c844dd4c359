/**
 * HTTP-Signature authentication with an access key (contract §1.8; JumpServer's `SignatureAuthentication`, the
 * httpsig scheme): `Authorization: Signature keyId="<id>",algorithm="hmac-sha256",headers="(request-target) date",
 * signature="<base64 hmac-sha256>"`. The signed string is one line per named header, `name: value`, joined by
 * `\n`, where `(request-target)` is `<method lowercased> <path with query>`. The headers must name at least
 * `(request-target)` and `date`; the Date header must be within DATE_SKEW_SECONDS of our clock (JumpServer does
 * not check it; we do, so a captured request cannot be replayed later). Every failure gives the same answer.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { notAuthenticated } from '../http/errors.ts'
import { addMessages } from '../i18n.ts'
import type { Sealer } from './atrest.ts'

export const DATE_SKEW_SECONDS = 300
const REQUIRED = ['(request-target)', 'date']

addMessages({ 'Invalid signature.': ['签名无效。', '無効な署名です。'] })

export const invalidSignature = () => notAuthenticated('Invalid signature.', 'authentication_failed')

/** Parses `Signature k="v",…` into lowercased keys; undefined when malformed. */
export function parseSignatureHeader(value: string): Record<string, string> | undefined {
  const m = /^signature\s+(.+)$/is.exec(value.trim())
  if (!m) return undefined
  const out: Record<string, string> = {}
  const re = /\s*([A-Za-z]+)\s*=\s*"([^"]*)"\s*(,|$)/y
  const rest = m[1]!
  let pos = 0
  while (pos < rest.length) {
    re.lastIndex = pos
    const f = re.exec(rest)
    if (!f) return undefined
    out[f[1]!.toLowerCase()] = f[2]!
    pos = re.lastIndex
  }
  return out
}

export function signingString(method: string, url: string, headers: Record<string, string | string[] | undefined>, names: string[]): string | undefined {
  const lines: string[] = []
  for (const name of names) {
    if (name === '(request-target)') lines.push(`(request-target): ${method.toLowerCase()} ${url}`)
    else {
      const v = headers[name]
      if (typeof v !== 'string') return undefined
      lines.push(`${name}: ${v.trim()}`)
    }
  }
  return lines.join('\n')
}

export const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64')

/** The Authorization header a component sends (used by tests and the benchmark). */
export function signRequest(keyId: string, secret: string, method: string, url: string, date = new Date().toUTCString()): Record<string, string> {
  const text = signingString(method, url, { date }, REQUIRED)!
  return { date, authorization: `Signature keyId="${keyId}",algorithm="hmac-sha256",headers="${REQUIRED.join(' ')}",signature="${hmac(secret, text)}"` }
}

/**
 * Verifies a Signature authorization and answers the user id of the access key; throws 401 on any failure.
 * Returns undefined when the header is not a Signature one.
 */
export async function verifySignature(db: DB, sealer: Sealer, req: FastifyRequest, value: string, now = Date.now()): Promise<string> {
  const f = parseSignatureHeader(value)
  if (!f || !f.keyid || !f.signature || f.algorithm?.toLowerCase() !== 'hmac-sha256') throw invalidSignature()
  const names = (f.headers ?? 'date').toLowerCase().split(/\s+/).filter(Boolean)
  if (!REQUIRED.every((h) => names.includes(h)) || names.length > 16) throw invalidSignature()
  const date = Date.parse(String(req.headers.date ?? ''))
  if (!Number.isFinite(date) || Math.abs(now - date) > DATE_SKEW_SECONDS * 1000) throw invalidSignature()
  if (!/^[0-9a-f-]{36}$/i.test(f.keyid)) throw invalidSignature()
  const r = await sql<{ id: string; secret: string; user_id: string; date_last_used: Date | null }>`
    select id, secret, user_id, date_last_used from access_keys where id = ${f.keyid} and is_active`.execute(db)
  const key = r.rows[0]
  if (!key) throw invalidSignature()
  let secret: string
  try {
    secret = sealer.open(key.secret, `access_key:${key.id}`)
  } catch {
    throw invalidSignature()
  }
  const text = signingString(req.method, req.url, req.headers, names)
  if (text === undefined) throw invalidSignature()
  const want = Buffer.from(hmac(secret, text))
  const got = Buffer.from(f.signature)
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw invalidSignature()
  if (!key.date_last_used || now - key.date_last_used.getTime() > 60_000) {
    await sql`update access_keys set date_last_used = now() where id = ${key.id}`.execute(db)
  }
  return key.user_id
}

/** Creates an access key for a user: `{id, secret}` (the secret is shown once, stored sealed). */
export async function createAccessKey(db: DB, sealer: Sealer, userId: string): Promise<{ id: string; secret: string }> {
  const id = randomUUID()
  const secret = randomBytes(24).toString('base64url')
  await sql`insert into access_keys (id, secret, user_id) values (${id}, ${sealer.seal(secret, `access_key:${id}`)}, ${userId})`.execute(db)
  return { id, secret }
}
