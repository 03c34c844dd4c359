/**
 * What the account automations do on a POSIX host over SSH (server/automation/ssh.ts): create an OS account
 * (password or authorized key, sudo rules), set a password or key, list the host's accounts, verify a login.
 * Commands run as the asset's privileged account; when it is not root they go through `sudo` (without a password
 * when the host allows it, else with the account's password on standard input). Secrets only ever travel on
 * standard input, never on a command line (other users of the host can read command lines).
 */
import { generateKeyPairSync, randomInt } from 'node:crypto'
import { sql } from 'kysely'
import ssh2 from 'ssh2'
import { SshError, withSsh, type SshSession, type SshTarget } from '../../automation/ssh.ts'
import { credentialTarget, reachOf, type Credential } from '../../ssh/target.ts'
import type { DB, RowOf } from '../../db/connection.ts'
import { jsonObject, type Values } from '../../http/body.ts'
import { DEFAULT_SYMBOLS } from './automations.ts'

export type { Credential }
export interface HostAsset {
  id: string
  name: string
  address: string
  port: number
  platformAutomation: Values
  /** The gateway of the asset's domain that every login to the asset goes through (an SSH forward). */
  gateway?: SshTarget & { name: string }
  /** Why the asset cannot be reached: its domain's gateway has no account to log in with. */
  gatewayError?: string
}

export const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
const USERNAME = /^[a-z_][a-z0-9_.-]{0,31}\$?$/i

export class HostOpError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HostOpError'
  }
}

/**
 * The asset with its SSH port, its platform's automation settings and, when it is in a domain, the gateway to go
 * through — the one SSH-target resolver's answer (server/ssh/target.ts).
 */
export async function loadHostAsset(db: DB, assetId: string): Promise<HostAsset | undefined> {
  const reach = await reachOf(db, assetId)
  if (!reach) return undefined
  const p = (await sql<Pick<RowOf<'platforms'>, 'automation'>>`select p.automation from assets a join platforms p on p.id = a.platform_id where a.id = ${assetId}`.execute(db)).rows[0]
  const a = reach.asset
  const asset: HostAsset = { id: a.id, name: a.name, address: a.address, port: reach.port, platformAutomation: jsonObject(p?.automation) ?? {} }
  if (reach.gatewayError) asset.gatewayError = reach.gatewayError
  if (reach.gateway) {
    const { assetId: _, ...gateway } = reach.gateway
    asset.gateway = gateway
  }
  return asset
}

export function sshTarget(asset: HostAsset, cred: Credential): SshTarget {
  return credentialTarget(asset.address, asset.port, cred)
}

/** Logs in with the credential and logs out: true, or the SshError kind / message. */
export async function verifyLogin(asset: HostAsset, cred: Credential, timeoutMs = 10_000, signal?: AbortSignal): Promise<{ ok: true } | { ok: false; error: string; kind: string }> {
  if (asset.gatewayError) return { ok: false, error: asset.gatewayError, kind: 'unreachable' }
  try {
    await withSsh(sshTarget(asset, cred), { timeoutMs, signal, gateway: asset.gateway }, async () => undefined)
    return { ok: true }
  } catch (e) {
    return { ok: false, error: (e as Error).message, kind: e instanceof SshError ? e.kind : 'protocol' }
  }
}

/** The OpenSSH public key line of a private key (any format ssh2 reads). */
export function publicKeyLine(privateKey: string, passphrase?: string, comment = ''): string {
  // ssh2 is CommonJS: its `utils` is not a named export Node's ESM loader can see
  const k = ssh2.utils.parseKey(privateKey, passphrase)
  const key = Array.isArray(k) ? k[0] : k
  if (!key || key instanceof Error) throw new HostOpError(`the private key cannot be read${key instanceof Error ? `: ${key.message}` : ''}`)
  return `${key.type} ${key.getPublicSSH().toString('base64')}${comment ? ` ${comment}` : ''}`
}

/** A password following the rules: length 6–30 with letters, digits and (when the set is not empty) symbols. */
export function randomPassword(rules: { length?: number; symbol_set?: string } = {}): string {
  const length = Math.min(30, Math.max(6, Number(rules.length ?? 30)))
  const symbols = rules.symbol_set ?? DEFAULT_SYMBOLS
  const lower = 'abcdefghijkmnopqrstuvwxyz'
  const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ'
  const digits = '23456789'
  const classes = [lower, upper, digits, ...(symbols ? [symbols] : [])]
  const all = classes.join('')
  const out = classes.map((c) => c[randomInt(c.length)]!)
  while (out.length < length) out.push(all[randomInt(all.length)]!)
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  // never start with a symbol: some shells and tools treat a leading '-' as an option
  if (symbols.includes(out[0]!)) {
    out.unshift(lower[randomInt(lower.length)]!)
    out.pop()
  }
  return out.join('')
}

/** A fresh RSA key (PEM, PKCS#1: every SSH client and ssh2 read it). */
export function randomSshKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey
}

/** Runs commands with root rights through the privileged account's session. */
export class Privileged {
  private mode: 'root' | 'nopasswd' | 'password' | undefined
  constructor(private readonly session: SshSession, private readonly cred: Credential) {}

  private async detect(): Promise<'root' | 'nopasswd' | 'password'> {
    if (this.mode) return this.mode
    const id = await this.session.exec('id -u')
    if (id.stdout.trim() === '0') return (this.mode = 'root')
    const n = await this.session.exec('sudo -n true')
    if (n.code === 0) return (this.mode = 'nopasswd')
    if (this.cred.secretType !== 'password' || !this.cred.secret) throw new HostOpError(`${this.cred.username} is neither root nor allowed to use sudo without a password`)
    return (this.mode = 'password')
  }

  /** Runs a shell script as root; `stdin` is handed to it. Throws with the script's error output on failure. */
  async run(script: string, stdin = ''): Promise<string> {
    const mode = await this.detect()
    const command = mode === 'root' ? `sh -c ${q(script)}` : mode === 'nopasswd' ? `sudo -n sh -c ${q(script)}` : `sudo -S -p '' sh -c ${q(script)}`
    const input = mode === 'password' ? `${this.cred.secret}\n${stdin}` : stdin
    const r = await this.session.exec(command, { stdin: input, timeoutMs: 60_000 })
    if (r.code !== 0) throw new HostOpError((r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ') || `exit status ${r.code}`)
    return r.stdout
  }
}

function checkUsername(username: string): void {
  if (!USERNAME.test(username)) throw new HostOpError(`"${username}" is not a valid OS user name`)
}

const homeOf = (u: string) => `"$(getent passwd ${q(u)} | cut -d: -f6)"`

/** Writes the user's authorized keys: `add` appends, `set` replaces them all, `set_jms` replaces the keys we pushed before. */
async function writeKey(p: Privileged, username: string, publicKey: string, strategy: string): Promise<void> {
  const line = `${publicKey} jumpserver`
  const file = `${homeOf(username)}/.ssh/authorized_keys`
  const prepare = `set -e; h=${homeOf(username)}; mkdir -p "$h/.ssh"; touch "$h/.ssh/authorized_keys"`
  const replace = strategy === 'set' ? `: > ${file}` : strategy === 'set_jms' ? `sed -i '/ jumpserver$/d' ${file}` : 'true'
  await p.run(`${prepare}; ${replace}; key=$(cat); grep -qxF "$key" ${file} || printf '%s\\n' "$key" >> ${file};
    chown -R ${q(username)} "$h/.ssh"; chmod 700 "$h/.ssh"; chmod 600 ${file}`, `${line}\n`)
}

/** Push: creates the OS user when missing, then sets its password or authorized key, and its sudo rule. */
export async function pushAccount(p: Privileged, account: Credential, opts: { sudo?: string; shell?: string; home?: string; groups?: string; keyStrategy?: string }): Promise<void> {
  checkUsername(account.username)
  const u = q(account.username)
  const shell = opts.shell && /^\/[\w/.-]+$/.test(opts.shell) ? opts.shell : '/bin/bash'
  const home = opts.home && /^\/[\w/.-]+$/.test(opts.home) ? ` -d ${q(opts.home)}` : ''
  const groups = opts.groups && /^[\w,.-]+$/.test(opts.groups) ? ` -G ${q(opts.groups)}` : ''
  await p.run(`id ${u} >/dev/null 2>&1 || useradd -m -s ${q(shell)}${home}${groups} ${u}`)
  if (account.secretType === 'ssh_key') await writeKey(p, account.username, publicKeyLine(account.secret, account.passphrase), opts.keyStrategy ?? 'add')
  else await setPassword(p, account.username, account.secret)
  const sudo = (opts.sudo ?? '').trim()
  if (sudo) {
    if (!/^[\w/ ,.*:=-]+$/.test(sudo)) throw new HostOpError(`sudo rule not allowed: ${sudo}`)
    const file = `/etc/sudoers.d/jms-${account.username.replace(/[^a-z0-9_-]/gi, '_')}`
    await p.run(`set -e; f=${q(file)}; t=$(mktemp); cat > "$t"; visudo -cf "$t" >/dev/null; install -m 0440 "$t" "$f"; rm -f "$t"`,
      `${account.username} ALL=(ALL) NOPASSWD: ${sudo}\n`)
  }
}

export async function setPassword(p: Privileged, username: string, password: string): Promise<void> {
  checkUsername(username)
  if (/[\n:]/.test(password)) throw new HostOpError('a password with a line break or a colon cannot be set with chpasswd')
  await p.run(`id ${q(username)} >/dev/null && chpasswd`, `${username}:${password}\n`)
}

/** Change secret: a new password, or a new authorized key by the strategy. */
export async function changeSecret(p: Privileged, username: string, secretType: string, secret: string, passphrase: string | undefined, keyStrategy: string): Promise<void> {
  checkUsername(username)
  if (secretType === 'ssh_key') await writeKey(p, username, publicKeyLine(secret, passphrase), keyStrategy)
  else await setPassword(p, username, secret)
}

export interface HostAccount { username: string; uid: number; shell: string; sudo: boolean; lastLogin: Date | null; lastFrom: string }

/** Gather: the host's login accounts (uid 0 or ≥ 1000, a real shell), their last login and sudo rights. */
export async function listAccounts(p: Privileged): Promise<HostAccount[]> {
  const out = await p.run(`getent passwd | awk -F: '($3 == 0 || $3 >= 1000) && $7 !~ /(nologin|false)$/ { print $1 ":" $3 ":" $7 }';
    echo '--'; for u in $(getent passwd | awk -F: '($3 == 0 || $3 >= 1000) && $7 !~ /(nologin|false)$/ {print $1}'); do
      l=$(lastlog -u "$u" 2>/dev/null | tail -n +2); printf '%s\\t%s\\n' "$u" "$l";
      if sudo -l -U "$u" 2>/dev/null | grep -q 'may run'; then echo "sudo	$u"; fi; done`)
  const [list = '', extra = ''] = out.split('\n--\n')
  const accounts = new Map<string, HostAccount>()
  for (const line of list.split('\n')) {
    const [username, uid, shell] = line.trim().split(':')
    if (username) accounts.set(username, { username, uid: Number(uid), shell: shell ?? '', sudo: false, lastLogin: null, lastFrom: '' })
  }
  for (const line of extra.split('\n')) {
    const [a, b = ''] = line.split('\t')
    if (a === 'sudo') { const acc = accounts.get(b.trim()); if (acc) acc.sudo = true; continue }
    const acc = accounts.get(a ?? '')
    if (!acc || !b.trim() || /Never logged in/.test(b)) continue
    // "user  pts/0  10.0.0.5  Mon Nov 23 02:41:11 +0000 2026"
    const m = /^\S+\s+\S+\s+(\S+)\s+(\w{3} \w{3} +\d+ [\d:]+ [+-]\d{4} \d{4})$/.exec(b.trim()) ?? /^\S+\s+\S+\s+(\S*)\s*(\w{3} \w{3} +\d+ [\d:]+ [+-]\d{4} \d{4})$/.exec(b.trim())
    if (m) {
      acc.lastFrom = m[1] ?? ''
      const d = new Date(m[2]!.replace(/^\w{3} /, ''))
      acc.lastLogin = Number.isNaN(d.getTime()) ? null : d
    }
  }
  return [...accounts.values()]
}
