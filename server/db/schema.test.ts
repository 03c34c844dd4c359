import { readFileSync } from 'node:fs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from './connection.ts'
import { migrate } from './migrate.ts'
import { SCHEMA_FILE, schemaTypesOf } from './types.ts'

describe('the database interface (server/db/schema.gen.ts)', () => {
  let d: Database
  beforeAll(async () => {
    d = await openDatabase({ memory: true })
    await migrate(d.db)
  }, 60_000)
  afterAll(() => d.close())

  it('is what the migrations produce (when stale: `npm run db:types`, then commit server/db/schema.gen.ts)', async () => {
    const fresh = await schemaTypesOf(d.db)
    const committed = readFileSync(SCHEMA_FILE, 'utf8')
    // Line by line, so a failure names the table and the column that differ.
    expect(committed.split('\n')).toEqual(fresh.split('\n'))
  }, 60_000)

  it('changes with the schema, with the types both drivers return', async () => {
    // What a new migration does: the check above would then fail until the file is regenerated.
    await sql`create table wave_probe (id text primary key, n int8 not null, data bytea, seen timestamptz default now())`.execute(d.db)
    const fresh = await schemaTypesOf(d.db)
    expect(fresh).not.toBe(readFileSync(SCHEMA_FILE, 'utf8'))
    expect(fresh).toMatch(/^ {2}wave_probe: WaveProbe;$/m)
    const probe = fresh.slice(fresh.indexOf('export interface WaveProbe {'))
    expect(probe.slice(0, probe.indexOf('}'))).toBe(
      'export interface WaveProbe {\n  data: Uint8Array | null;\n  id: string;\n  n: number;\n  seen: Generated<Timestamp | null>;\n',
    )
  }, 60_000)
})
