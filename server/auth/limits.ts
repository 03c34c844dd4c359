/**
 * Login failure counters and temporary blocks (table login_failures), shared by every server process:
 * per username (SECURITY_LOGIN_LIMIT_COUNT failures within SECURITY_LOGIN_LIMIT_TIME minutes) and per
 * client IP (SECURITY_LOGIN_IP_LIMIT_COUNT / _TIME; addresses on SECURITY_LOGIN_IP_WHITE_LIST are never
 * counted). A block lasts the same number of minutes. Each update is one atomic upsert.
 */
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { allSettings } from '../settings/store.ts'
import { ipMatches, normalizeIp } from './ip-match.ts'

export interface LimitSettings {
  userCount: number
  userMinutes: number
  ipCount: number
  ipMinutes: number
  whiteList: unknown
  blackList: unknown
}

/** Failures per IP before it is blocked when the setting is absent (a real limit; 99999 would be none). */
export const DEFAULT_IP_LIMIT = 50

const num = (v: unknown, dflt: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : Number(v) >= 0 ? Number(v) : dflt)

export async function limitSettings(db: DB): Promise<LimitSettings> {
  const s = await allSettings(db)
  return {
    userCount: num(s.get('SECURITY_LOGIN_LIMIT_COUNT'), 7),
    userMinutes: num(s.get('SECURITY_LOGIN_LIMIT_TIME'), 30),
    ipCount: num(s.get('SECURITY_LOGIN_IP_LIMIT_COUNT'), DEFAULT_IP_LIMIT),
    ipMinutes: num(s.get('SECURITY_LOGIN_IP_LIMIT_TIME'), 30),
    whiteList: s.get('SECURITY_LOGIN_IP_WHITE_LIST'),
    blackList: s.get('SECURITY_LOGIN_IP_BLACK_LIST'),
  }
}

export const userKey = (username: string) => `user:${username.trim().toLowerCase()}`.slice(0, 300)
export const ipKey = (ip: string) => `ip:${normalizeIp(ip)}`

/** Minutes as shown in messages (fractional test values round up to 1). */
export const shownMinutes = (minutes: number) => Math.max(1, Math.ceil(minutes))

export type BlockKind = 'user' | 'ip'

/** The active block for this username or IP, if any. */
export async function activeBlock(db: DB, username: string, ip: string, s: LimitSettings): Promise<BlockKind | undefined> {
  const keys = [userKey(username)]
  if (!ipMatches(ip, s.whiteList)) keys.push(ipKey(ip))
  const r = await sql<{ key: string }>`select key from login_failures
    where key = any(${keys}::text[]) and blocked_until > now()`.execute(db)
  if (r.rows.some((x) => x.key === keys[0])) return 'user'
  return r.rows.length ? 'ip' : undefined
}

export async function isUserBlocked(db: DB, username: string): Promise<boolean> {
  const r = await sql`select 1 from login_failures where key = ${userKey(username)} and blocked_until > now()`.execute(db)
  return r.rows.length > 0
}

async function bump(db: DB, key: string, limit: number, minutes: number): Promise<{ count: number; blocked: boolean }> {
  const secs = minutes * 60
  const r = await sql<{ count: number; blocked: boolean }>`
    insert into login_failures as f (key, count, first_at, blocked_until)
    values (${key}, 1, now(), case when 1 >= ${limit}::int then now() + make_interval(secs => ${secs}::float8) end)
    on conflict (key) do update set
      count = case when f.first_at < now() - make_interval(secs => ${secs}::float8) then 1 else f.count + 1 end,
      first_at = case when f.first_at < now() - make_interval(secs => ${secs}::float8) then now() else f.first_at end,
      blocked_until = case
        when (case when f.first_at < now() - make_interval(secs => ${secs}::float8) then 1 else f.count + 1 end) >= ${limit}::int
          then now() + make_interval(secs => ${secs}::float8)
        when f.blocked_until > now() then f.blocked_until
        else null end
    returning count, coalesce(blocked_until > now(), false) as blocked`.execute(db)
  const row = r.rows[0]!
  return { count: Number(row.count), blocked: row.blocked }
}

/** Counts one failure for the username and the IP; `remaining` attempts before the username is blocked. */
export async function recordFailure(db: DB, username: string, ip: string, s: LimitSettings): Promise<{ remaining: number; blocked: boolean }> {
  const user = await bump(db, userKey(username), Math.max(1, Math.floor(s.userCount)), s.userMinutes)
  if (!ipMatches(ip, s.whiteList)) await bump(db, ipKey(ip), Math.max(1, Math.floor(s.ipCount)), s.ipMinutes)
  return { remaining: Math.max(0, Math.floor(s.userCount) - user.count), blocked: user.blocked }
}

/**
 * A successful login clears the username's counter. The IP's counter stays: otherwise one valid account
 * would let an attacker reset the per-IP limit while guessing other accounts' passwords.
 */
export async function clearFailures(db: DB, username: string): Promise<void> {
  await sql`delete from login_failures where key = ${userKey(username)}`.execute(db)
}

/**
 * Failed confirmations (re-entering the password or an MFA code before a sensitive action) have their own
 * counter per username, with the login limits' count and time: they block further confirmations, never the
 * login itself (a session could otherwise lock its own account, or anyone's, with empty posts).
 */
export const confirmKey = (username: string) => `confirm:${username.trim().toLowerCase()}`.slice(0, 300)

export async function recordConfirmFailure(db: DB, username: string, s: LimitSettings): Promise<{ blocked: boolean }> {
  return bump(db, confirmKey(username), Math.max(1, Math.floor(s.userCount)), s.userMinutes)
}

export async function isConfirmBlocked(db: DB, username: string): Promise<boolean> {
  const r = await sql`select 1 from login_failures where key = ${confirmKey(username)} and blocked_until > now()`.execute(db)
  return r.rows.length > 0
}

export async function clearConfirmFailures(db: DB, username: string): Promise<void> {
  await sql`delete from login_failures where key = ${confirmKey(username)}`.execute(db)
}
