import { describe, expect, it } from 'vitest'
import { formatDateTime } from '../http/datetime.ts'
import { fastDateTime, fromCell, toCell, toDisplay, toJson } from './kinds.ts'
import { parseValue } from './parse.ts'
import type { Ctx } from './types.ts'
import type { FieldDef } from './types.ts'

const f = (type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({ name: 'x', type, ...extra })

describe('field kinds', () => {
  it('formats datetimes exactly like formatDateTime, across zones and DST changes', () => {
    const zones = ['Asia/Shanghai', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'UTC']
    let seed = 42
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (const tz of zones) {
      for (let i = 0; i < 3000; i++) {
        const d = new Date(Date.UTC(1995, 0, 1) + Math.floor(rand() * 40 * 365 * 86_400_000))
        expect(fastDateTime(d, tz)).toBe(formatDateTime(d, tz))
      }
      // the minutes around a quarter-hour boundary
      const edge = Date.UTC(2024, 2, 10, 6, 59, 59)
      for (let s = 0; s < 3; s++) expect(fastDateTime(new Date(edge + s * 1000), tz)).toBe(formatDateTime(new Date(edge + s * 1000), tz))
    }
    expect(fastDateTime(null, 'UTC')).toBeNull()
    expect(fastDateTime('garbage', 'UTC')).toBeNull()
  })

  it('writes export cells and reads import cells back', () => {
    const rel = { id: 'a1b2', name: 'Ops' }
    expect(toCell(f('fk'), rel)).toBe('Ops(a1b2)')
    expect(toCell(f('m2m'), [rel, { id: '7', display_name: 'Admin' }])).toBe('["Ops(a1b2)","Admin(7)"]')
    expect(toCell(f('labeled_choice'), { value: 2, label: 'Force enable' })).toBe('2')
    expect(toCell(f('boolean'), true)).toBe('Yes')
    expect(toCell(f('string'), null)).toBe('-')
    expect(toCell(f('json'), { ip_group: ['*'] })).toBe('{"ip_group":["*"]}')
    expect(fromCell(f('fk'), 'Ops(a1b2)')).toEqual({ pk: 'a1b2', name: 'Ops' })
    expect(fromCell(f('pk'), 'Linux(1)')).toEqual({ pk: 1, name: 'Linux' })
    expect(fromCell(f('m2m'), '["Ops(a1b2)", "Dev(c3)"]')).toEqual([{ pk: 'a1b2', name: 'Ops' }, { pk: 'c3', name: 'Dev' }])
    expect(fromCell(f('m2m'), "['Ops(a1b2)']")).toEqual([{ pk: 'a1b2', name: 'Ops' }])
    expect(fromCell(f('boolean'), 'YES')).toBe(true)
    expect(fromCell(f('boolean'), 'No')).toBe(false)
    expect(fromCell(f('integer'), '42')).toBe(42)
    expect(fromCell(f('datetime'), '-')).toBeNull()
    expect(fromCell(f('string'), '-')).toBe('-')
    expect(fromCell(f('labeled_choice', { choices: [{ value: 1, label: 'Enable' }] }), 'Enable')).toBe(1)
    expect(fromCell(f('nested'), '{“ip_group”: [“*”]}')).toEqual({ ip_group: ['*'] })
  })

  it('renders operate-log display values', () => {
    expect(toDisplay(f('m2m'), [{ id: 1, name: 'a' }, { id: 2, name: 'b' }])).toBe('a, b')
    expect(toDisplay(f('labeled_choice'), { value: 'x', label: 'Ex' })).toBe('Ex')
    expect(toDisplay(f('boolean'), false)).toBe('No')
    expect(toDisplay(f('string'), '')).toBe('')
  })

  it('parses and renders tree choices stored as bits (asset-permission actions style)', () => {
    const actions = f('tree', {
      bits: { connect: 1, upload: 2, download: 4 },
      tree: [{ value: 'All', label: 'All', children: [{ value: 'connect', label: 'Connect' },
        { value: 'Transfer', label: 'Transfer', children: [{ value: 'upload', label: 'Upload' }, { value: 'download', label: 'Download' }] }] }],
    })
    const ctx = { lang: 'en', tz: 'UTC' } as Ctx
    expect(parseValue(actions, ['connect', { value: 'download' }], ctx)).toEqual({ ok: true, value: 5 })
    expect(parseValue(actions, ['all'], ctx)).toEqual({ ok: true, value: 7 })
    expect(parseValue(actions, ['fly'], ctx)).toEqual({ ok: false, error: ['Invalid choice: fly'] })
    expect(parseValue(actions, 'connect', ctx)).toEqual({ ok: false, error: ['Expected a list of items but got type "str".'] })
    expect(toJson(actions, 5, ctx)).toEqual([{ value: 'connect', label: 'Connect' }, { value: 'download', label: 'Download' }])
    expect(toCell(actions, toJson(actions, 3, ctx))).toBe('["connect","upload"]')
  })
})
