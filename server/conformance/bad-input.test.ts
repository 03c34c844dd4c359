/**
 * Bad input on every resource, generated from its OPTIONS metadata (no hand-kept list): wrong types, unknown
 * choices, empty strings for choices, unknown related ids, too-long strings, NUL bytes → 400 naming the field;
 * read-only fields ignored; duplicates of unique fields refused; garbage bodies and list parameters never 5xx.
 */
import { describe, expect, it } from 'vitest'
import { allows } from '../engine/routes.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { dbKind } from '../testing.ts'
import { badValues, conformanceServer, Factory, MISSING_UUID, type Body, type Info } from './harness.ts'

const s = await conformanceServer()
const RESOURCES = s.resources

const short = (v: unknown) => JSON.stringify(v)?.slice(0, 40)

describe(`bad input on every resource (${dbKind()})`, () => {
  const org = ORG_IDS.DEFAULT

  const writable = RESOURCES.filter((d) => allows(d, 'create'))

  it.each(writable.map((d) => [d.path, d] as const))('%s: bad values give 400 on their field, read-only fields are ignored', async (path, def) => {
    const f = new Factory(s.admin)
    const problems: string[] = []
    const post = await f.postFields(def, org)
    let base = await f.body(def, org)
    for (const [name, info] of Object.entries(post)) {
      if (info.read_only) continue
      for (const { why, value } of badValues(info)) {
        const r = await s.admin.post(path, { ...base, [name]: value })
        const ok = r.statusCode === 400 && Object.keys(r.json() ?? {}).includes(name)
        if (!ok) problems.push(`POST ${name}=${short(value)} (${why}) → ${r.statusCode} ${r.body.slice(0, 160)}`)
        if (r.statusCode === 201) base = await f.body(def, org) // the wrongly created object holds base's unique values
      }
    }
    // Every garbage body shape is a 400, never a 5xx.
    for (const body of [[1], 'text', 7, null, [null], [{ id: 'x' }], { [`a\u0000`]: 1 }]) {
      const r = await s.admin.request({ method: 'POST', url: path, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
      if (r.statusCode >= 500) problems.push(`POST body ${short(body)} → ${r.statusCode}`)
    }
    // Read-only fields are ignored on create and update.
    const junk: Body = {}
    for (const [name, info] of Object.entries(post)) if (info.read_only && name !== 'id') junk[name] = info.type === 'integer' ? 987654 : 'junk'
    // The id is the server's, unless OPTIONS declares it writable (terminal sessions: the component names it).
    const idWritable = post.id !== undefined && !post.id.read_only
    const created = await s.admin.post(path, { ...(await f.body(def, org)), ...junk, ...(idWritable ? {} : { id: MISSING_UUID }) })
    expect(created.statusCode, created.body).toBe(201)
    const obj = created.json()
    if (!idWritable) expect(obj.id).not.toBe(MISSING_UUID)
    for (const name of Object.keys(junk)) if (name in obj && obj[name] === junk[name]) problems.push(`read-only ${name} written on create`)
    if (allows(def, 'update')) {
      // the object as read back (a create may answer a secret once, e.g. an API key's: later reads mask it)
      const shown = allows(def, 'retrieve') ? { ...obj, ...(await s.admin.get(`${path}${obj.id}/`)).json() } : obj
      const patched = await s.admin.patch(`${path}${obj.id}/`, junk)
      if (patched.statusCode !== 200) problems.push(`PATCH read-only fields → ${patched.statusCode} ${patched.body.slice(0, 160)}`)
      else {
        // (date_updated moves on every save, as Django's auto_now does)
        for (const name of Object.keys(junk)) {
          if (name in obj && name !== 'date_updated' && JSON.stringify(patched.json()[name]) !== JSON.stringify(shown[name])) problems.push(`read-only ${name} written on update`)
        }
      }
      // Bad values on an existing object.
      const patchFields = (await s.admin.options(`${path}${obj.id}/`)).json().actions.PATCH as Record<string, Info>
      for (const [name, info] of Object.entries(patchFields)) {
        if (info.read_only) continue
        for (const { why, value } of badValues(info)) {
          const r = await s.admin.patch(`${path}${obj.id}/`, { [name]: value })
          if (!(r.statusCode === 400 && Object.keys(r.json() ?? {}).includes(name))) problems.push(`PATCH ${name}=${short(value)} (${why}) → ${r.statusCode} ${r.body.slice(0, 160)}`)
        }
      }
      const after = (await s.admin.get(`${path}${obj.id}/`)).json()
      for (const [name, v] of Object.entries(shown)) {
        if (name !== 'date_updated' && JSON.stringify(after[name]) !== JSON.stringify(v)) problems.push(`refused PATCHes changed ${name}`)
      }
    }
    // Duplicates of unique fields (the declaration's `unique`).
    for (const field of def.fields.filter((x) => x.unique)) {
      const dup = await s.admin.post(path, await f.body(def, org, { [field.name]: obj[field.name] }))
      if (dup.statusCode !== 400 || JSON.stringify(dup.json()[field.name]) !== JSON.stringify(['This field must be unique.'])) {
        problems.push(`duplicate ${field.name} → ${dup.statusCode} ${dup.body.slice(0, 160)}`)
      }
    }
    expect(problems).toEqual([])
  })

  it.each(RESOURCES.map((d) => [d.path, d] as const))('%s: bad list parameters never give a 5xx', async (path) => {
    const problems: string[] = []
    const get = (await s.admin.options(path)).json().actions.GET as Record<string, Info> | undefined
    const values = ['x', '\u0000', '-1', MISSING_UUID, '9'.repeat(40), 'z'.repeat(2000)]
    const params: string[] = []
    for (const [name, info] of Object.entries(get ?? {})) {
      if (info.filter) for (const v of values) params.push(`${name}=${encodeURIComponent(v)}`)
      if (info.order) params.push(`order=${name}`, `order=-${name}`)
    }
    for (const v of values) params.push(`search=${encodeURIComponent(v)}`, `order=${encodeURIComponent(v)}`, `limit=${encodeURIComponent(v)}`, `offset=${encodeURIComponent(v)}`,
      `ids=${encodeURIComponent(v)}`, `spm=${encodeURIComponent(v)}`, `date_from=${encodeURIComponent(v)}`, `fields_size=${encodeURIComponent(v)}`)
    for (const p of params) {
      const r = await s.admin.get(`${path}?${p}`)
      if (r.statusCode !== 200 && r.statusCode !== 400) problems.push(`GET ?${p.slice(0, 60)} → ${r.statusCode} ${r.body.slice(0, 120)}`)
    }
    expect(problems).toEqual([])
  })
})
