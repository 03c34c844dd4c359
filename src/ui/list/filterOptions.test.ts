import { describe, expect, it } from 'vitest'
import { parseField } from '../../api/metadata.ts'
import { filterOptions, filterTagText } from './filterOptions.ts'

const fields = [
  parseField('id', { type: 'string', label: 'ID', filter: true }),
  parseField('name', { type: 'string', label: 'Name', order: true }),
  parseField('is_active', { type: 'boolean', label: 'Active', filter: true }),
  parseField('source', { type: 'labeled_choice', label: 'Source', filter: true, choices: [{ value: 'local', label: 'Local' }] }),
  parseField('mfa_level', { type: 'choice', label: 'MFA', filter: true, choices: [{ value: 0, label: 'Disable' }] }),
]
const labels = { yes: 'Yes', no: 'No' }

describe('filterOptions', () => {
  it('offers filter fields only: booleans as Yes/No, choices as their labels, others as text', () => {
    expect(filterOptions(fields, labels, ['id'])).toEqual([
      { name: 'is_active', label: 'Active', values: [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }] },
      { name: 'source', label: 'Source', values: [{ value: 'local', label: 'Local' }] },
      { name: 'mfa_level', label: 'MFA', values: [{ value: '0', label: 'Disable' }] },
    ])
    expect(filterOptions(fields, labels).map((o) => o.name)).toEqual(['id', 'is_active', 'source', 'mfa_level'])
  })
  it('tag text uses labels', () => {
    const options = filterOptions(fields, labels)
    expect(filterTagText(options, 'is_active', 'false')).toBe('Active: No')
    expect(filterTagText(options, 'id', 'abc')).toBe('ID: abc')
    expect(filterTagText(options, 'user', 'u1')).toBe('user: u1')
  })
})
