import { sql } from 'kysely'
import { createSealer, type Sealer } from '../auth/atrest.ts'
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import { SETTINGS } from './defaults.ts'

/**
 * Reads settings: stored values over defaults. A one-second cache per database keeps hot paths cheap; several
 * server processes sharing one PostgreSQL see a change within that second.
 */
const caches = new WeakMap<DB, { at: number; values: Map<string, unknown> }>()
const TTL_MS = 1000

/**
 * Defaults only the running server knows (issue 35: the Site URL's default is this server's own address and port,
 * not the declaration's `http://127.0.0.1:8080`), per database: servers in one process keep their own.
 */
const runtimeDefaults = new WeakMap<DB, Map<string, unknown>>()

export function setRuntimeDefault(db: DB, name: string, value: unknown): void {
  let m = runtimeDefaults.get(db)
  if (!m) runtimeDefaults.set(db, (m = new Map()))
  m.set(name, value)
  caches.delete(db)
}

/** A setting's default: the running server's (`setRuntimeDefault`), else its declaration's. */
export function settingDefault(db: DB, name: string): unknown {
  const m = runtimeDefaults.get(db)
  return m?.has(name) ? m.get(name) : SETTINGS[name]?.default
}

export async function allSettings(db: DB): Promise<Map<string, unknown>> {
  const cache = caches.get(db)
  if (cache && Date.now() - cache.at < TTL_MS) return cache.values
  const rows = (await sql<{ name: string; value: unknown }>`select name, value from settings`.execute(db)).rows
  const values = new Map<string, unknown>(Object.entries(SETTINGS).map(([k, v]) => [k, v.default]))
  for (const [k, v] of runtimeDefaults.get(db) ?? []) values.set(k, v)
  for (const r of rows) values.set(r.name, r.value)
  caches.set(db, { at: Date.now(), values })
  cacheKeys.add(db)
  return values
}

export async function getSetting<T = unknown>(db: DB, name: string): Promise<T> {
  return (await allSettings(db)).get(name) as T
}

/**
 * Stores values as they are (secrets must already be sealed: `sealSetting`). Pass a transaction to write several
 * values atomically; the cache of `cacheOf` (default: `db`) is dropped.
 */
export async function setSettings(db: DB, values: Record<string, unknown>, cacheOf: DB = db): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const def = SETTINGS[name]
    await sql`insert into settings (name, value, category, encrypted, date_updated)
      values (${name}, ${JSON.stringify(value)}::jsonb, ${def?.category ?? 'default'}, ${def?.encrypted ?? false}, now())
      on conflict (name) do update set value = excluded.value, encrypted = excluded.encrypted, date_updated = now()`.execute(db)
  }
  caches.delete(cacheOf)
}

/*
 * Secret settings (declared `secret`) are stored sealed with the server's SECRET_KEY (server/auth/atrest.ts),
 * bound to their key name, so `allSettings`/`getSetting` only ever hold the sealed text.
 */
const sealers = new Map<string, Sealer>()
function sealerOf(config: ServerConfig): Sealer {
  let s = sealers.get(config.secretKey)
  if (!s) sealers.set(config.secretKey, (s = createSealer(config.secretKey)))
  return s
}
const sealContext = (name: string) => `settings:${name}`

export function sealSetting(config: ServerConfig, name: string, plain: string): string {
  return sealerOf(config).seal(plain, sealContext(name))
}

/** The plain value of a secret setting: '' when it is not set or does not open with this key. */
export async function getSecretSetting(db: DB, config: ServerConfig, name: string): Promise<string> {
  const stored = await getSetting<unknown>(db, name)
  if (typeof stored !== 'string' || stored === '') return ''
  try {
    return sealerOf(config).open(stored, sealContext(name))
  } catch {
    return ''
  }
}

/** Drops the cached settings of one database, or of every database. */
export function invalidateSettingsCache(db?: DB): void {
  if (db) caches.delete(db)
  else for (const key of [...cacheKeys]) caches.delete(key)
}
const cacheKeys = new Set<DB>()
