/**
 * Every registered resource passes the declaration and OPTIONS checks (server/conformance/checks.ts), and the
 * checks are shown to fail: a throw-away resource with an untranslated label and a related field whose target
 * is not registered is reported by both.
 */
import { describe, expect, it } from 'vitest'
import { allows, registerResource } from '../engine/routes.ts'
import type { ResourceDef } from '../engine/types.ts'
import { forgetResource } from '../engine/registry.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { idField } from '../resources/common.ts'
import { buildApp } from '../app.ts'
import { createTestServer, dbKind, TestClient } from '../testing.ts'
import { declarationProblems } from './checks.ts'
import { byName, conformanceServer, Factory, fetchOptionsProblems } from './harness.ts'

const s = await conformanceServer()
const RESOURCES = s.resources

const lookup = (name: string) => byName(name)

describe('resource declarations', () => {
  it('names and list URLs are unique', () => {
    expect(new Set(RESOURCES.map((d) => d.name)).size).toBe(RESOURCES.length)
    expect(new Set(RESOURCES.map((d) => d.path)).size).toBe(RESOURCES.length)
  })

  it.each(RESOURCES.map((d) => [d.name, d] as const))('%s: translated texts, picker sources, catalogue permissions, real field names', (_name, def) => {
    expect(declarationProblems(def, lookup)).toEqual([])
  })
})

describe(`OPTIONS of every resource (${dbKind()})`, () => {

  it.each(RESOURCES.map((d) => [d.path, d] as const))('%s: shape of contract §2, related hints, zh and ja labels (list and detail URL)', async (path, def) => {
    expect(await fetchOptionsProblems(s.admin, path)).toEqual([])
    expect(await fetchOptionsProblems(s.admin, path, ORG_IDS.ROOT)).toEqual([])
    if (allows(def, 'retrieve')) {
      const obj = await new Factory(s.admin).objectOrMissing(def, ORG_IDS.DEFAULT)
      expect(await fetchOptionsProblems(s.admin, `${path}${obj.id}/`)).toEqual([])
    }
  })

  it.each(RESOURCES.map((d) => [d.path, d] as const))('%s: every related hint names a registered list the admin can read', async (path) => {
    const meta = (await s.admin.options(path)).json()
    const infos = Object.entries(meta.actions as Record<string, Record<string, { related?: { url: string; model: string; label: string } }>>)
      .flatMap(([method, fields]) => Object.entries(fields).map(([name, info]) => ({ at: `${method} ${name}`, related: info.related })))
      .filter((x) => x.related)
    for (const { at, related } of infos) {
      const target = RESOURCES.find((d) => d.path === related!.url.split('?')[0])
      expect(target, at).toBeDefined()
      expect(related!.model, at).toBe(`${target!.app}.${target!.model}`)
      const list = await s.admin.get(`${related!.url}${related!.url.includes('?') ? '&' : '?'}limit=1`)
      expect(list.statusCode, at).toBe(200)
      const first = list.json().results[0]
      if (first) expect(first, `${at}: label attribute ${related!.label}`).toHaveProperty(related!.label)
    }
  })
})

describe(`the checks catch a broken resource (${dbKind()})`, () => {
  const throwaway: ResourceDef = {
    name: 'conformance.throwaway', app: 'users', model: 'usergroup', verboseName: 'User group',
    path: '/api/v1/conformance/throwaways/', table: 'user_groups',
    fields: [
      idField(),
      { name: 'name', type: 'string', label: 'Frobnication level', required: true, max_length: 64 },
      { name: 'gadget', type: 'fk', label: 'User', relation: { resource: 'nowhere.gadget' } },
    ],
  }

  it('reports the untranslated label and the related field without a picker source, in the declaration', () => {
    const problems = declarationProblems(throwaway, lookup)
    expect(problems).toContain('conformance.throwaway: field name: "Frobnication level" has no zh translation')
    expect(problems).toContain('conformance.throwaway: field name: "Frobnication level" has no ja translation')
    expect(problems).toContain('conformance.throwaway: field gadget: related resource nowhere.gadget is not registered (no picker source)')
  })

  it('reports both in the OPTIONS answer of a server on which it is registered', async () => {
    // A second app over the test server's database, with the throw-away resource registered before it is ready.
    const t = await createTestServer()
    const app = await buildApp({ config: t.config, database: t.database })
    await registerResource(app, throwaway)
    await app.ready()
    try {
      const admin = new TestClient(app, t.config)
      for (const [k, v] of (await t.as('admin')).jar) admin.jar.set(k, v)
      const problems = await fetchOptionsProblems(admin, throwaway.path)
      expect(problems).toContain('/api/v1/conformance/throwaways/: POST name: label "Frobnication level" is not translated to zh')
      expect(problems).toContain('/api/v1/conformance/throwaways/: POST name: label "Frobnication level" is not translated to ja')
      expect(problems).toContain('/api/v1/conformance/throwaways/: POST gadget: related field without a picker source (related)')
      expect(problems).toContain('/api/v1/conformance/throwaways/: GET gadget: related field without a picker source (related)')
    } finally {
      await app.close()
      await t.close()
      forgetResource(throwaway.name)
    }
  })
})
