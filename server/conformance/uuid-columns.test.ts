/**
 * Issue 36 point 11 and its class: every writable field of every registered resource whose database column is a
 * uuid is validated before SQL — an empty string or a non-UUID is a 400 naming the field, never a 500 (`invalid
 * input syntax for type uuid`). Generated from the declarations and the database's own column types.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { columnOf } from '../engine/kinds.ts'
import { allows } from '../engine/routes.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { dbKind } from '../testing.ts'
import { conformanceServer, Factory } from './harness.ts'

const s = await conformanceServer()
const uuidColumns = new Set((await sql<{ t: string; c: string }>`select table_name as t, column_name as c from information_schema.columns
  where table_schema = current_schema() and data_type = 'uuid'`.execute(s.t.database.db)).rows.map((r) => `${r.t}.${r.c}`))

const cases = s.resources.filter((d) => allows(d, 'create') || allows(d, 'update')).flatMap((def) => def.fields
  .filter((f) => !f.read_only && f.type !== 'm2m' && columnOf(f) && uuidColumns.has(`${def.table}.${columnOf(f)}`))
  .map((f) => [`${def.path} ${f.name}`, def, f.name] as const))

describe(`uuid fields are checked before SQL (${dbKind()})`, () => {
  it('the generated cases include the terminal session id (point 11)', () => {
    expect(cases.map((c) => c[0])).toContain('/api/v1/terminal/sessions/ id')
    expect(cases.length).toBeGreaterThan(20)
  })

  it.each(cases)('%s: "" and a non-UUID are a 400 on the field', async (_name, def, field) => {
    const org = ORG_IDS.DEFAULT
    const f = new Factory(s.admin)
    const problems: string[] = []
    const post = allows(def, 'create') ? ((await s.admin.options(def.path)).json().actions?.POST ?? {}) as Record<string, unknown> : {}
    if (field in post) {
      for (const bad of ['', 'not-a-uuid', '1234']) {
        const r = await s.admin.post(def.path, await f.body(def, org, { [field]: bad }))
        if (!(r.statusCode === 400 && Object.keys(r.json() ?? {}).includes(field))) problems.push(`POST ${field}=${JSON.stringify(bad)} → ${r.statusCode} ${r.body.slice(0, 160)}`)
      }
    }
    if (allows(def, 'update') && allows(def, 'create')) {
      const obj = await f.create(def, org)
      const patch = (await s.admin.options(`${def.path}${obj.id}/`)).json().actions?.PATCH as Record<string, unknown> | undefined
      if (patch && field in patch) {
        for (const bad of ['', 'not-a-uuid']) {
          const r = await s.admin.patch(`${def.path}${obj.id}/`, { [field]: bad })
          if (r.statusCode >= 500 || (r.statusCode !== 400 && r.statusCode !== 200)) problems.push(`PATCH ${field}=${JSON.stringify(bad)} → ${r.statusCode} ${r.body.slice(0, 160)}`)
        }
      }
    }
    expect(problems).toEqual([])
  })
})
