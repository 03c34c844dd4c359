/**
 * What every resource gets from its declaration, checked over all registered resources: the export → import
 * template → render-to-json round trip (CSV and XLSX), operate logs of creates, updates and deletes, and a
 * trigram index serving its search expression.
 */
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { searchExpression } from '../engine/query.ts'
import { allows } from '../engine/routes.ts'
import type { ResourceDef, Row } from '../engine/types.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { setSettings } from '../settings/store.ts'
import { dbKind } from '../testing.ts'
import { conformanceServer, Factory, type Info } from './harness.ts'

const s = await conformanceServer()
const RESOURCES = s.resources

const ORG = ORG_IDS.DEFAULT
const SIMPLE = new Set(['string', 'email', 'url', 'integer', 'float', 'boolean', 'choice', 'labeled_choice'])

/** The value render-to-json should give back for a field of a listed object. */
function expectedCell(info: Info, v: unknown): unknown {
  if (v && typeof v === 'object' && 'value' in (v as Row)) return (v as Row).value
  if (info.type === 'string' && v === null) return undefined
  return v
}

describe(`files, operate logs and search of every resource (${dbKind()})`, () => {
  const factory = new Factory(s.admin)
  beforeAll(async () => {
    // Exports of sensitive resources need a fresh confirmation; this suite checks files, not confirmation.
    await setSettings(s.t.database.db, { SECURITY_VIEW_AUTH_NEED_MFA: false })
  })

  const files = RESOURCES.filter((d) => allows(d, 'create') && allows(d, 'export') && allows(d, 'import'))
  it.each(files.map((d) => [d.path, d] as const))('%s: export → render-to-json gives the listed values back, templates name the writable fields', async (path, def) => {
    const post = await factory.postFields(def, ORG)
    const overrides = post.name?.type === 'string' && !post.name.read_only ? { name: `=SUM(1+1)-${Date.now() % 100000}` } : {}
    await factory.create(def, ORG, overrides)
    await factory.create(def, ORG)
    const list = (await s.admin.get(path)).json() as Row[]
    const byId = new Map(list.map((o) => [String(o.id), o]))
    const getInfo = (await s.admin.options(path)).json().actions.GET as Record<string, Info>
    const problems: string[] = []
    for (const format of ['csv', 'xlsx'] as const) {
      const file = await s.admin.get(`${path}?format=${format}`)
      expect(file.statusCode, file.body.slice(0, 200)).toBe(200)
      const parsed = await s.admin.request({ method: 'POST', url: `${path}render-to-json/`, payload: file.rawPayload, headers: { 'content-type': format === 'csv' ? 'text/csv' : 'application/xlsx' } })
      expect(parsed.statusCode, parsed.body.slice(0, 200)).toBe(200)
      const { title, data } = parsed.json() as { title: [string, string][]; data: Row[] }
      expect(data.length, format).toBe(list.length)
      const names = title.map(([, n]) => n)
      expect(names, format).toContain('id')
      for (const row of data) {
        const listed = byId.get(String(row.id))
        if (!listed) { problems.push(`${format}: row ${row.id} is not listed`); continue }
        for (const name of names) {
          const info = getInfo[name]
          if (!info || name === 'id' || !SIMPLE.has(info.type)) continue
          const want = expectedCell(info, listed[name])
          if (want === undefined || want === '') continue
          if (JSON.stringify(row[name]) !== JSON.stringify(want)) problems.push(`${format} ${name}: ${JSON.stringify(row[name])} ≠ ${JSON.stringify(want)}`)
        }
      }
    }
    const writable = Object.entries(post).filter(([n, i]) => !i.read_only && !(def.unexport ?? []).includes(n)).map(([n]) => n).sort()
    for (const template of ['import', 'update'] as const) {
      const file = await s.admin.get(`${path}?format=csv&template=${template}`)
      expect(file.statusCode).toBe(200)
      const parsed = await s.admin.request({ method: 'POST', url: `${path}render-to-json/`, payload: file.rawPayload, headers: { 'content-type': 'text/csv' } })
      expect(parsed.statusCode, parsed.body.slice(0, 200)).toBe(200)
      const names = (parsed.json().title as [string, string][]).map(([, n]) => n).filter((n) => n !== 'id').sort()
      // A sample row leaves write-only columns empty: their headers still name the fields.
      const header = file.body.replace(/^\ufeff/, '').split(/\r?\n/)[0]!
      expect(header.split(',').length, template).toBe(writable.length + (template === 'update' ? 1 : 0))
      for (const n of names) expect(writable, `${template} ${n}`).toContain(n)
    }
    expect(problems).toEqual([])
  })

  const audited = RESOURCES.filter((d) => !d.noAudit && allows(d, 'create'))
  it.each(audited.map((d) => [d.path, d] as const))('%s: creates, updates and deletes are operate-logged', async (path, def) => {
    const obj = await factory.create(def, ORG)
    const expected = ['create']
    if (allows(def, 'update')) {
      // Change one writable field: a comment or name when there is one, else the first field with a valid value
      // of its own (a relation gets a fresh target).
      const patch = (await s.admin.options(`${path}${obj.id}/`)).json().actions.PATCH as Record<string, Info>
      const candidates = Object.entries(patch).filter(([, i]) => !i.read_only && !i.write_only)
      const text = candidates.find(([n, i]) => (n === 'comment' || n === 'name') && i.type === 'string')
      let change: Row | undefined = text ? { [text[0]]: `changed-${text[0]}` } : undefined
      for (const [name, info] of text ? [] : candidates) {
        // a switch flips (its generated value may be its current one)
        const v = info.type === 'boolean' ? obj[name] !== true : await factory.value(info, ORG, Date.now() % 100000)
        if (v !== undefined && JSON.stringify(v) !== JSON.stringify(obj[name])) { change = { [name]: v }; break }
      }
      expect(change, 'a writable field to change').toBeDefined()
      const r = await s.admin.patch(`${path}${obj.id}/`, change)
      expect(r.statusCode, r.body).toBe(200)
      expected.push('update')
    }
    if (allows(def, 'destroy')) {
      const r = await s.admin.delete(`${path}${obj.id}/`)
      expect(r.statusCode, r.body).toBe(204)
      expected.push('delete')
    }
    const logs = (await sql<{ action: string; resource_type: string }>`select action, resource_type from operate_logs
      where resource_id = ${String(obj.id)} and resource_type = ${def.verboseName} order by datetime`.execute(s.t.database.db)).rows
    // Serial ids repeat across tables: the resource type tells this object's entries from another's (and a log
    // written under another type leaves this list short).
    expect(logs.map((l) => l.action)).toEqual(expected)
  })

  const searched = RESOURCES.filter((d) => d.search?.length)
  it.each(searched.map((d) => [d.path, d] as const))('%s: a trigram index serves the search expression', async (_path, def: ResourceDef) => {
    const plan = await s.t.database.db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx)
      // the search the engine runs: a stored lower-cased column with LIKE when the resource keeps one, else ILIKE
      const where = def.searchColumn ? `t.${def.searchColumn} like '%abc%'` : `${searchExpression(def)} ilike '%abc%'`
      const r = await sql.raw<Record<string, string>>(`explain select t.id from ${def.table} t where ${where}`).execute(tx)
      return r.rows.map((row) => Object.values(row)[0]).join('\n')
    })
    expect(plan).not.toMatch(/Seq Scan/)
    expect(plan).toMatch(/Index/)
  })
})
