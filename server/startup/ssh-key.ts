import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'

/** OpenSSH public keys (`<type> <base64> [comment]`): validation, comment and MD5 fingerprint. */
const TYPES = new Set([
  'ssh-rsa', 'ssh-dss', 'ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com', 'sk-ecdsa-sha2-nistp256@openssh.com',
])

export interface SshPublicKey { type: string; blob: Buffer; comment: string }

export function parseSshPublicKey(text: unknown): SshPublicKey | undefined {
  if (typeof text !== 'string') return undefined
  const [type, b64, ...rest] = text.trim().split(/\s+/)
  if (!type || !b64 || !TYPES.has(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined
  const blob = Buffer.from(b64, 'base64')
  if (blob.length < 4) return undefined
  const len = blob.readUInt32BE(0)
  if (len + 4 > blob.length || blob.subarray(4, 4 + len).toString('latin1') !== type) return undefined
  return { type, blob, comment: rest.join(' ') }
}

/** `16:27:ac:…` as `ssh-keygen -E md5 -l` prints it. */
export function md5Fingerprint(blob: Buffer): string {
  return createHash('md5').update(blob).digest('hex').match(/../g)!.join(':')
}

/**
 * The active, unexpired user whose stored public key is `blob` (the key an SSH client offers, as ssh2 hands it to a
 * server's `authentication` handler): for the SSH gateway's public-key login (TERMINAL_PUBLIC_KEY_AUTH). One
 * indexed look-up (migration 050); the caller still verifies the client's signature with the key.
 */
export async function userByPublicKey(db: DB, blob: Buffer): Promise<{ id: string; username: string } | undefined> {
  const b64 = blob.toString('base64')
  const r = await sql<{ id: string; username: string }>`select id, username from users
    where public_key <> '' and split_part(public_key, ' ', 2) = ${b64} and is_active
      and (date_expired is null or date_expired > now())
    order by date_joined limit 1`.execute(db)
  return r.rows[0]
}

/** `SHA256:…` as `ssh-keygen -l` prints it. */
export function sha256Fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`
}
