import { createHash } from 'node:crypto'

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
