import { describe, expect, it } from 'vitest'
import { pagerWindow } from './pager.ts'

describe('pagerWindow', () => {
  it('shows five pages around the current one, clamped to the ends', () => {
    expect(pagerWindow(1, 1)).toEqual([1])
    expect(pagerWindow(1, 3)).toEqual([1, 2, 3])
    expect(pagerWindow(1, 20)).toEqual([1, 2, 3, 4, 5])
    expect(pagerWindow(10, 20)).toEqual([8, 9, 10, 11, 12])
    expect(pagerWindow(20, 20)).toEqual([16, 17, 18, 19, 20])
    expect(pagerWindow(19, 20)).toEqual([16, 17, 18, 19, 20])
  })
})
