import { describe, expect, it } from 'vitest'
import { CELL_PADDING, DEFAULT_PRIORITY, fitColumns, guessPriority, KEY_PRIORITY, LAST_PRIORITY, LOW_PRIORITY, rowWidth, SELECTION_WIDTH, STATE_PRIORITY } from './columnFit.ts'

const col = (id: string, width: number, priority = DEFAULT_PRIORITY) => ({ id, width, priority })

// The users list as declared: name and "Is valid" are key, the actions column is kept; 8 columns of 150 px.
const users = [
  col('name', 160, KEY_PRIORITY), col('username', 130), col('email', 190), col('groups', 130),
  col('system_roles', 130), col('org_roles', 130), col('source', 110), col('is_valid', 80, KEY_PRIORITY), col('actions', 150),
]
const widthOf = (ids: readonly string[], selectable = true) => rowWidth(users.filter((c) => ids.includes(c.id)), selectable)

describe('fitColumns', () => {
  it('keeps every column when they fit, in their order', () => {
    const all = users.map((c) => c.id)
    expect(fitColumns(users, widthOf(all), { keep: ['actions'], selectable: true })).toEqual(all)
    expect(fitColumns(users, 5000, { selectable: true })).toEqual(all)
  })

  it('drops the least important columns first, right-most first among equals, until the row fits', () => {
    const all = users.map((c) => c.id)
    // one pixel short: the right-most column of the default priority goes (source), the key "Is valid" stays
    const fitted = fitColumns(users, widthOf(all) - 1, { keep: ['actions'], selectable: true })
    expect(fitted).toEqual(['name', 'username', 'email', 'groups', 'system_roles', 'org_roles', 'is_valid', 'actions'])
    expect(widthOf(fitted)).toBeLessThanOrEqual(widthOf(all) - 1)
  })

  it('never drops a kept column, nor a key column before the others', () => {
    const fitted = fitColumns(users, 700, { keep: ['actions'], selectable: true })
    expect(fitted).toContain('actions')
    expect(fitted).toContain('name')
    expect(fitted).toContain('is_valid')
    expect(widthOf(fitted)).toBeLessThanOrEqual(700)
  })

  it('keeps only the kept and key columns when nothing else fits (the table scrolls inside itself then)', () => {
    expect(fitColumns(users, 100, { keep: ['username', 'actions'], selectable: true })).toEqual(['name', 'username', 'is_valid', 'actions'])
    expect(fitColumns(users, 0, { keep: new Set(['actions']) })).toEqual(['name', 'is_valid', 'actions'])
    expect(fitColumns([col('a', 100), col('b', 100)], 0)).toEqual([])
  })

  it('drops a less important column even when it stands left of more important ones', () => {
    const cols = [col('id', 150, LAST_PRIORITY), col('username', 130), col('status', 110, KEY_PRIORITY), col('datetime', 165, KEY_PRIORITY)]
    const all = rowWidth(cols, false)
    expect(fitColumns(cols, all - 10)).toEqual(['username', 'status', 'datetime'])
    expect(fitColumns(cols, all - 150 - CELL_PADDING - 10)).toEqual(['status', 'datetime'])
  })

  it('counts the selection column and each cell padding as the grid does', () => {
    expect(rowWidth([col('a', 100), col('b', 50)], true)).toBe(SELECTION_WIDTH + 100 + 50 + 2 * CELL_PADDING)
    expect(rowWidth([], false)).toBe(0)
  })
})

describe('guessPriority', () => {
  it('makes the detail link key, ids and comments last, record-keeping columns low', () => {
    expect(guessPriority('name', 'detailLink')).toBe(KEY_PRIORITY)
    expect(guessPriority('id', 'text')).toBe(LAST_PRIORITY)
    expect(guessPriority('comment', 'longText')).toBe(LAST_PRIORITY)
    expect(guessPriority('date_created', 'datetime')).toBe(LOW_PRIORITY)
    expect(guessPriority('created_by')).toBe(LOW_PRIORITY)
    expect(guessPriority('address', 'text')).toBe(DEFAULT_PRIORITY)
  })
  it('keeps a row\'s state (status, load, connectivity, on/off) before the other columns', () => {
    for (const id of ['status', 'state', 'load', 'is_alive', 'connectivity', 'enabled', 'is_valid']) expect(guessPriority(id)).toBe(STATE_PRIORITY)
    expect(STATE_PRIORITY).toBeLessThan(DEFAULT_PRIORITY)
  })
})
