import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '@lingui/core'
import { activateEnglish, fakeFetch } from '../ui/common/testing.ts'
import { fieldsOf, formFields, invalidateMetadata, loadMetadata, parseField, parseMetadata } from './metadata.ts'

const OPTIONS = {
  name: 'User List',
  description: '',
  actions: {
    GET: {
      id: { type: 'string', required: false, read_only: true, write_only: false, label: 'ID', filter: true },
      name: { type: 'string', required: true, read_only: false, write_only: false, label: 'Name', max_length: 128, order: true },
      is_active: { type: 'boolean', required: false, read_only: false, write_only: false, label: 'Active', default: true, filter: true },
      source: { type: 'labeled_choice', required: false, read_only: true, write_only: false, label: 'Source', choices: [{ value: 'local', label: 'Local' }, { value: 'ldap', label: 'LDAP' }] },
      status: { type: 'choice', required: false, read_only: false, write_only: false, label: 'Status', choices: [{ value: true, label: 'Success' }, { value: 0, display_name: 'Zero' }, { label: 'no value' }] },
    },
    POST: {
      protocols: {
        type: 'field', required: false, read_only: false, write_only: false, label: 'Protocols',
        child: { type: 'nested object', required: true, read_only: false, write_only: false, children: {
          name: { type: 'string', required: true, read_only: false, write_only: false, label: 'Name' },
          port: { type: 'integer', required: true, read_only: false, write_only: false, label: 'Port', min_value: 1, max_value: 65535 },
        } },
      },
      actions: { type: 'tree', required: false, read_only: false, write_only: false, label: 'Actions', tree: [{ value: 'All', label: 'All', children: [{ value: 'connect', label: 'Connect' }] }] },
      weird: { type: 'hyperlink', required: false, read_only: false, write_only: false },
      password: { type: 'string', required: false, read_only: false, write_only: true, label: 'Password', help_text: 'Secret' },
    },
    PUT: { name: { type: 'string', required: true, read_only: false, write_only: false, label: 'Name' } },
  },
}

describe('parseMetadata', () => {
  it('keeps server field order per method and reads every info key', () => {
    const meta = parseMetadata(OPTIONS)
    expect(meta.name).toBe('User List')
    expect(fieldsOf(meta, 'GET').map((f) => f.name)).toEqual(['id', 'name', 'is_active', 'source', 'status'])
    const name = fieldsOf(meta, 'GET')[1]!
    expect(name).toMatchObject({ type: 'string', required: true, readOnly: false, maxLength: 128, order: true, filter: false, hasDefault: false })
    const active = fieldsOf(meta, 'GET')[2]!
    expect(active).toMatchObject({ type: 'boolean', default: true, hasDefault: true, filter: true })
  })

  it('keeps choice value types, takes display_name as label, drops choices without a value', () => {
    const status = fieldsOf(parseMetadata(OPTIONS), 'GET')[4]!
    expect(status.choices).toEqual([{ value: true, label: 'Success' }, { value: 0, label: 'Zero' }])
  })

  it('parses child, children, tree, write_only and help_text; unknown types become unknown', () => {
    const post = fieldsOf(parseMetadata(OPTIONS), 'POST')
    const protocols = post[0]!
    expect(protocols.child?.type).toBe('nested object')
    expect(protocols.child?.children?.map((c) => [c.name, c.type, c.minValue, c.maxValue])).toEqual([['name', 'string', undefined, undefined], ['port', 'integer', 1, 65535]])
    expect(post[1]!.tree).toEqual([{ value: 'All', label: 'All', children: [{ value: 'connect', label: 'Connect' }] }])
    expect(post[2]!).toMatchObject({ type: 'unknown', label: 'weird' })
    expect(post[3]!).toMatchObject({ writeOnly: true, helpText: 'Secret' })
  })

  it('survives garbage', () => {
    expect(parseMetadata(null)).toEqual({ name: '', description: '', actions: {} })
    expect(parseMetadata({ actions: { GET: [1, 2], POST: 'x' } }).actions).toEqual({})
    expect(parseField('x', 5)).toMatchObject({ name: 'x', type: 'unknown', required: false })
  })

  it('formFields takes the first method present', () => {
    const meta = parseMetadata(OPTIONS)
    expect(formFields(meta, ['PATCH', 'PUT']).map((f) => f.name)).toEqual(['name'])
    expect(formFields(meta, ['PATCH'])).toEqual([])
  })
})

describe('loadMetadata', () => {
  beforeEach(() => {
    activateEnglish()
    invalidateMetadata()
  })
  afterEach(() => vi.unstubAllGlobals())

  it('caches per URL, organization and language; invalidates on demand', async () => {
    const sent = fakeFetch({ 'OPTIONS /api/v1/users/users/': () => OPTIONS })
    await loadMetadata('/api/v1/users/users/', 'org-a')
    await loadMetadata('/api/v1/users/users/', 'org-a')
    expect(sent).toHaveLength(1)
    await loadMetadata('/api/v1/users/users/', 'org-b')
    expect(sent).toHaveLength(2)
    i18n.loadAndActivate({ locale: 'zh', messages: {} })
    await loadMetadata('/api/v1/users/users/', 'org-b')
    expect(sent).toHaveLength(3)
    activateEnglish()
    invalidateMetadata('/api/v1/users/users/')
    await loadMetadata('/api/v1/users/users/', 'org-a')
    expect(sent).toHaveLength(4)
  })

  it('does not cache a failure', async () => {
    let fail = true
    const sent = fakeFetch({ 'OPTIONS /api/v1/x/': () => (fail ? new Response('', { status: 500 }) : OPTIONS) })
    await expect(loadMetadata('/api/v1/x/')).rejects.toBeTruthy()
    fail = false
    const meta = await loadMetadata('/api/v1/x/')
    expect(meta.name).toBe('User List')
    expect(sent).toHaveLength(2)
  })
})
