/**
 * LDAP through `ldapts`: the configuration (saved settings, or the values being tested), the user search over one
 * or more OUs (`|`-separated) with the search filter's `%(user)s`, the attribute map (our user field → LDAP
 * attribute) and a user's password check (search the user's DN with the service account, then bind as it).
 */
import { Client, type Entry } from 'ldapts'
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import { allSettings, getSecretSetting } from '../settings/store.ts'

export interface LdapConfig {
  uri: string
  bindDn: string
  bindPassword: string
  searchOu: string
  filter: string
  attrMap: Record<string, string>
  startTls: boolean
  /** seconds */
  timeout: number
  pageSize: number
}

export interface LdapUser {
  dn: string
  username: string
  name: string
  email: string
  phone: string
  groups: string[]
}

/** Where an LDAP step failed (the testers' "Error (…)" texts). */
export type LdapStage = 'server' | 'bind' | 'search' | 'attr_map' | 'user' | 'password'

/** A readable reason of a client error (ldapts' result errors carry their class name, not a message). */
export const reasonOf = (e: unknown): string =>
  e instanceof Error ? [e.name !== 'Error' ? e.name : '', e.message.trim()].filter(Boolean).join(': ') : String(e)

export class LdapError extends Error {
  constructor(readonly stage: LdapStage, message: string) {
    super(message)
  }
}

/** At most this many users are read from the directory in one listing or import. */
export const MAX_USERS = 20_000

export async function ldapConfig(db: DB, config: ServerConfig, over: Record<string, unknown> = {}): Promise<LdapConfig> {
  const s = await allSettings(db)
  const get = (k: string) => (k in over ? over[k] : s.get(k))
  const typedPassword = over.AUTH_LDAP_BIND_PASSWORD
  const map = get('AUTH_LDAP_USER_ATTR_MAP')
  return {
    uri: String(get('AUTH_LDAP_SERVER_URI') ?? '').trim(),
    bindDn: String(get('AUTH_LDAP_BIND_DN') ?? '').trim(),
    // a tested configuration without a typed password uses the saved one
    bindPassword: typeof typedPassword === 'string' && typedPassword !== '' ? typedPassword : await getSecretSetting(db, config, 'AUTH_LDAP_BIND_PASSWORD'),
    searchOu: String(get('AUTH_LDAP_SEARCH_OU') ?? '').trim(),
    filter: String(get('AUTH_LDAP_SEARCH_FILTER') ?? '(cn=%(user)s)').trim(),
    attrMap: map && typeof map === 'object' && !Array.isArray(map) ? (map as Record<string, string>) : {},
    startTls: get('AUTH_LDAP_START_TLS') === true,
    timeout: Math.min(300, Math.max(1, Number(get('AUTH_LDAP_CONNECT_TIMEOUT')) || 10)),
    pageSize: Math.min(10_000, Math.max(1, Number(get('AUTH_LDAP_SEARCH_PAGED_SIZE')) || 1000)),
  }
}

/** RFC 4515 escaping of a value put into a filter. */
export function escapeFilterValue(v: string): string {
  return v.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

const first = (v: Entry[string] | undefined): string => {
  const x = Array.isArray(v) ? v[0] : v
  return x === undefined ? '' : Buffer.isBuffer(x) ? x.toString('utf8') : String(x)
}
const all = (v: Entry[string] | undefined): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)))

function toUser(entry: Entry, map: Record<string, string>): LdapUser {
  const attr = (field: string) => (map[field] ? first(entry[map[field]!]) : '')
  return {
    dn: entry.dn,
    username: attr('username').trim(),
    name: attr('name').trim(),
    email: attr('email').trim(),
    phone: attr('phone').trim(),
    groups: all(entry.memberOf),
  }
}

/** An open connection bound as the service account (bind DN), or anonymous without one. */
export async function connect(cfg: LdapConfig): Promise<Client> {
  if (!/^ldaps?:\/\/[^\s/]+\/?$/i.test(cfg.uri)) throw new LdapError('server', `invalid server URI "${cfg.uri}"`)
  const client = new Client({ url: cfg.uri, timeout: cfg.timeout * 1000, connectTimeout: cfg.timeout * 1000, strictDN: false })
  try {
    if (cfg.startTls) await client.startTLS({})
    if (cfg.bindDn) await client.bind(cfg.bindDn, cfg.bindPassword)
  } catch (e) {
    await client.unbind().catch(() => undefined)
    const msg = reasonOf(e)
    // an LDAP result (numeric code: invalid credentials…) is the bind's fault; anything else is the connection's
    throw new LdapError(typeof (e as { code?: unknown }).code === 'number' ? 'bind' : 'server', msg)
  }
  return client
}

function checkMap(cfg: LdapConfig): void {
  if (!cfg.attrMap.username) throw new LdapError('attr_map', 'the attribute map has no "username"')
}

/** Users matching the search filter with `%(user)s` = `user` (`*`: every user), over every OU. */
export async function searchUsers(client: Client, cfg: LdapConfig, user = '*', limit = MAX_USERS): Promise<LdapUser[]> {
  checkMap(cfg)
  const filter = cfg.filter.replaceAll('%(user)s', user === '*' ? '*' : escapeFilterValue(user))
  const attributes = [...new Set([...Object.values(cfg.attrMap), 'memberOf'])]
  const out: LdapUser[] = []
  for (const base of cfg.searchOu.split('|').map((s) => s.trim()).filter(Boolean)) {
    try {
      const { searchEntries } = await client.search(base, { scope: 'sub', filter, attributes, paged: { pageSize: cfg.pageSize } })
      for (const e of searchEntries) {
        const u = toUser(e, cfg.attrMap)
        if (u.username) out.push(u)
        if (out.length >= limit) return out
      }
    } catch (e) {
      throw new LdapError('search', reasonOf(e))
    }
  }
  return out
}

/** Every user of the directory (service account), for listing and importing. */
export async function listUsers(cfg: LdapConfig): Promise<LdapUser[]> {
  const client = await connect(cfg)
  try {
    return await searchUsers(client, cfg)
  } finally {
    await client.unbind().catch(() => undefined)
  }
}

/** Checks a user's password: their entry (exactly one) by the search filter, then a bind as its DN. */
export async function authenticate(cfg: LdapConfig, username: string, password: string): Promise<LdapUser> {
  if (!username || !password) throw new LdapError('password', 'empty username or password')
  const client = await connect(cfg)
  let found: LdapUser[]
  try {
    found = await searchUsers(client, cfg, username, 2)
  } finally {
    await client.unbind().catch(() => undefined)
  }
  if (found.length !== 1) throw new LdapError('user', found.length ? `${found.length} entries match` : 'no such user')
  const user = found[0]!
  const asUser = new Client({ url: cfg.uri, timeout: cfg.timeout * 1000, connectTimeout: cfg.timeout * 1000, strictDN: false })
  try {
    if (cfg.startTls) await asUser.startTLS({})
    await asUser.bind(user.dn, password)
  } catch (e) {
    throw new LdapError('password', reasonOf(e))
  } finally {
    await asUser.unbind().catch(() => undefined)
  }
  return user
}
