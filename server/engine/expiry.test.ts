import { describe, expect, it } from 'vitest'
import { defaultExpiry } from './expiry.ts'

describe('the default expiry (issue 35)', () => {
  it('is the same day and time of day 70 years on, in every time zone', () => {
    const start = new Date('2026-11-27T15:08:30.000Z')
    expect(defaultExpiry(start).toISOString()).toBe('2096-11-27T15:08:30.000Z')
    expect(defaultExpiry(new Date('2026-06-01T23:30:00Z')).toISOString()).toBe('2096-06-01T23:30:00.000Z')
    expect(defaultExpiry(new Date('2024-02-28T00:00:00Z')).toISOString()).toBe('2094-02-28T00:00:00.000Z')
  })
})
