import { describe, expect, it } from 'vitest'
import { fromEditText, isEmptyValue, toDisplayText, toEditText } from './cells.ts'

describe('import cells', () => {
  it('edits values in the notation of the file and parses them back to the same shape', () => {
    const cases: [unknown, string][] = [
      ['web01', 'web01'],
      [22, '22'],
      [true, 'true'],
      [{ pk: 'u-1', name: 'Ops' }, 'Ops(u-1)'],
      [{ pk: 3, name: 'Linux' }, 'Linux(3)'],
      [[{ pk: 'g1', name: 'A' }, { pk: 'g2', name: 'B' }], '["A(g1)","B(g2)"]'],
      [{ value: 'custom', label: 'Set password' }, 'custom'],
      [['a', 'b'], '["a","b"]'],
      [{ k: 1 }, '{"k":1}'],
    ]
    for (const [value, text] of cases) {
      expect(toEditText(value)).toBe(text)
      const back = fromEditText(text, value)
      expect(back).toEqual(value && typeof value === 'object' && 'label' in value ? 'custom' : value)
    }
  })

  it('parses edits by the replaced value', () => {
    expect(fromEditText('x', 3)).toBe('x')
    expect(fromEditText('yes', false)).toBe(true)
    expect(fromEditText('0', true)).toBe(false)
    expect(fromEditText('', { pk: 1, name: 'a' })).toBeNull()
    expect(fromEditText('', [{ pk: 1, name: 'a' }])).toEqual([])
    expect(fromEditText('not json', ['a'])).toBe('not json')
    expect(fromEditText('plain', { pk: 1, name: 'a' })).toBe('plain')
    expect(fromEditText('["x(1)"]', [{ pk: 2, name: 'y' }])).toEqual([{ pk: 1, name: 'x' }])
    expect(fromEditText('[1,2]', null)).toEqual([1, 2])
    expect(fromEditText('', null)).toBeNull()
    expect(fromEditText('text', undefined)).toBe('text')
  })

  it('displays related objects by name and lists comma-joined', () => {
    expect(toDisplayText([{ pk: 'g1', name: 'A' }, { pk: 'g2', name: 'B' }])).toBe('A, B')
    expect(toDisplayText({ value: 'x', label: 'Label' })).toBe('Label')
    expect(toDisplayText(null)).toBe('')
  })

  it('knows empty values', () => {
    expect([null, undefined, '', [], {}].every(isEmptyValue)).toBe(true)
    expect([0, false, 'a', [1], { a: 1 }].some(isEmptyValue)).toBe(false)
  })
})
