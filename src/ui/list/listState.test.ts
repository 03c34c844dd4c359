import { describe, expect, it } from 'vitest'
import { decodeListState, defaultRange, encodeListState, joinTerms, lastPage, pageFixedFilters, rangeFor, searchTerms, toApiQuery, urlValue, validateListSearch, withChange } from './listState.ts'

const defaults = { size: 15, order: '-date_updated' }

describe('validateListSearch', () => {
  it('keeps strings, stringifies numbers and booleans, checks page and size', () => {
    expect(validateListSearch({ page: '2', size: 30, search: 'a,b', is_active: true, source: 'ldap', empty: '', obj: { a: 1 }, bad: NaN })).toEqual({
      page: 2, size: 30, search: 'a,b', is_active: 'true', source: 'ldap',
    })
    expect(validateListSearch({ page: '-1', size: 'x' })).toEqual({})
  })
})

describe('decode / encode', () => {
  it('round-trips a full state and leaves defaults out of the URL', () => {
    const search = { page: 3, size: 50, search: 'alice,bob', order: 'name', is_active: 'false', source: 'ldap', activeTab: 'x', tab: 'command-storage' }
    const state = decodeListState(search, defaults)
    expect(state).toEqual({ page: 3, size: 50, search: 'alice,bob', order: 'name', filters: { is_active: 'false', source: 'ldap' } })
    expect(encodeListState(state, defaults, search)).toEqual({ ...search, is_active: false })
    expect(validateListSearch(encodeListState(state, defaults, search))).toEqual(validateListSearch(search))
    const plain = decodeListState({}, defaults)
    expect(plain).toEqual({ page: 1, size: 15, search: '', order: '-date_updated', filters: {} })
    expect(encodeListState(plain, defaults)).toEqual({})
  })

  it('uses the default date range unless the URL has one', () => {
    const range = { from: '2023-05-01T00:00:01.000Z', to: '2023-05-08T23:59:59.000Z' }
    const withRange = { ...defaults, dateRange: range }
    expect(decodeListState({}, withRange)).toMatchObject({ dateFrom: range.from, dateTo: range.to })
    const custom = decodeListState({ date_from: 'A', date_to: 'B' }, withRange)
    expect(custom).toMatchObject({ dateFrom: 'A', dateTo: 'B' })
    expect(encodeListState(custom, withRange)).toEqual({ date_from: 'A', date_to: 'B' })
    expect(encodeListState(decodeListState({}, withRange), withRange)).toEqual({})
  })

  it('builds the API query: limit/offset, search, order, filters, dates', () => {
    const state = decodeListState({ page: 2, size: 30, search: 'a', source: 'ldap', date_from: 'F' }, defaults)
    expect(toApiQuery(state)).toEqual({ source: 'ldap', search: 'a', order: '-date_updated', date_from: 'F', date_to: undefined, limit: 30, offset: 30 })
  })

  it('puts booleans and plain numbers in the URL as values, everything else as text', () => {
    expect(urlValue('true')).toBe(true)
    expect(urlValue('0')).toBe(0)
    expect(urlValue('42')).toBe(42)
    expect(urlValue('007')).toBe('007')
    expect(urlValue('1e3')).toBe('1e3')
    expect(urlValue('ldap')).toBe('ldap')
  })

  it('changes go back to page 1', () => {
    const state = decodeListState({ page: 4 }, defaults)
    expect(withChange(state, { search: 'x' })).toMatchObject({ page: 1, search: 'x' })
  })
})

describe('helpers', () => {
  it('splits and joins terms without duplicates', () => {
    expect(searchTerms(' a, ,b ,')).toEqual(['a', 'b'])
    expect(joinTerms(['a', 'b', 'a', ' '])).toBe('a,b')
  })
  it('last page', () => {
    expect(lastPage(0, 15)).toBe(1)
    expect(lastPage(31, 15)).toBe(3)
  })
  it('date shortcuts', () => {
    const now = new Date(2023, 4, 9, 14, 0, 0)
    const day = rangeFor('day', now)
    expect(new Date(day.to).getTime() - new Date(day.from).getTime()).toBe(86_400_000)
    const month = rangeFor('month', now)
    const from = new Date(month.from)
    const to = new Date(month.to)
    expect([from.getMonth(), from.getDate(), from.getHours(), from.getSeconds()]).toEqual([3, 9, 0, 1])
    expect([to.getDate(), to.getHours(), to.getMinutes(), to.getSeconds()]).toEqual([9, 23, 59, 59])
    expect(new Date(rangeFor('quarter', now).from).getMonth()).toBe(1)
    expect(defaultRange(now)).toEqual(rangeFor('week', now))
  })
})

describe('pageFixedFilters (issue 17: no "scope: system" tag after creating a role)', () => {
  it('hides the keys a page adds to its links as well as its hidden filters', () => {
    expect(pageFixedFilters({ linkSearch: { scope: 'system' } })).toEqual(['scope'])
    expect(pageFixedFilters({ hiddenFilters: ['user'], linkSearch: { user: 'x', scope: 'org' } })).toEqual(['user', 'scope'])
    expect(pageFixedFilters({})).toEqual([])
  })
})
