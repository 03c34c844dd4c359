import { describe, expect, it } from 'vitest'
import { dayLabel } from './Charts.tsx'

describe('the dashboard chart’s date axis (issue 35)', () => {
  const day = new Date(2026, 10, 27)
  it.each([['zh', '11月27日'], ['ja', '11月27日'], ['en', 'Nov 27']])('reads a day in %s as %s', (locale, label) => {
    expect(dayLabel(day, locale)).toBe(label)
  })
})
