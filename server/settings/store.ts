import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import { SETTINGS } from './defaults.ts'

/** Reads settings: stored values over defaults. A short cache keeps hot paths cheap across requests. */
let cache: { at: number; values: Map<string, unknown> } | undefined
const TTL_MS = 1000

export async function allSettings(db: DB): Promise<Map<string, unknown>> {
  if (cache && Date.now() - cache.at < TTL_MS) return cache.values
  const rows = (await sql<{ name: string; value: unknown }>`select name, value from settings`.execute(db)).rows
  const values = new Map<string, unknown>(Object.entries(SETTINGS).map(([k, v]) => [k, v.default]))
  for (const r of rows) values.set(r.name, r.value)
  cache = { at: Date.now(), values }
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
  cache = undefined
}

export function invalidateSettingsCache(): void { cache = undefined }
