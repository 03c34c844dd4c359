import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import type { Session, SessionData } from './request-context.ts'

/** Session ids are base64url text we generated; anything else (NUL bytes, huge values) is no session. */
const SESSION_ID_RE = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The session's data, recording which top-level keys a request sets or deletes: the end-of-request save writes
 * only those keys, so two requests of one session (on one or several processes) never overwrite each other's
 * changes. Every writer assigns or deletes top-level keys (`s.data.confirm = {...}`), never nested members.
 */
function tracked(data: SessionData, changed: Set<string>): SessionData {
  return new Proxy(data, {
    set(target, key, value) {
      if (typeof key === 'string') changed.add(key)
      return Reflect.set(target, key, value)
    },
    deleteProperty(target, key) {
      if (typeof key === 'string') changed.add(key)
      return Reflect.deleteProperty(target, key)
    },
  })
}

function makeSession(id: string, data: SessionData, isNew: boolean): Session {
  const changed = new Set<string>()
  return { id, data: tracked(data, changed), changed, isNew, dirty: isNew, destroyed: false }
}

/** A session read with other data (server/http/context.ts reads it with its user in one query). */
export function sessionFromRow(id: string, data: SessionData | null): Session {
  return makeSession(id, data ?? {}, false)
}

/** A cookie value that can name a session (anything else is no session, and no query is made). */
export function isSessionId(id: string | undefined): id is string {
  return !!id && SESSION_ID_RE.test(id)
}

/** Sessions live in the database so several server processes can share them. */
export async function loadSession(db: DB, id: string | undefined): Promise<Session | null> {
  if (!isSessionId(id)) return null
  const r = await sql<{ id: string; data: SessionData }>`
    select id, data from sessions where id = ${id} and expires_at > now()`.execute(db)
  const row = r.rows[0]
  return row ? makeSession(row.id, row.data ?? {}, false) : null
}

export function newSession(): Session {
  return makeSession(randomBytes(24).toString('base64url'), {}, true)
}

/**
 * Saves a session at the end of a request. A new session is inserted whole. An existing one is updated in one
 * statement with only the keys this request changed — never an upsert: a session deleted meanwhile (a logout,
 * a password change, on any process) stays deleted.
 */
export async function saveSession(db: DB, s: Session, ageSeconds: number): Promise<void> {
  if (s.destroyed) {
    await sql`delete from sessions where id = ${s.id}`.execute(db)
    return
  }
  const expires = new Date(Date.now() + ageSeconds * 1000)
  if (s.isNew) {
    await sql`insert into sessions (id, user_id, data, expires_at)
      values (${s.id}, ${s.data.userId ?? null}, ${JSON.stringify(s.data)}::jsonb, ${expires})
      on conflict (id) do nothing`.execute(db)
  } else {
    const set: Record<string, unknown> = {}
    const removed: string[] = []
    for (const k of s.changed) {
      if (s.data[k] === undefined) removed.push(k)
      else set[k] = s.data[k]
    }
    const userChanged = s.changed.has('userId')
    await sql`update sessions set data = (data - ${removed}::text[]) || ${JSON.stringify(set)}::jsonb,
      user_id = case when ${userChanged}::boolean then ${s.data.userId ?? null}::uuid else user_id end, expires_at = ${expires}
      where id = ${s.id}`.execute(db)
  }
  s.changed.clear()
  s.dirty = false
  s.isNew = false
}

/** Slides the expiry of an untouched session (Django's SESSION_SAVE_EVERY_REQUEST-like refresh). */
export async function touchSession(db: DB, s: Session, ageSeconds: number): Promise<void> {
  const expires = new Date(Date.now() + ageSeconds * 1000)
  await sql`update sessions set expires_at = ${expires} where id = ${s.id}`.execute(db)
}

/**
 * Removes top-level keys from a stored session only when `key` still holds `expected` (a compare-and-delete):
 * the one request, of all processes, that gets `true` consumed the value. Used for one-time codes.
 */
export async function consumeSessionValue(db: DB, s: Session, key: string, expected: unknown, alsoRemove: string[] = []): Promise<boolean> {
  if (s.isNew) return true
  const r = await sql<{ id: string }>`update sessions set data = data - ${[key, ...alsoRemove]}::text[]
    where id = ${s.id} and data -> ${key} = ${JSON.stringify(expected)}::jsonb returning id`.execute(db)
  return r.rows.length === 1
}

/** Deletes expired sessions, spm caches and bearer tokens (run by the daily clean-up task, server/tasks/cleanup.ts). */
export async function purgeExpiredSessions(db: DB, now = new Date()): Promise<{ sessions: number; caches: number; tokens: number }> {
  const count = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0n)
  const sessions = count(await sql`delete from sessions where expires_at < ${now}`.execute(db))
  const caches = count(await sql`delete from resource_cache where expires_at < ${now}`.execute(db))
  const tokens = count(await sql`delete from auth_tokens where date_expired < ${now}`.execute(db))
  return { sessions, caches, tokens }
}

/** Rotates the session id (on login) keeping its data: prevents session fixation. */
export function rotateSession(s: Session): Session {
  return makeSession(randomBytes(24).toString('base64url'), { ...s.data }, true)
}

/**
 * Names the session a user change comes from, for the rest of the transaction: the trigger that ends a user's
 * sessions on a password change or a disable (migration 007) spares it.
 */
export async function keepSession(tx: DB, sessionId: string): Promise<void> {
  await sql`select set_config('bastion.keep_session', ${sessionId}, true)`.execute(tx)
}

/** Ends every session and token of a user (a password reset by an administrator). */
export async function endUserSessions(db: DB, userId: string): Promise<void> {
  await sql`delete from sessions where user_id = ${userId}`.execute(db)
  await sql`delete from auth_tokens where user_id = ${userId}`.execute(db)
}
