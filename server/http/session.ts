import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import type { Session, SessionData } from './request-context.ts'

/** Sessions live in the database so several server processes can share them. */
export async function loadSession(db: DB, id: string | undefined): Promise<Session | null> {
  if (!id || id.length > 64) return null
  const r = await sql<{ id: string; data: SessionData }>`
    select id, data from sessions where id = ${id} and expires_at > now()`.execute(db)
  const row = r.rows[0]
  return row ? { id: row.id, data: row.data ?? {}, isNew: false, dirty: false, destroyed: false } : null
}

export function newSession(): Session {
  return { id: randomBytes(24).toString('base64url'), data: {}, isNew: true, dirty: true, destroyed: false }
}

export async function saveSession(db: DB, s: Session, ageSeconds: number): Promise<void> {
  if (s.destroyed) {
    await sql`delete from sessions where id = ${s.id}`.execute(db)
    return
  }
  const expires = new Date(Date.now() + ageSeconds * 1000)
  await sql`insert into sessions (id, user_id, data, expires_at)
    values (${s.id}, ${s.data.userId ?? null}, ${JSON.stringify(s.data)}::jsonb, ${expires})
    on conflict (id) do update set user_id = excluded.user_id, data = excluded.data, expires_at = excluded.expires_at`.execute(db)
  s.dirty = false
  s.isNew = false
}

/** Slides the expiry of an untouched session (Django's SESSION_SAVE_EVERY_REQUEST-like refresh). */
export async function touchSession(db: DB, s: Session, ageSeconds: number): Promise<void> {
  const expires = new Date(Date.now() + ageSeconds * 1000)
  await sql`update sessions set expires_at = ${expires} where id = ${s.id}`.execute(db)
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
  return { id: randomBytes(24).toString('base64url'), data: s.data, isNew: true, dirty: true, destroyed: false }
}
