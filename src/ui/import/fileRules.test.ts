import { describe, expect, it } from 'vitest'
import { checkImportFiles } from './fileRules.ts'

const file = (name: string, size: number) => {
  const f = new File(['x'], name)
  Object.defineProperty(f, 'size', { value: size })
  return f
}

describe('import file rules', () => {
  it('accepts one .csv or .xlsx file up to 10 MiB', () => {
    expect(checkImportFiles([file('users.csv', 10)])).toMatchObject({ ok: true })
    expect(checkImportFiles([file('USERS.XLSX', 10 * 1024 * 1024)])).toMatchObject({ ok: true })
  })

  it('names the problem otherwise', () => {
    expect(checkImportFiles([])).toEqual({ ok: false, problem: 'count' })
    expect(checkImportFiles([file('a.csv', 1), file('b.csv', 1)])).toEqual({ ok: false, problem: 'count' })
    expect(checkImportFiles([file('users.xls', 1)])).toEqual({ ok: false, problem: 'type' })
    expect(checkImportFiles([file('users.csv', 10 * 1024 * 1024 + 1)])).toEqual({ ok: false, problem: 'size' })
    expect(checkImportFiles([file('users.csv', 0)])).toEqual({ ok: false, problem: 'empty' })
  })
})
