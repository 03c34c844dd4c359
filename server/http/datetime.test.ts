import { describe, expect, it } from 'vitest'
import { formatDateTime, parseDateTime } from './datetime.ts'

describe('formatDateTime', () => {
  it('renders in the given zone with its offset', () => {
    const d = new Date('2023-05-09T06:36:56.789Z')
    expect(formatDateTime(d, 'Asia/Shanghai')).toBe('2023/05/09 14:36:56 +0800')
    expect(formatDateTime(d, 'UTC')).toBe('2023/05/09 06:36:56 +0000')
    expect(formatDateTime(d, 'America/St_Johns')).toBe('2023/05/09 04:06:56 -0230')
    expect(formatDateTime(d, 'Asia/Kolkata')).toBe('2023/05/09 12:06:56 +0530')
  })
  it('follows daylight saving time', () => {
    expect(formatDateTime(new Date('2023-01-15T12:00:00Z'), 'Europe/Berlin')).toBe('2023/01/15 13:00:00 +0100')
    expect(formatDateTime(new Date('2023-07-15T12:00:00Z'), 'Europe/Berlin')).toBe('2023/07/15 14:00:00 +0200')
  })
  it('gives null for missing or invalid values', () => {
    expect(formatDateTime(null)).toBeNull()
    expect(formatDateTime(undefined)).toBeNull()
    expect(formatDateTime(new Date('nope'))).toBeNull()
  })
})

describe('parseDateTime', () => {
  const at = (s: string) => new Date(s).getTime()
  it('reads the three wire forms', () => {
    expect(parseDateTime('2023/05/01 00:00:00 +0800')?.getTime()).toBe(at('2023-04-30T16:00:00Z'))
    expect(parseDateTime('2023-05-01T00:00:00.000Z')?.getTime()).toBe(at('2023-05-01T00:00:00Z'))
    expect(parseDateTime('2023-05-01 00:00:00 +0800')?.getTime()).toBe(at('2023-04-30T16:00:00Z'))
    expect(parseDateTime('2023-05-01T08:30:00+05:30')?.getTime()).toBe(at('2023-05-01T03:00:00Z'))
  })
  it('reads naive values as wall time of the zone', () => {
    expect(parseDateTime('2023-05-01 00:00:00', 'Asia/Shanghai')?.getTime()).toBe(at('2023-04-30T16:00:00Z'))
    expect(parseDateTime('2023-07-01 12:00', 'Europe/Berlin')?.getTime()).toBe(at('2023-07-01T10:00:00Z'))
    expect(parseDateTime('2023-05-01', 'UTC')?.getTime()).toBe(at('2023-05-01T00:00:00Z'))
  })
  it('round-trips with formatDateTime', () => {
    const d = new Date('2024-02-29T23:59:59Z')
    expect(parseDateTime(formatDateTime(d, 'Pacific/Auckland')!)?.getTime()).toBe(d.getTime())
  })
  it('refuses garbage and impossible dates', () => {
    for (const bad of ['', 'yesterday', '2023-02-30', '2023-13-01', '2023-01-01 24:00:00', '2023/05/01 00:00:00 +9900', 42, null]) {
      expect(parseDateTime(bad as string)).toBeUndefined()
    }
  })
})
