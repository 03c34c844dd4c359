import { describe, expect, it } from 'vitest'
import { buildPreview, columnWidth, plainLabel } from './preview.ts'

describe('import preview', () => {
  it('keeps file order, drops columns empty in every row, marks secrets and encrypts rows once', () => {
    let calls = 0
    const preview = buildPreview(
      {
        title: [['*Name', 'name'], ['*Username', 'username'], ['Comment', 'comment'], ['Password', 'password'], ['Name again', 'name']],
        data: [
          { name: 'A', username: 'a', comment: '', password: 'p1' },
          { name: 'B', username: 'b', comment: null, password: '' },
        ],
      },
      (row) => {
        calls++
        return { ...row, password: row.password ? `enc(${String(row.password)})` : row.password }
      },
    )
    expect(calls).toBe(2)
    expect(preview.fileColumns.map((c) => c.field)).toEqual(['name', 'username', 'comment', 'password'])
    expect(preview.columns.map((c) => c.field)).toEqual(['name', 'username', 'password'])
    expect(preview.columns.find((c) => c.field === 'password')!.secret).toBe(true)
    expect(preview.rows[0]!.password).toBe('enc(p1)')
  })

  it('sizes columns at 10 px per character of the header or the longest value, within 100–180 px', () => {
    expect(columnWidth('Id')).toBe(100)
    expect(columnWidth('Date password last updated')).toBe(180)
    expect(columnWidth('Email address')).toBe(130)
    expect(columnWidth('*Email', ['a@example.com', 'short'])).toBe(130)
    expect(columnWidth('*Email', ['someone.with.a.long.name@example.com'])).toBe(180)
  })

  it('strips the required marker for error labels', () => {
    expect(plainLabel('*Name')).toBe('Name')
    expect(plainLabel('Comment')).toBe('Comment')
  })
})
