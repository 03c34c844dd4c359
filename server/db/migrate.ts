import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import type { DB } from './connection.ts'

const here = dirname(fileURLToPath(import.meta.url))

/** Applies every `migrations/NNN_*.sql` not applied yet, each in its own transaction, in file-name order. */
export async function migrate(db: DB): Promise<string[]> {
  await sql`create table if not exists schema_migrations (name varchar(200) primary key, applied_at timestamptz not null default now())`.execute(db)
  const done = new Set((await sql<{ name: string }>`select name from schema_migrations`.execute(db)).rows.map((r) => r.name))
  const files = readdirSync(join(here, 'migrations')).filter((f) => f.endsWith('.sql')).sort()
  const applied: string[] = []
  for (const file of files) {
    if (done.has(file)) continue
    const text = readFileSync(join(here, 'migrations', file), 'utf8')
    await db.transaction().execute(async (tx) => {
      await sql.raw(text).execute(tx)
      await sql`insert into schema_migrations (name) values (${file})`.execute(tx)
    })
    applied.push(file)
  }
  return applied
}
