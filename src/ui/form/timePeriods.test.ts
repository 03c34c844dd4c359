import { describe, expect, it } from 'vitest'
import { emptyGrid, fromGrid, periodSummary, setDay, toGrid, toggle } from './timePeriods.ts'

describe('time periods ↔ hour grid', () => {
  it('reads an empty list as every hour and writes all seven days explicitly', () => {
    const { grid, wholeHours } = toGrid([])
    expect(grid.flat().every(Boolean)).toBe(true)
    expect(wholeHours).toBe(true)
    expect(fromGrid(grid)).toEqual([0, 1, 2, 3, 4, 5, 6].map((id) => ({ id, value: '00:00~00:00' })))
    expect(fromGrid(emptyGrid())).toEqual([0, 1, 2, 3, 4, 5, 6].map((id) => ({ id, value: '' })))
  })
  it('round-trips runs, joins them with 、 and ends a run at midnight with 00:00', () => {
    const periods = [{ id: 1, value: '09:00~12:00、13:00~18:00' }, { id: 0, value: '22:00~00:00' }]
    const { grid } = toGrid(periods)
    expect(grid[1]!.filter(Boolean)).toHaveLength(8)
    const out = fromGrid(grid)
    expect(out[1]).toEqual({ id: 1, value: '09:00~12:00、13:00~18:00' })
    expect(out[0]).toEqual({ id: 0, value: '22:00~00:00' })
    expect(out[2]).toEqual({ id: 2, value: '' })
  })
  it('shows partly covered hours as selected and says the value is not on whole hours', () => {
    const { grid, wholeHours } = toGrid([{ id: 3, value: '08:30~09:15' }])
    expect(wholeHours).toBe(false)
    expect(grid[3]!.map((on, h) => (on ? h : -1)).filter((h) => h >= 0)).toEqual([8, 9])
  })
  it('toggles hours and days, and summarises', () => {
    let g = toggle(emptyGrid(), 2, 5)
    g = setDay(g, 6, true)
    expect(fromGrid(g)[2]).toEqual({ id: 2, value: '05:00~06:00' })
    const name = (id: number) => ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][id]!
    expect(periodSummary(fromGrid(g), name, 'all day')).toBe('Tue 05:00~06:00; Sat all day')
    expect(periodSummary([], name)).toBeNull()
    expect(periodSummary(fromGrid(emptyGrid()), name)).toBe('')
  })
})
