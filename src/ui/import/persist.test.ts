import { afterEach, describe, expect, it } from 'vitest'
import { clearImport, importStorageKey, loadImport, markInflight, resumedTask, saveImport, type SavedImport } from './persist.ts'

const saved: SavedImport = {
  version: 1,
  fileName: 'users.csv',
  columns: [{ field: 'name', label: '*Name', width: 100, secret: false }],
  fileColumns: [{ field: 'name', label: '*Name', width: 100, secret: false }],
  task: {
    mode: 'create',
    status: 'stopped',
    rows: [
      { id: 'r0', data: { name: 'a' }, status: 'ok' },
      { id: 'r1', data: { name: '' }, status: { error: ['Name: This field may not be blank.'] } },
      { id: 'r2', data: { name: 'c' }, status: 'pending' },
    ],
  },
  savedAt: 1,
}

afterEach(() => sessionStorage.clear())

describe('import persistence', () => {
  it('keeps one import per list and organization', () => {
    const key = importStorageKey('/api/v1/users/users/', 'org-1')
    expect(key).not.toBe(importStorageKey('/api/v1/users/users/', 'org-2'))
    expect(saveImport(key, saved)).toBe(true)
    expect(loadImport(key)).toEqual(saved)
    expect(loadImport(importStorageKey('/api/v1/users/users/', 'org-2'))).toBeNull()
    clearImport(key)
    expect(loadImport(key)).toBeNull()
  })

  it('marks the row that was in flight when the page went away, until the next save', () => {
    saveImport('k', saved)
    markInflight('k', 'r2')
    const withMark = loadImport('k')!
    expect(withMark.inflight).toBe('r2')
    expect(resumedTask(withMark, 'interrupted').rows[2]!.status).toEqual({ error: ['interrupted'] })
    expect(resumedTask(saved, 'interrupted')).toBe(saved.task)
    saveImport('k', saved)
    expect(loadImport('k')!.inflight).toBeUndefined()
  })

  it('drops what it cannot read', () => {
    sessionStorage.setItem('k', '{"version":1}')
    expect(loadImport('k')).toBeNull()
    expect(sessionStorage.getItem('k')).toBeNull()
    sessionStorage.setItem('k', 'not json')
    expect(loadImport('k')).toBeNull()
  })

  it('reports a full storage instead of failing', () => {
    const full = { setItem: () => { throw new DOMException('full', 'QuotaExceededError') } } as unknown as Storage
    expect(saveImport('k', saved, full)).toBe(false)
    expect(() => markInflight('k', 'r1', full)).not.toThrow()
  })
})
