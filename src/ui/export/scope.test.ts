import { describe, expect, it } from 'vitest'
import { exportQuery, hasFilters, listFilters } from './scope.ts'

describe('export scope', () => {
  it('counts as filters everything but paging, date range, order and the draw/display markers', () => {
    expect(listFilters({ limit: 15, offset: 30, order: '-name', date_from: 'a', date_to: 'b', draw: 1, display: 1 })).toEqual({})
    expect(listFilters({ search: 'ad', is_active: true, source: '', limit: 15 })).toEqual({ search: 'ad', is_active: 'true' })
  })

  it('says whether filters are active', () => {
    expect(hasFilters({ limit: 15, order: 'name' })).toBe(false)
    expect(hasFilters({ search: 'x' })).toBe(true)
  })

  it('builds the query of each scope without paging', () => {
    const query = { search: 'x', limit: 15, offset: 15, order: 'name', date_from: 'd1', display: 1 }
    expect(exportQuery('all', query)).toEqual({ order: 'name' })
    expect(exportQuery('selected', query, 'spm-1')).toEqual({ order: 'name', spm: 'spm-1' })
    expect(exportQuery('filtered', query)).toEqual({ search: 'x', order: 'name', date_from: 'd1' })
  })
})
