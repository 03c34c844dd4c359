import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dbKind } from '../testing.ts'
import { useTestServer } from '../use-test-server.ts'
import { openDatabase, type DB } from './connection.ts'
import { analyzeSoon } from './maintenance.ts'

const reltuples = async (db: DB, table: string) =>
  Number((await sql<{ n: number }>`select reltuples as n from pg_class where relname = ${table}`.execute(db)).rows[0]!.n)

async function until(what: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe(`planner statistics after a bulk write (${dbKind()})`, () => {
  const s = useTestServer()

  it('analyzes a table the code reports as rewritten, without waiting for autovacuum', async () => {
    const db = s.t.database.db
    await sql`create table maint_bulk (id int primary key)`.execute(db)
    await sql`insert into maint_bulk select generate_series(1, 3000)`.execute(db)
    expect(await reltuples(db, 'maint_bulk')).toBeLessThan(1) // never analyzed: -1 (or 0)
    analyzeSoon(db, 'maint_bulk', 'maint_bulk')
    await until(async () => (await reltuples(db, 'maint_bulk')) === 3000)
    analyzeSoon(db, 'no such; table') // not an identifier: ignored, nothing sent
    await sql`drop table maint_bulk`.execute(db)
  })
})

describe('PGlite: what autovacuum would do', () => {
  it('analyzes a table past 50 + 10% changed rows and vacuums one past its inserted or dead-row threshold', async () => {
    const database = await openDatabase({ memory: true })
    try {
      const db = database.db
      const flushStats = () => sql`select pg_stat_force_next_flush()`.execute(db).then(() => sql`select 1`.execute(db))
      await sql`create table maint_a (id int primary key, v text)`.execute(db)
      await sql`insert into maint_a select i, 'x' from generate_series(1, 40) i`.execute(db)
      await flushStats()
      expect(await database.maintenance.pass()).toEqual([]) // 40 changed rows: under 50
      await sql`insert into maint_a select i, 'x' from generate_series(41, 2000) i`.execute(db)
      await flushStats()
      expect(await database.maintenance.pass()).toEqual(['vacuum analyze maint_a']) // 1,960 inserted: > 1,000
      expect(await reltuples(db, 'maint_a')).toBe(2000)
      await sql`update maint_a set v = 'y' where id <= 300`.execute(db)
      await flushStats()
      expect(await database.maintenance.pass()).toEqual(['analyze maint_a']) // 300 > 50 + 200; 300 dead < 50 + 400
      await sql`delete from maint_a where id > 1000`.execute(db)
      await flushStats()
      expect(await database.maintenance.pass()).toEqual(['vacuum analyze maint_a'])
      expect(await reltuples(db, 'maint_a')).toBe(1000)
      await flushStats()
      expect(await database.maintenance.pass()).toEqual([])
    } finally {
      await database.close()
    }
  })
})
