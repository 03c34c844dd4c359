import { describe, expect, it, vi } from 'vitest'
import { parseField, type FieldMeta } from '../../api/metadata.ts'
import { relatedSourceFor, reportMissingSources, sourceFromRef, withRelatedSources } from './related.ts'

const f = (name: string, info: Record<string, unknown>): FieldMeta => parseField(name, info)

describe('related-field picker sources', () => {
  const groups = f('groups', { type: 'm2m_related_field' })
  const hinted = f('groups', { type: 'm2m_related_field', related: { model: 'users.usergroup', url: '/api/v1/users/groups/', label: 'name' } })
  const declared = { groups: { url: '/declared/', model: 'users.usergroup' } }

  it('reads the OPTIONS hint of our server (and ignores a malformed one)', () => {
    expect(hinted.related).toEqual({ model: 'users.usergroup', url: '/api/v1/users/groups/', label: 'name' })
    expect(f('x', { type: 'field', related: { url: 'http://elsewhere/' } }).related).toBeUndefined()
  })

  it('takes the page override, else the manifest declaration, else the hint', () => {
    expect(relatedSourceFor(hinted, { related: { url: '/override/' } }, declared)?.url).toBe('/override/')
    expect(relatedSourceFor(hinted, undefined, declared)?.url).toBe('/declared/')
    expect(relatedSourceFor(hinted, undefined, {})?.url).toBe('/api/v1/users/groups/')
    expect(relatedSourceFor(groups, undefined, declared)?.url).toBe('/declared/')
    expect(relatedSourceFor(groups, undefined, undefined)).toBeUndefined()
  })

  it('takes the hint URL when it narrows the declared list by a query (the platforms of a custom asset)', () => {
    const platforms = { platform: { url: '/api/v1/assets/platforms/', model: 'assets.platform', label: 'name' } }
    const narrowed = f('platform', { type: 'object_related_field', related: { model: 'assets.platform', url: '/api/v1/assets/platforms/?category=custom', label: 'name' } })
    expect(relatedSourceFor(narrowed, undefined, platforms)?.url).toBe('/api/v1/assets/platforms/?category=custom')
    // another list (a subset the manifest knows better) keeps the declaration
    const other = f('platform', { type: 'object_related_field', related: { url: '/api/v1/other/?x=1' } })
    expect(relatedSourceFor(other, undefined, platforms)?.url).toBe('/api/v1/assets/platforms/')
  })

  it('labels rows by the hinted label field', () => {
    const role = f('system_roles', { type: 'm2m_related_field', related: { url: '/r/', label: 'display_name' } })
    expect(relatedSourceFor(role, undefined, undefined)?.label?.({ id: 1, name: 'SystemAdmin', display_name: 'System administrator' })).toBe('System administrator')
  })

  it('labels rows by a template of fields (labels: name and value)', () => {
    const source = sourceFromRef({ url: '/api/v1/assets/labels/', label: '{name}:{value}' })
    expect(source.label?.({ id: 1, name: 'env', value: 'prod' })).toBe('env:prod')
  })

  it('fills every related field of a form and names those without a source', () => {
    const fields = [groups, f('user', { type: 'object_related_field' }), f('org', { type: 'object_related_field', read_only: true }), f('name', { type: 'string' })]
    const { overrides, missing } = withRelatedSources(fields, { name: { label: { id: 'n' } } }, declared)
    expect(overrides.groups?.related?.url).toBe('/declared/')
    expect(overrides.name).toEqual({ label: { id: 'n' } })
    expect(missing).toEqual(['user'])
  })

  it('reports a missing source loudly, once', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    reportMissingSources('/api/v1/x/', ['user'])
    reportMissingSources('/api/v1/x/', ['user'])
    expect(error).toHaveBeenCalledTimes(1)
    expect(String(error.mock.calls[0]![0])).toMatch(/"user" of \/api\/v1\/x\/ has no picker source/)
    error.mockRestore()
  })
})
