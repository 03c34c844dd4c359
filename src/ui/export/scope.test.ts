import { describe, expect, it } from 'vitest'
import { defaultScope, exportQuery, listFilters, scopeAvailability } from './scope.ts'

describe('export scope', () => {
  it('counts as filters everything but paging, date range, order and the draw/display markers', () => {
    expect(listFilters({ limit: 15, offset: 30, order: '-name', date_from: 'a', date_to: 'b', draw: 1, display: 1 })).toEqual({})
    expect(listFilters({ search: 'ad', is_active: true, source: '', limit: 15 })).toEqual({ search: 'ad', is_active: 'true' })
  })

  it('enables all without filters, selected with a selection, filtered with filters', () => {
    expect(scopeAvailability({ limit: 15 }, 0)).toEqual({ all: true, selected: false, filtered: false })
    expect(scopeAvailability({ search: 'x' }, 2)).toEqual({ all: false, selected: true, filtered: true })
    expect(defaultScope({ all: true, selected: false, filtered: false })).toBe('all')
    expect(defaultScope({ all: false, selected: false, filtered: true })).toBe('filtered')
    expect(defaultScope({ all: false, selected: true, filtered: true })).toBe('selected')
  })

  it('builds the query of each scope without paging', () => {
    const query = { search: 'x', limit: 15, offset: 15, order: 'name', date_from: 'd1', display: 1 }
    expect(exportQuery('all', query)).toEqual({ order: 'name' })
    expect(exportQuery('selected', query, 'spm-1')).toEqual({ order: 'name', spm: 'spm-1' })
    expect(exportQuery('filtered', query)).toEqual({ search: 'x', order: 'name', date_from: 'd1' })
  })
})
