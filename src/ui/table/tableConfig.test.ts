import { beforeEach, describe, expect, it } from 'vitest'
import { readPageSize, readTableSettings, tableKey, visibleColumns, writePageSize, writeTableSettings } from './tableConfig.ts'

beforeEach(() => localStorage.clear())

describe('tableKey', () => {
  it('is route name + API path with UUIDs as *', () => {
    expect(tableKey('UserList', '/api/v1/users/users/')).toBe('UserList_/api/v1/users/users/')
    expect(tableKey('UserLoginACLList', '/api/v1/acls/login-acls/?user=0a1b2c3d-0000-4000-8000-00000000abcd')).toBe('UserLoginACLList_/api/v1/acls/login-acls/')
    expect(tableKey('RoleUsers', '/api/v1/rbac/roles/00000000-0000-0000-0000-000000000005/users/')).toBe('RoleUsers_/api/v1/rbac/roles/*/users/')
  })
})

describe('settings in localStorage', () => {
  it('saves columns and widths per table and restores defaults with null', () => {
    writeTableSettings('A', { showColumns: ['name', 'email'] })
    writeTableSettings('A', { columnWidths: { name: 220 } })
    writeTableSettings('B', { showColumns: ['x'] })
    expect(readTableSettings('A')).toEqual({ showColumns: ['name', 'email'], columnWidths: { name: 220 } })
    writeTableSettings('A', { showColumns: null })
    expect(readTableSettings('A')).toEqual({ columnWidths: { name: 220 } })
    expect(JSON.parse(localStorage.getItem('tableConfig')!)).toHaveProperty('B')
  })
  it('ignores corrupt storage', () => {
    localStorage.setItem('tableConfig', '{not json')
    expect(readTableSettings('A')).toEqual({})
    localStorage.setItem('tableConfig', JSON.stringify({ A: { showColumns: 'name', columnWidths: { a: -1, b: 90 } } }))
    expect(readTableSettings('A')).toEqual({ columnWidths: { b: 90 } })
  })
  it('remembers one global page size from the allowed set', () => {
    expect(readPageSize()).toBe(15)
    writePageSize(50)
    expect(readPageSize()).toBe(50)
    expect(JSON.parse(localStorage.getItem('tableConfig')!).paginationSize).toBe(50)
    localStorage.setItem('paginationSize', '7')
    expect(readPageSize()).toBe(15)
  })
})

describe('visibleColumns', () => {
  const all = ['id', 'name', 'email', 'comment', 'actions']
  it('uses saved, then default, then all; always keeps the minimum, in table order', () => {
    expect(visibleColumns(all, { min: ['name', 'actions'], defaults: ['email', 'name'] })).toEqual(['name', 'email', 'actions'])
    expect(visibleColumns(all, { min: ['name', 'actions'], defaults: ['email'], saved: ['comment', 'gone'] })).toEqual(['name', 'comment', 'actions'])
    expect(visibleColumns(all, {})).toEqual(all)
  })
})
