import { describe, expect, it } from 'vitest'
import { msg } from '@lingui/core/macro'
import { parseField } from '../../api/metadata.ts'
import type { Row } from '../../api/resources.ts'
import type { FormValues } from './validators.ts'
import { buildPayload, cloneValues, followVariants, initialValues, isUuid, layoutGroups, relatedLabels, toDateTimeInput } from './formModel.ts'

const f = (name: string, info: Record<string, unknown>) => parseField(name, { required: false, read_only: false, write_only: false, ...info })

const fields = [
  f('id', { type: 'string', read_only: true }),
  f('name', { type: 'string', max_length: 128, required: true }),
  f('mfa_level', { type: 'labeled_choice', choices: [{ value: 0, label: 'Disable' }, { value: 1, label: 'Enable' }], default: 0 }),
  f('groups', { type: 'm2m_related_field' }),
  f('org', { type: 'object_related_field' }),
  f('is_active', { type: 'boolean', default: true }),
  f('date_expired', { type: 'datetime' }),
  f('rules', { type: 'nested object', children: { ip_group: { type: 'list', child: { type: 'string' }, default: ['*'] }, priority: { type: 'integer', default: 50 } } }),
  f('meta', { type: 'json' }),
  f('password', { type: 'string', write_only: true, max_length: 128 }),
  f('ports', { type: 'field', child: { type: 'nested object', children: { name: { type: 'string', max_length: 8 }, port: { type: 'integer' } } } }),
]

describe('initialValues', () => {
  it('flattens the object: labeled choices and related objects to values, dates for the input, JSON to text', () => {
    const object = {
      id: 'u1', name: 'alice', mfa_level: { value: 1, label: 'Enable' }, groups: [{ id: 'g1', name: 'ops' }], org: { id: 'o1', name: 'Default' },
      is_active: false, date_expired: '2093/04/26 14:36:00 +0000', rules: { ip_group: ['10.0.0.0/8'], priority: 10 }, meta: { a: 1 },
      ports: [{ name: 'ssh', port: 22 }],
    }
    const v = initialValues(fields, {}, object)
    expect(v).toMatchObject({ name: 'alice', mfa_level: 1, groups: ['g1'], org: 'o1', is_active: false, rules: { ip_group: ['10.0.0.0/8'], priority: '10' }, meta: '{\n  "a": 1\n}', ports: [{ name: 'ssh', port: '22' }] })
    expect(v.date_expired).toBe(toDateTimeInput(new Date('2093-04-26T14:36:00Z')))
    expect(v.password).toBe('')
  })
  it('fills defaults recursively on create, and takes the page initial values first', () => {
    const v = initialValues(fields, {}, undefined, { name: 'preset' })
    expect(v).toMatchObject({ name: 'preset', mfa_level: 0, is_active: true, groups: [], org: null, rules: { ip_group: ['*'], priority: '50' }, ports: [] })
  })
  it('checks a bit-field tree\'s default choices (a new asset permission starts with every action)', () => {
    const actions = f('actions', { type: 'tree', default: ['connect', 'upload'], tree: [{ value: 'All', label: 'All', children: [{ value: 'connect', label: 'Connect' }, { value: 'upload', label: 'Upload' }] }] })
    expect(initialValues([actions], {})).toEqual({ actions: ['connect', 'upload'] })
  })
  it('collects labels of related objects', () => {
    expect(relatedLabels({ groups: [{ id: 'g1', name: 'ops' }], org: { id: 'o1', name: 'Default' }, name: 'x' })).toEqual({ groups: { g1: 'ops' }, org: { o1: 'Default' } })
    const overrides = { groups: { related: { url: '/g/', label: (r: Row) => `[${String(r.name)}]` } } }
    expect(relatedLabels({ groups: [{ id: 'g1', name: 'ops' }] }, overrides)).toEqual({ groups: { g1: '[ops]' } })
  })
})

describe('cloneValues', () => {
  it('marks name, or hostname when there is no name, without inventing a name', () => {
    expect(cloneValues({ name: 'web' }, 'Duplicate from ')).toEqual({ name: 'Duplicate from web' })
    expect(cloneValues({ hostname: 'h1' }, 'Duplicate from ')).toEqual({ hostname: 'Duplicate from h1' })
    expect(cloneValues({ hostname: 'h1' }, 'Duplicate from ')).not.toHaveProperty('name')
  })
})

describe('buildPayload', () => {
  const all = () => true
  const encrypt = (s: string) => `enc(${s})`
  it('sends writable visible fields converted back, encrypts secrets, skips empty secrets', () => {
    const values = initialValues(fields, {}, undefined, { name: 'bob', password: 's3cret', meta: '{"k": [1]}' })
    values.date_expired = '2030-01-02T03:04'
    values.ports = [{ name: 'ssh', port: '2222' }]
    const body = buildPayload(fields, {}, values, { visible: (n) => n !== 'org', encrypt })
    expect(body).toEqual({
      name: 'bob', mfa_level: 0, groups: [], is_active: true, date_expired: new Date('2030-01-02T03:04').toISOString(),
      rules: { ip_group: ['*'], priority: 50 }, meta: { k: [1] }, password: 'enc(s3cret)', ports: [{ name: 'ssh', port: 2222 }],
    })
    const noPassword = buildPayload(fields, {}, { ...values, password: '' }, { visible: all, encrypt })
    expect(noPassword).not.toHaveProperty('password')
    expect(noPassword).not.toHaveProperty('id')
  })
  it('leaves out an empty optional JSON field so the server keeps its default', () => {
    const values = initialValues(fields, {}, undefined, { name: 'bob' })
    values.meta = '  '
    expect(buildPayload(fields, {}, values, { visible: all, encrypt })).not.toHaveProperty('meta')
  })
})

describe('layoutGroups', () => {
  it('keeps order, groups tuples, drops unknown names; __all__ is every writable field', () => {
    const basic = msg`Basic`
    expect(layoutGroups(fields, ['name', [basic, ['mfa_level', 'gone']], 'is_active'])).toEqual([
      { names: ['name'] }, { title: basic, names: ['mfa_level'] }, { names: ['is_active'] },
    ])
    expect(layoutGroups(fields, '__all__')[0]!.names).not.toContain('id')
  })
  it('isUuid', () => {
    expect(isUuid('00000000-0000-0000-0000-000000000002')).toBe(true)
    expect(isUuid('new-group')).toBe(false)
  })
})

describe('rows whose sub-fields depend on a sibling (variants) and secret sub-values', () => {
  const protocols = f('protocols', { type: 'field', child: { type: 'nested object', children: {
    name: { type: 'string', max_length: 32 }, port: { type: 'integer' },
    setting: { type: 'nested object', default: {}, children_from: 'name', variants: {
      ssh: { sftp_enabled: { type: 'boolean', default: true }, sftp_home: { type: 'string', max_length: 256, default: '/tmp' } },
      rdp: { security: { type: 'choice', default: 'any', choices: [{ value: 'any', label: 'Any' }, { value: 'nla', label: 'NLA' }] } },
    } },
  } } })
  const children = protocols.child!.children!
  it("reads each row's setting with its protocol's keys and sends them back", () => {
    const v = initialValues([protocols], {}, { protocols: [{ name: 'ssh', port: 22, setting: { sftp_enabled: false, sftp_home: '/srv' } }, { name: 'vnc', port: 5900, setting: {} }] })
    expect(v.protocols).toEqual([{ name: 'ssh', port: '22', setting: { sftp_enabled: false, sftp_home: '/srv' } }, { name: 'vnc', port: '5900', setting: {} }])
    expect(buildPayload([protocols], {}, v, { visible: () => true, encrypt: (s) => s }).protocols).toEqual([
      { name: 'ssh', port: 22, setting: { sftp_enabled: false, sftp_home: '/srv' } }, { name: 'vnc', port: 5900, setting: {} },
    ])
  })
  it('a changed name swaps the keys: same-named values kept, the others their defaults', () => {
    expect(followVariants(children, { name: 'rdp', port: '22', setting: { sftp_enabled: false } })).toEqual({ name: 'rdp', port: '22', setting: { security: 'any' } })
    expect(followVariants(children, { name: 'ssh', port: '22', setting: { sftp_enabled: false } })).toEqual({ name: 'ssh', port: '22', setting: { sftp_enabled: false, sftp_home: '/tmp' } })
  })
  it('encrypts secret sub-values, leaves empty ones and hidden sub-fields out', () => {
    const accounts = f('accounts', { type: 'field', write_only: true, child: { type: 'nested object', children: {
      template: { type: 'field' }, username: { type: 'string', max_length: 128 }, secret: { type: 'string', write_only: true, max_length: 16384 },
    } } })
    const overrides = { accounts: { fields: { template: { hidden: (row: FormValues) => !row.$t }, username: { hidden: (row: FormValues) => row.$t === true }, secret: { hidden: (row: FormValues) => row.$t === true } } } }
    const body = buildPayload([accounts], overrides, { accounts: [{ username: 'root', secret: 'pw' }, { username: 'x', secret: '' }, { $t: true, template: 't1', username: 'ignored' }] }, { visible: () => true, encrypt: (s) => `enc(${s})` })
    expect(body.accounts).toEqual([{ username: 'root', secret: 'enc(pw)' }, { username: 'x' }, { template: 't1' }])
  })
})
