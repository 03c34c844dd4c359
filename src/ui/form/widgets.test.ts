import { beforeAll, describe, expect, it } from 'vitest'
import { parseField } from '../../api/metadata.ts'
import { activateEnglish } from '../common/testing.ts'
import { chooseWidget, rulesFor, validatesOnBlur } from './widgets.ts'
import { runRules } from './validators.ts'

beforeAll(() => activateEnglish())
const f = (name: string, info: Record<string, unknown>) => parseField(name, { required: false, read_only: false, write_only: false, ...info })
const choices = (n: number) => Array.from({ length: n }, (_, i) => ({ value: i, label: `c${i}` }))

describe('chooseWidget', () => {
  it('chooses by metadata type', () => {
    expect(chooseWidget(f('x', { type: 'choice', choices: choices(4) }))).toBe('radio')
    expect(chooseWidget(f('x', { type: 'labeled_choice', choices: choices(5) }))).toBe('select')
    expect(chooseWidget(f('x', { type: 'multiple choice', choices: choices(2) }))).toBe('checkboxGroup')
    expect(chooseWidget(f('x', { type: 'tree', tree: [] }))).toBe('tree')
    expect(chooseWidget(f('x', { type: 'datetime' }))).toBe('datetime')
    expect(chooseWidget(f('x', { type: 'json' }))).toBe('json')
    expect(chooseWidget(f('time_period', { type: 'list' }))).toBe('timePeriod')
    expect(chooseWidget(f('time_period', { type: 'string' }))).toBe('textarea')
    expect(chooseWidget(f('x', { type: 'string', max_length: 128 }))).toBe('text')
    expect(chooseWidget(f('x', { type: 'string' }))).toBe('textarea')
    expect(chooseWidget(f('x', { type: 'string', write_only: true, max_length: 128 }))).toBe('password')
    expect(chooseWidget(f('x', { type: 'boolean' }))).toBe('switch')
    expect(chooseWidget(f('x', { type: 'list', child: { type: 'string' } }))).toBe('list')
    expect(chooseWidget(f('x', { type: 'list', child: { type: 'choice', choices: choices(2) } }))).toBe('checkboxGroup')
    expect(chooseWidget(f('x', { type: 'object_related_field' }))).toBe('related')
    expect(chooseWidget(f('x', { type: 'm2m_related_field' }))).toBe('relatedMulti')
    expect(chooseWidget(f('x', { type: 'nested object', children: { a: { type: 'string' } } }))).toBe('nested')
    expect(chooseWidget(f('x', { type: 'nested object', child: { type: 'string' } }))).toBe('json')
    expect(chooseWidget(f('x', { type: 'field', child: { type: 'nested object', children: {} } }))).toBe('nestedList')
    expect(chooseWidget(f('x', { type: 'integer' }))).toBe('number')
    expect(chooseWidget(f('x', { type: 'hyperlink' }))).toBe('text')
  })
  it('chooses by name, read-only, then override', () => {
    expect(chooseWidget(f('email', { type: 'string', max_length: 128 }))).toBe('email')
    expect(chooseWidget(f('password', { type: 'string', max_length: 128 }))).toBe('password')
    expect(chooseWidget(f('comment', { type: 'string', max_length: 128 }))).toBe('textarea')
    expect(chooseWidget(f('name', { type: 'string', read_only: true }))).toBe('readonly')
    expect(chooseWidget(f('x', { type: 'string' }), { widget: 'json' })).toBe('json')
    expect(chooseWidget(f('users', { type: 'm2m_related_field' }), { related: { url: '/u/' } })).toBe('relatedMulti')
    expect(chooseWidget(f('role', { type: 'string' }), { related: { url: '/r/' } })).toBe('related')
    expect(chooseWidget(f('x', { type: 'choice', choices: choices(9) }), { options: choices(2) })).toBe('radio')
  })
})

describe('rulesFor', () => {
  it('adds required, length, range and format rules from the metadata', () => {
    const name = f('name', { type: 'string', required: true, max_length: 3 })
    expect(runRules(rulesFor(name, 'text'), '', {})).toBe('This field is required')
    expect(runRules(rulesFor(name, 'text'), 'abcd', {})).toMatch(/no more than 3/)
    const port = f('port', { type: 'integer', min_value: 1, max_value: 65535 })
    expect(runRules(rulesFor(port, 'number'), '70000', {})).toMatch(/less than or equal to 65535/)
    expect(runRules(rulesFor(f('email', { type: 'email' }), 'email'), 'x', {})).toMatch(/email/)
    expect(runRules(rulesFor(f('meta', { type: 'json' }), 'json'), '{', {})).toBe('Invalid JSON')
    expect(rulesFor(f('is_active', { type: 'boolean', required: true }), 'switch')).toEqual([])
  })
  it('text inputs validate on blur, others on change', () => {
    expect(validatesOnBlur('text')).toBe(true)
    expect(validatesOnBlur('select')).toBe(false)
  })
})
