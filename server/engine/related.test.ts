/** The related-field hint of OPTIONS: derived from `relation.resource` through the registry, no per-resource code. */
import { afterAll, describe, expect, it } from 'vitest'
import { fieldInfo, relatedHint } from './fields.ts'
import { defineResource, forgetResource } from './registry.ts'
import type { Ctx, FieldDef, ResourceDef, TableName } from './types.ts'

const target: ResourceDef = defineResource({
  name: 'demo.gadget', app: 'demo', model: 'gadget', verboseName: 'Gadget', path: '/api/v1/demo/gadgets/', table: 'gadgets' as TableName, // no table: OPTIONS only
  fields: [{ name: 'id', type: 'uuid', read_only: true }, { name: 'name', type: 'string' }, { name: 'display_name', type: 'string' }],
})
const ctx = { lang: 'en' } as Ctx
// Other test files of this worker share the registry: the demo resource must not reach their servers.
afterAll(() => forgetResource(target.name))

describe('related hint', () => {
  it('names the target model, its list URL and the attribute that names an object', () => {
    const fk: FieldDef = { name: 'gadget', type: 'fk', label: 'Gadget', relation: { resource: 'demo.gadget' } }
    expect(fieldInfo(fk, ctx).related).toEqual({ model: 'demo.gadget', url: target.path, label: 'name' })
    const m2m: FieldDef = { name: 'gadgets', type: 'm2m', relation: { resource: 'demo.gadget', attrs: ['id', 'display_name'] } }
    expect(fieldInfo(m2m, ctx).related).toEqual({ model: 'demo.gadget', url: target.path, label: 'display_name' })
    const pk: FieldDef = { name: 'gadget', type: 'pk', relation: { resource: 'demo.gadget' } }
    expect(fieldInfo(pk, ctx)).toMatchObject({ type: 'field', related: { url: '/api/v1/demo/gadgets/' } })
  })

  it('is absent on plain fields and when the target is not registered (the conformance checks report that)', () => {
    expect(fieldInfo({ name: 'name', type: 'string' }, ctx)).not.toHaveProperty('related')
    expect(relatedHint({ name: 'x', type: 'fk', relation: { resource: 'nowhere.thing' } })).toBeUndefined()
    expect(fieldInfo({ name: 'x', type: 'fk', relation: { resource: 'nowhere.thing' } }, ctx)).not.toHaveProperty('related')
  })
})
