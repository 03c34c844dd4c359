import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { SETTINGS } from './defaults.ts'

/**
 * Reads settings: stored values over defaults. A one-second cache per database keeps hot paths cheap; several
 * server processes sharing one PostgreSQL see a change within that second.
 */
const caches = new WeakMap<DB, { at: number; values: Map<string, unknown> }>()
const TTL_MS = 1000

export async function allSettings(db: DB): Promise<Map<string, unknown>> {
  const cache = caches.get(db)
  if (cache && Date.now() - cache.at < TTL_MS) return cache.values
  const rows = (await sql<{ name: string; value: unknown }>`select name, value from settings`.execute(db)).rows
  const values = new Map<string, unknown>(Object.entries(SETTINGS).map(([k, v]) => [k, v.default]))
  for (const r of rows) values.set(r.name, r.value)
  caches.set(db, { at: Date.now(), values })
  cacheKeys.add(db)
  return values
}

export async function getSetting<T = unknown>(db: DB, name: string): Promise<T> {
  return (await allSettings(db)).get(name) as T
}

export async function setSettings(db: DB, values: Record<string, unknown>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const def = SETTINGS[name]
    await sql`insert into settings (name, value, category, encrypted, date_updated)
      values (${name}, ${JSON.stringify(value)}::jsonb, ${def?.category ?? 'default'}, ${def?.encrypted ?? false}, now())
      on conflict (name) do update set value = excluded.value, date_updated = now()`.execute(db)
  }
  caches.delete(db)
}

/** Drops the cached settings of one database, or of every database. */
export function invalidateSettingsCache(db?: DB): void {
  if (db) caches.delete(db)
  else for (const key of [...cacheKeys]) caches.delete(key)
}
const cacheKeys = new Set<DB>()
