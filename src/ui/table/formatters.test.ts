import { describe, expect, it } from 'vitest'
import { chooseFormatter, displayValue, formatDateTime, formatMoment, objectLabel } from './formatters.ts'

describe('chooseFormatter', () => {
  it('chooses by name before type', () => {
    expect(chooseFormatter({ name: 'name', type: 'string' })).toBe('detailLink')
    expect(chooseFormatter({ name: 'is_active', type: 'string' })).toBe('yesNo')
    expect(chooseFormatter({ name: 'is_valid', type: 'unknown' })).toBe('yesNo')
    expect(chooseFormatter({ name: 'comment', type: 'string' })).toBe('longText')
    expect(chooseFormatter({ name: 'password', type: 'string' })).toBe('secret')
    expect(chooseFormatter({ name: 'token', type: 'string' })).toBe('secret')
  })
  it('chooses by metadata type', () => {
    const cases: [string, string][] = [
      ['boolean', 'yesNo'], ['choice', 'choice'], ['labeled_choice', 'labeledChoice'], ['datetime', 'datetime'],
      ['object_related_field', 'related'], ['m2m_related_field', 'relatedList'], ['list', 'list'], ['json', 'json'],
      ['integer', 'number'], ['string', 'text'], ['unknown', 'text'], ['field', 'text'],
    ]
    for (const [type, kind] of cases) expect(chooseFormatter({ name: 'x', type: type as never }), type).toBe(kind)
    expect(chooseFormatter({ name: 'protocols', type: 'field', child: { type: 'nested object' } as never })).toBe('relatedList')
  })
})

describe('displayValue', () => {
  it('shows empty values as empty', () => {
    for (const v of [null, undefined, '', []]) expect(displayValue('text', v)).toEqual({ kind: 'empty' })
    expect(displayValue('yesNo', null)).toEqual({ kind: 'empty' })
  })
  it('booleans as yes/no, labeled or not', () => {
    expect(displayValue('yesNo', true)).toEqual({ kind: 'yes' })
    expect(displayValue('yesNo', false)).toEqual({ kind: 'no' })
    expect(displayValue('yesNo', { value: true, label: 'Success' })).toEqual({ kind: 'yes' })
  })
  it('choices through their labels', () => {
    const field = { choices: [{ value: 0, label: 'Disable' }, { value: 'local', label: 'Local' }] }
    expect(displayValue('choice', 0, field)).toEqual({ kind: 'text', text: 'Disable' })
    expect(displayValue('labeledChoice', { value: 'ldap', label: 'LDAP' }, field)).toEqual({ kind: 'text', text: 'LDAP' })
    expect(displayValue('labeledChoice', 'local', field)).toEqual({ kind: 'text', text: 'Local' })
    expect(displayValue('choice', 'other', field)).toEqual({ kind: 'text', text: 'other' })
  })
  it('related objects and lists by their names', () => {
    expect(displayValue('related', { id: '1', name: 'Linux' })).toEqual({ kind: 'text', text: 'Linux' })
    expect(displayValue('relatedList', [{ id: 'r', display_name: 'SystemAdmin' }, { id: 'g', name: 'ops' }])).toEqual({ kind: 'items', items: ['SystemAdmin', 'ops'] })
    expect(displayValue('list', ['a', 1])).toEqual({ kind: 'items', items: ['a', '1'] })
  })
  it('dates in local time, unparsable dates as they are', () => {
    const text = displayValue('datetime', '2023/05/09 14:36:56 +0800')
    expect(text).toEqual({ kind: 'text', text: formatDateTime(new Date('2023-05-09T06:36:56Z')) })
    expect(displayValue('datetime', 'soon')).toEqual({ kind: 'text', text: 'soon' })
  })
  it('json compactly and secrets as stars', () => {
    expect(displayValue('json', { a: 1 })).toEqual({ kind: 'text', text: '{"a":1}' })
    expect(displayValue('secret', 'hunter2')).toEqual({ kind: 'secret' })
  })
  it('objectLabel shows a phone field as country code and number (issue 17, defect 1)', () => {
    expect(objectLabel({ code: '+86', phone: 13800000000 })).toBe('+86 13800000000')
    expect(objectLabel({ code: '+1', phone: '2025550100' })).toBe('+1 2025550100')
    expect(objectLabel({ code: '', phone: '12345' })).toBe('12345')
    expect(objectLabel({ code: '+86', phone: null })).toBe('')
  })

  it('objectLabel falls back through name-like keys', () => {
    expect(objectLabel({ id: 'x', username: 'bob' })).toBe('bob')
    expect(objectLabel({ id: 'x' })).toBe('x')
    expect(objectLabel(null)).toBe('')
  })
})

describe('one time formatter (issue 35)', () => {
  const instant = new Date('2026-11-27T19:41:37Z')
  it('shows a moment in the zone chosen in Preferences, without an offset', () => {
    expect(formatDateTime(instant, 'Asia/Shanghai')).toBe('2026/11/28 03:41:37')
    expect(formatDateTime(instant, 'UTC')).toBe('2026/11/27 19:41:37')
    expect(formatDateTime(new Date('2026-07-01T00:00:00Z'), 'America/New_York')).toBe('2026/06/30 20:00:00')
  })
  it('reads what the server or the browser wrote, whatever zone it was written in', () => {
    expect(formatMoment('2026/11/27 19:41:37 +0000', 'Asia/Shanghai')).toBe('2026/11/28 03:41:37')
    expect(formatMoment('2026/11/28 03:41:37 +0800', 'UTC')).toBe('2026/11/27 19:41:37')
    expect(formatMoment('2026-11-27T19:41:37.512Z', 'Asia/Tokyo')).toBe('2026/11/28 04:41:37')
  })
  it('without a chosen zone uses the browser\u2019s (the zone the server is told)', () => {
    localStorage.removeItem('bastionPreferredTimeZone')
    expect(formatMoment('2026/11/27 19:41:37 +0000')).toBe(formatDateTime(instant, null))
    localStorage.setItem('bastionPreferredTimeZone', 'Asia/Kolkata')
    expect(formatMoment('2026/11/27 19:41:37 +0000')).toBe('2026/11/28 01:11:37')
    localStorage.removeItem('bastionPreferredTimeZone')
  })
  it('keeps a text that is no moment, shows nothing for nothing, and survives an unknown zone', () => {
    expect(formatMoment('soon')).toBe('soon')
    expect(formatMoment(null)).toBe('')
    expect(formatMoment('')).toBe('')
    expect(formatDateTime(instant, 'Not/AZone')).toBe(formatDateTime(instant, null))
  })
})
