/**
 * Every resource refuses wrong types, unknown choices, unknown related ids, duplicates and too-long strings with
 * 400 field errors, ignores writes to read-only fields, and never answers 5xx. The bad values are derived from
 * each resource's own OPTIONS metadata, so new fields are covered automatically.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROLE_IDS } from '../rbac/catalog.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'

type Body = Record<string, unknown>
interface Case { path: string; valid: (i: number) => Promise<Body> | Body; unique?: string[] }

const MISSING = '00000000-1111-2222-3333-444444444444'

function badValues(info: Record<string, any>): unknown[] {
  const tooLong = info.max_length ? ['x'.repeat(info.max_length + 1)] : []
  switch (info.type) {
    case 'string': case 'email': return [{ a: 1 }, ['x'], true, ...tooLong, ...(info.type === 'email' ? ['not-an-email'] : [])]
    case 'integer': return ['abc', 1.5, { a: 1 }, 1e12, true]
    case 'boolean': return ['maybe', { a: 1 }, [true], 2]
    case 'datetime': return ['not a date', 12345, { a: 1 }, '2023-02-30T00:00:00Z']
    case 'choice': case 'labeled_choice': return ['no-such-choice', { value: 'zzz' }, [1], 3.5]
    case 'm2m_related_field': return [[MISSING], 'x', [{}], 5, [true]]
    case 'object_related_field': case 'field': return [MISSING, {}, [], 3.5, 'junk']
    case 'list': return ['x', { a: 1 }, 5]
    case 'nested object': return ['x', [1], 5]
    default: return []
  }
}

describe(`bad input on every resource (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  const spareUsers: string[] = []

  beforeAll(async () => {
    t = await createTestServer()
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    for (let i = 0; i < 12; i++) spareUsers.push(await t.createUser({ username: `spare${i}`, orgRoles: [] }))
  })
  afterAll(async () => { await t.close() })

  let groupId = ''
  const cases: Case[] = [
    { path: '/api/v1/users/users/', valid: (i) => ({ name: `n${i}`, username: `bad${i}`, email: `bad${i}@example.com` }), unique: ['username', 'email'] },
    { path: '/api/v1/users/groups/', valid: (i) => ({ name: `group${i}` }), unique: ['name'] },
    {
      path: '/api/v1/users/users-groups-relations/',
      valid: async (i) => {
        if (!groupId) groupId = (await admin.post('/api/v1/users/groups/', { name: 'rel-target' })).json().id
        const u = await t.createUser({ username: `rel${i}` })
        return { user: u, usergroup: groupId }
      },
    },
    { path: '/api/v1/rbac/system-roles/', valid: (i) => ({ name: `srole${i}` }), unique: ['name'] },
    { path: '/api/v1/rbac/org-roles/', valid: (i) => ({ name: `orole${i}` }), unique: ['name'] },
    { path: '/api/v1/rbac/roles/', valid: (i) => ({ name: `role${i}`, scope: 'org' }) },
    { path: '/api/v1/rbac/system-role-bindings/', valid: (i) => ({ user: spareUsers[i % 6], role: ROLE_IDS.SystemAuditor }) },
    { path: '/api/v1/rbac/org-role-bindings/', valid: (i) => ({ user: spareUsers[6 + (i % 6)], role: ROLE_IDS.OrgAuditor }) },
    { path: '/api/v1/orgs/orgs/', valid: (i) => ({ name: `org${i}` }), unique: ['name'] },
    { path: '/api/v1/acls/login-acls/', valid: (i) => ({ name: `acl${i}`, user: spareUsers[0] }) },
  ]

  for (const c of cases) {
    it(`${c.path}: bad values per field give 400 on that field, read-only writes are ignored`, async () => {
      const meta = (await admin.options(c.path)).json()
      const post = meta.actions.POST as Record<string, Record<string, any>>
      let n = 0
      const base = await c.valid(n++)
      for (const [name, info] of Object.entries(post)) {
        if (info.read_only) continue
        for (const bad of badValues(info)) {
          const r = await admin.post(c.path, { ...base, [name]: bad })
          expect(r.statusCode, `${name}=${JSON.stringify(bad).slice(0, 40)} → ${r.body.slice(0, 200)}`).toBe(400)
          expect(Object.keys(r.json()), `${name}=${JSON.stringify(bad).slice(0, 40)}`).toContain(name)
        }
      }
      // every garbage body shape is a 400, never a 5xx
      for (const body of [[1], 'text', 7, null, [null], [{ id: 'x' }]]) {
        const r = await admin.request({ method: 'POST', url: c.path, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
        expect(r.statusCode, JSON.stringify(body)).toBeLessThan(500)
      }
      // read-only fields are ignored on create and update
      const junk: Body = {}
      for (const [name, info] of Object.entries(post)) if (info.read_only && name !== 'id') junk[name] = info.type === 'integer' ? 987654 : 'junk'
      const created = await admin.post(c.path, { ...(await c.valid(n++)), ...junk, id: MISSING })
      expect(created.statusCode, created.body).toBe(201)
      const obj = created.json()
      expect(obj.id).not.toBe(MISSING)
      for (const name of Object.keys(junk)) if (name in obj) expect(obj[name], name).not.toBe(junk[name])
      const patched = await admin.patch(`${c.path}${obj.id}/`, junk)
      expect(patched.statusCode, patched.body).toBeLessThan(500)
      // (date_updated moves on every save, as Django's auto_now does)
      for (const name of Object.keys(junk)) if (patched.statusCode === 200 && name in obj && name !== 'date_updated') expect(patched.json()[name], name).toEqual(obj[name])
      // duplicates
      for (const field of c.unique ?? []) {
        const dup = await admin.post(c.path, { ...(await c.valid(n++)), [field]: obj[field] })
        expect(dup.statusCode).toBe(400)
        expect(dup.json()[field]).toEqual(['This field must be unique.'])
      }
      // bad PATCH values on an existing object
      for (const [name, info] of Object.entries(post)) {
        if (info.read_only) continue
        const bad = badValues(info)[0]
        if (bad === undefined) continue
        const r = await admin.patch(`${c.path}${obj.id}/`, { [name]: bad })
        expect([400, 403, 405], `${name} ${r.body}`).toContain(r.statusCode)
      }
    })
  }
})
