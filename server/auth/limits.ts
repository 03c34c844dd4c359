/**
 * Login failure counters and temporary blocks (table login_failures), shared by every server process (issue 36
 * point 8, JumpServer's LoginBlockUtil / LoginIpBlockUtil with its defaults):
 * - per (username, address) pair: SECURITY_LOGIN_LIMIT_COUNT failures (7) within SECURITY_LOGIN_LIMIT_TIME minutes
 *   block that pair — an attacker guessing a user's password from one address does not lock the user out of others;
 * - per address: only failures for usernames that do not exist, and failures of a pair far above its limit
 *   (FAR_ABOVE × the count), are counted; SECURITY_LOGIN_IP_LIMIT_COUNT of them (99999) block the address for
 *   usernames that do not exist only — a flood from a shared address (a proxy) never blocks the users behind it;
 * - a user with MFA whose pair is blocked still gets in with the right password and code (the callers: login.ts,
 *   tokens.ts), without learning whether a password was right.
 * Addresses on SECURITY_LOGIN_IP_WHITE_LIST are never counted. A block lasts the same number of minutes. Each
 * update is one atomic upsert. Changing one's own password counts like a login (`checkOwnPassword`).
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

/** Failures per address (of unknown usernames) before it is blocked for them: JumpServer's default. */
export const DEFAULT_IP_LIMIT = 99999
/** A pair this many times above its limit also counts toward its address (a guesser that keeps going). */
export const FAR_ABOVE = 10

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

/** The username as counted (the users table's `lower(btrim(username))`). */
export const countedName = (username: string) => username.trim().toLowerCase().slice(0, 300)
export const pairKey = (username: string, ip: string) => `pair:${normalizeIp(ip)} ${countedName(username)}`.slice(0, 300)
export const ipKey = (ip: string) => `ip:${normalizeIp(ip)}`

/** Minutes as shown in messages (fractional test values round up to 1). */
export const shownMinutes = (minutes: number) => Math.max(1, Math.ceil(minutes))

export type BlockKind = 'user' | 'ip'

/**
 * The block that applies to this attempt, if any: the pair's; the address's only for a username that does not
 * exist (`known` false).
 */
export async function activeBlock(db: DB, username: string, ip: string, s: LimitSettings, known: boolean): Promise<BlockKind | undefined> {
  const keys = [pairKey(username, ip)]
  if (!known && !ipMatches(ip, s.whiteList)) keys.push(ipKey(ip))
  const r = await sql<{ key: string }>`select key from login_failures
    where key = any(${keys}::text[]) and blocked_until > now()`.execute(db)
  if (r.rows.some((x) => x.key === keys[0])) return 'user'
  return r.rows.length ? 'ip' : undefined
}

/** Is the user blocked from any address (the profile's and the user list's mark)? */
export async function isUserBlocked(db: DB, username: string): Promise<boolean> {
  const r = await sql`select 1 from login_failures where username = ${countedName(username)} and blocked_until > now()`.execute(db)
  return r.rows.length > 0
}

async function bump(db: DB, key: string, limit: number, minutes: number, username: string | null = null): Promise<{ count: number; blocked: boolean }> {
  const secs = minutes * 60
  const r = await sql<{ count: number; blocked: boolean }>`
    insert into login_failures as f (key, count, first_at, blocked_until, username)
    values (${key}, 1, now(), case when 1 >= ${limit}::int then now() + make_interval(secs => ${secs}::float8) end, ${username})
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

/**
 * Counts one failure of the pair; the address counts it only for an unknown username or a pair far above its
 * limit. `remaining`: attempts before the pair is blocked.
 */
export async function recordFailure(db: DB, username: string, ip: string, s: LimitSettings, known: boolean): Promise<{ remaining: number; blocked: boolean }> {
  const limit = Math.max(1, Math.floor(s.userCount))
  const pair = await bump(db, pairKey(username, ip), limit, s.userMinutes, countedName(username))
  if ((!known || pair.count > FAR_ABOVE * limit) && !ipMatches(ip, s.whiteList)) {
    await bump(db, ipKey(ip), Math.max(1, Math.floor(s.ipCount)), s.ipMinutes)
  }
  return { remaining: Math.max(0, limit - pair.count), blocked: pair.blocked }
}

/**
 * A successful login clears its pair's counter (`ip` given); an administrator's unblock clears every pair of the
 * user. Address counters stay: one valid account must not reset the count of an address guessing others.
 */
export async function clearFailures(db: DB, username: string, ip?: string): Promise<void> {
  if (ip === undefined) await sql`delete from login_failures where username = ${countedName(username)}`.execute(db)
  else await sql`delete from login_failures where key = ${pairKey(username, ip)}`.execute(db)
}

export type PasswordCheck = { ok: true } | { ok: false; blocked: boolean; remaining: number; minutes: number }

/**
 * A password check of a logged-in user (changing their own password, issue 36 point 9): refused while the
 * (user, address) pair is blocked, and a wrong password counts toward the same limit and blocks like a failed
 * login. The profile pages' password checks call this too.
 */
export async function checkOwnPassword(db: DB, username: string, ip: string, check: () => Promise<boolean>): Promise<PasswordCheck> {
  const s = await limitSettings(db)
  const minutes = shownMinutes(s.userMinutes)
  if ((await activeBlock(db, username, ip, s, true)) === 'user') return { ok: false, blocked: true, remaining: 0, minutes }
  if (await check()) return { ok: true }
  const r = await recordFailure(db, username, ip, s, true)
  return { ok: false, blocked: r.blocked || r.remaining <= 0, remaining: r.remaining, minutes }
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
