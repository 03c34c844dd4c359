import { describe, expect, it } from 'vitest'
import { relativeTime } from './relativeTime.ts'

const now = new Date('2023-05-09T12:00:00Z')
const ago = (s: number) => new Date(now.getTime() - s * 1000)

describe('relativeTime', () => {
  it('follows the spec thresholds', () => {
    expect(relativeTime(ago(0), now)).toEqual({ kind: 'justNow' })
    expect(relativeTime(ago(29), now)).toEqual({ kind: 'justNow' })
    expect(relativeTime(ago(30), now)).toEqual({ kind: 'minutes', n: 1 })
    expect(relativeTime(ago(59 * 60), now)).toEqual({ kind: 'minutes', n: 59 })
    expect(relativeTime(ago(3600), now)).toEqual({ kind: 'hours', n: 1 })
    expect(relativeTime(ago(23 * 3600 + 59), now)).toEqual({ kind: 'hours', n: 23 })
    expect(relativeTime(ago(86_400), now)).toEqual({ kind: 'days', n: 1 })
    expect(relativeTime(ago(6 * 86_400), now)).toEqual({ kind: 'days', n: 6 })
    expect(relativeTime(ago(7 * 86_400), now)).toEqual({ kind: 'date' })
  })
  it('treats future dates as now', () => {
    expect(relativeTime(new Date(now.getTime() + 5000), now)).toEqual({ kind: 'justNow' })
  })
})
