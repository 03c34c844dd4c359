import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import type { DB } from './connection.ts'

const here = dirname(fileURLToPath(import.meta.url))

/** Advisory lock key held while migrating ("bastion migrate"): one process migrates, the others wait. */
export const MIGRATION_LOCK_KEY = 7_361_514_880_123

/**
 * Applies every `migrations/NNN_*.sql` not applied yet, each in its own transaction, in file-name order.
 * Several processes may start at once on one PostgreSQL: the whole run holds a session advisory lock on one
 * connection, so the second process waits, then finds everything applied.
 */
export async function migrate(db: DB): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY}::bigint)`.execute(conn)
    try {
      await sql`create table if not exists schema_migrations (name varchar(200) primary key, applied_at timestamptz not null default now())`.execute(conn)
      const done = new Set((await sql<{ name: string }>`select name from schema_migrations`.execute(conn)).rows.map((r) => r.name))
      const files = readdirSync(join(here, 'migrations')).filter((f) => f.endsWith('.sql')).sort()
      const applied: string[] = []
      for (const file of files) {
        if (done.has(file)) continue
        const text = readFileSync(join(here, 'migrations', file), 'utf8')
        await conn.transaction().execute(async (tx) => {
          await sql.raw(text).execute(tx)
          await sql`insert into schema_migrations (name) values (${file})`.execute(tx)
        })
        applied.push(file)
      }
      return applied
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY}::bigint)`.execute(conn)
    }
  })
}
