import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { failedRowsCsv, timestampedName } from './failedRows.ts'

describe('failed rows download', () => {
  it('writes the file headers, the values in file notation, no secrets, and the errors', () => {
    const columns = [
      { field: 'name', label: '*Name', width: 100, secret: false },
      { field: 'groups', label: 'Groups', width: 100, secret: false },
      { field: 'password', label: 'Password', width: 100, secret: true },
    ]
    const csv = failedRowsCsv(columns, [
      { fields: { name: 'Alice, A.', groups: [{ pk: 'g1', name: 'Ops' }], password: 'ciphertext' }, errors: ['Email: Enter a valid email address.', 'Name: Too long.'] },
    ], 'Error')
    expect(csv.startsWith('\ufeff')).toBe(true)
    const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data
    expect(parsed).toEqual([
      ['*Name', 'Groups', 'Password', 'Error'],
      ['Alice, A.', '["Ops(g1)"]', '', 'Email: Enter a valid email address.\nName: Too long.'],
    ])
  })

  it('names files with a timestamp', () => {
    expect(timestampedName('users_failed', 'csv', new Date(2026, 10, 22, 1, 2, 3))).toBe('users_failed_2026-11-22_01-02-03.csv')
  })
})
