/**
 * Secrets of accounts, account templates and automations: their fields (write-only, hybrid-encrypted on the wire,
 * never serialized, masked in operate logs), validation (a key must be a key, a passphrase only goes with a key),
 * and sealing at rest (server/auth/atrest.ts) bound to table, row and field, so a sealed value copied to another
 * row or field does not open.
 */
import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { createSealer, type Sealer } from '../../auth/atrest.ts'
import type { Database, DB } from '../../db/connection.ts'
import type { Ctx, FieldDef, WriteInfo } from '../../engine/types.ts'
import type { Values } from '../../http/body.ts'
import { addMessages, tr } from '../../i18n.ts'

addMessages({
  'Secret type': ['密文类型', 'シークレットタイプ'],
  'Secret': ['密文', 'シークレット'],
  'Passphrase': ['密钥密码', 'パスフレーズ'],
  'Has secret': ['已托管密码', 'シークレットあり'],
  'Privileged': ['特权账号', '特権アカウント'],
  'Username': ['用户名', 'ユーザー名'],
  'Password': ['密码', 'パスワード'],
  'SSH key': ['SSH 密钥', 'SSH キー'],
  'Access key': ['Access key', 'アクセスキー'],
  'Token': ['令牌', 'トークン'],
  'API key': ['API 密钥', 'API キー'],
  'This is not a private key (PEM or OpenSSH), or the passphrase does not open it.': ['这不是私钥（PEM 或 OpenSSH），或密钥密码无法解开它。', '秘密鍵 (PEM または OpenSSH) ではないか、パスフレーズで開けません。'],
  'A passphrase only goes with an SSH key.': ['只有 SSH 密钥才能设置密钥密码。', 'パスフレーズは SSH キーにのみ指定できます。'],
})

export const SECRET_TYPES = [
  { value: 'password', label: 'Password' },
  { value: 'ssh_key', label: 'SSH key' },
  { value: 'access_key', label: 'Access key' },
  { value: 'token', label: 'Token' },
  { value: 'api_key', label: 'API key' },
]

/** The secret fields every account-like resource shares (JumpServer's BaseAccountSerializer). */
export const secretFields = (): FieldDef[] => [
  { name: 'secret_type', type: 'labeled_choice', label: 'Secret type', choices: SECRET_TYPES, default: 'password' },
  { name: 'secret', type: 'string', label: 'Secret', write_only: true, encrypted: true, secret: true, column: false, allow_blank: true, allow_null: true, max_length: 16384 },
  { name: 'passphrase', type: 'string', label: 'Passphrase', write_only: true, encrypted: true, secret: true, column: false, allow_blank: true, allow_null: true, max_length: 512 },
  { name: 'has_secret', type: 'boolean', label: 'Has secret', read_only: true, expr: `(t.secret <> '')` },
]

// ------------------------------------------------------------------------------------------------ keys

const OPENSSH_MAGIC = Buffer.from('openssh-key-v1\0', 'latin1')

/** Is `text` a private key that `passphrase` opens? PEM (PKCS#1/#8, EC) through node:crypto; OpenSSH's own format by its structure. */
export function isPrivateKey(text: string, passphrase = ''): boolean {
  const t = text.trim()
  const m = /^-----BEGIN OPENSSH PRIVATE KEY-----\s+([A-Za-z0-9+/=\s]+)-----END OPENSSH PRIVATE KEY-----$/.exec(t)
  if (m) {
    const body = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')
    if (!body.subarray(0, OPENSSH_MAGIC.length).equals(OPENSSH_MAGIC)) return false
    // cipher name: "none" for an unencrypted key, which must then have no passphrase given… or any (ignored)
    const len = body.readUInt32BE(OPENSSH_MAGIC.length)
    const cipher = body.subarray(OPENSSH_MAGIC.length + 4, OPENSSH_MAGIC.length + 4 + len).toString('latin1')
    return cipher === 'none' || passphrase !== ''
  }
  try {
    createPrivateKey({ key: t, format: 'pem', passphrase })
    return true
  } catch {
    return false
  }
}

/** The OpenSSH public key line of a PEM private key ('' when node:crypto cannot read it). */
export function publicKeyOf(privateKey: string, passphrase = ''): string {
  try {
    const pub = createPublicKey(createPrivateKey({ key: privateKey.trim(), format: 'pem', passphrase }))
    return String(pub.export({ format: 'jwk' }).kty) === 'RSA' ? rsaLine(pub.export({ format: 'jwk' }) as { n: string; e: string }) : ''
  } catch {
    return ''
  }
}

function rsaLine(jwk: { n: string; e: string }): string {
  const mp = (b64u: string) => {
    let b = Buffer.from(b64u, 'base64url')
    if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b])
    return b
  }
  const str = (b: Buffer) => { const l = Buffer.alloc(4); l.writeUInt32BE(b.length); return Buffer.concat([l, b]) }
  const blob = Buffer.concat([str(Buffer.from('ssh-rsa')), str(mp(jwk.e)), str(mp(jwk.n))])
  return `ssh-rsa ${blob.toString('base64')}`
}

/** Cross-field checks of secret_type, secret and passphrase (on create, and on update against the stored type). */
export function secretErrors(values: Values, ctx: Ctx, existing?: { secret_type: string }): Record<string, string[]> | undefined {
  const type = String(values.secret_type ?? existing?.secret_type ?? 'password')
  const errors: Record<string, string[]> = {}
  if (values.passphrase && type !== 'ssh_key') errors.passphrase = [tr(ctx.lang, 'A passphrase only goes with an SSH key.')]
  if (type === 'ssh_key' && typeof values.secret === 'string' && values.secret !== '' && !isPrivateKey(values.secret, String(values.passphrase ?? ''))) {
    errors.secret = [tr(ctx.lang, 'This is not a private key (PEM or OpenSSH), or the passphrase does not open it.')]
  }
  return Object.keys(errors).length ? errors : undefined
}

// ---------------------------------------------------------------------------------------------- sealing

const sealers = new WeakMap<object, Sealer>()

/** Called once per app: the sealer of this database's secrets under the app's SECRET_KEY (found by the database or its Kysely handle). */
export function installAccountSealer(app: FastifyInstance): void {
  const s = createSealer(app.services.config.secretKey)
  sealers.set(app.services.database, s)
  sealers.set(app.services.database.db, s)
}

export function sealerOf(database: Database | DB): Sealer {
  const s = sealers.get(database)
  if (!s) throw new Error('accounts: no sealer installed for this database')
  return s
}

const context = (table: string, id: string, field: string) => `accounts.${table}:${id}:${field}`

export function sealSecret(database: Database | DB, table: string, id: string, field: string, plain: string): string {
  return plain ? sealerOf(database).seal(plain, context(table, id, field)) : ''
}

/** The plain secret; '' when none is stored (a value that does not open throws: it is never silently lost). */
export function openSecret(database: Database | DB, table: string, id: string, field: string, sealed: string | null | undefined): string {
  return sealed ? sealerOf(database).open(sealed, context(table, id, field)) : ''
}

/**
 * `hooks.columns` of a resource with secretFields(): the row id (fixed on create, so the seal can be bound to it)
 * and the sealed secret and passphrase that the write sets.
 */
export function sealedColumns(table: string, values: Values, info: WriteInfo<{ id: unknown }>, fields: readonly string[] = ['secret', 'passphrase']): Record<string, unknown> {
  const database = info.req!.server.services.database
  const out: Record<string, unknown> = {}
  const id = info.existing ? String(info.existing.id) : randomUUID()
  if (!info.existing) out.id = id
  for (const f of fields) {
    if (values[f] !== undefined) out[f] = sealSecret(database, table, id, f, values[f] ? String(values[f]) : '')
  }
  return out
}
