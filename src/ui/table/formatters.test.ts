import { describe, expect, it } from 'vitest'
import { chooseFormatter, displayValue, formatDateTime, formatMoment, humanizeKey, objectLabel, structuredValue, summary } from './formatters.ts'

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
  it('json as labelled entries and secrets as stars', () => {
    expect(displayValue('json', { a: 1 })).toEqual({ kind: 'fields', entries: [{ key: 'a', label: 'A', shown: { kind: 'text', text: '1' } }] })
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

describe('structured values instead of raw JSON (issue 35)', () => {
  const child = (name: string, type: string, label: string) => ({ name, type, label }) as never
  it('labels an object’s keys by the metadata’s sub-fields, and shows each value by its type', () => {
    const shown = displayValue('json', { id: 3, ping_enabled: true, ping_method: 'posix_ping', ansible_config: { ansible_connection: 'smart' }, extra_key: false },
      { children: [child('ping_enabled', 'boolean', 'Ping enabled'), child('ping_method', 'string', 'Ping method'), child('ansible_config', 'json', 'Ansible config')] })
    expect(shown).toEqual({ kind: 'fields', entries: [
      { key: 'ping_enabled', label: 'Ping enabled', shown: { kind: 'yes' } },
      { key: 'ping_method', label: 'Ping method', shown: { kind: 'text', text: 'posix_ping' } },
      { key: 'ansible_config', label: 'Ansible config', shown: { kind: 'fields', entries: [{ key: 'ansible_connection', label: 'Ansible connection', shown: { kind: 'text', text: 'smart' } }] } },
      { key: 'extra_key', label: 'Extra key', shown: { kind: 'no' } },
    ] })
    expect(summary(shown, { yes: '是', no: '否' })).toBe('Ping enabled: 是; Ping method: posix_ping; Ansible config: Ansible connection: smart; Extra key: 否')
  })

  it('reads JSON text, nested objects of a nested-object field, lists, and `x` beside `x_display` once', () => {
    expect(displayValue('json', '{"length": 30, "symbol_set": "!@#"}', { type: 'nested object', children: [child('length', 'integer', 'Password length')] }))
      .toEqual({ kind: 'fields', entries: [{ key: 'length', label: 'Password length', shown: { kind: 'text', text: '30' } }, { key: 'symbol_set', label: 'Symbol set', shown: { kind: 'text', text: '!@#' } }] })
    expect(summary(structuredValue({ type: 'push_account', type_display: 'Push account', accounts: ['root', 'web'] }))).toBe('Type display: Push account; Accounts: root, web')
    expect(displayValue('json', {})).toEqual({ kind: 'empty' })
    expect(displayValue('json', 'plain text')).toEqual({ kind: 'text', text: 'plain text' })
  })

  it("labels a row's sub-value by its sibling's variant (a protocol's setting by its name)", () => {
    const setting = { ...(child('setting', 'nested object', 'Setting') as object), childrenFrom: 'name', variants: { ssh: [child('sftp_enabled', 'boolean', 'SFTP enabled'), child('sftp_home', 'string', 'SFTP home')] } } as never
    const rows = [{ name: 'ssh', setting: { sftp_enabled: false, sftp_home: '/srv' } }, { name: 'vnc', setting: {} }]
    expect(summary(structuredValue(rows, [child('name', 'string', 'Name'), setting])))
      .toBe('Name: ssh; Setting: SFTP enabled: ✗; SFTP home: /srv, Name: vnc; Setting: -')
  })

  it('makes a key without a label readable', () => {
    expect(humanizeKey('gather_facts_enabled')).toBe('Gather facts enabled')
    expect(humanizeKey('INDEX_BY_DATE')).toBe('Index by date')
    expect(humanizeKey('autoConfig')).toBe('Auto config')
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
