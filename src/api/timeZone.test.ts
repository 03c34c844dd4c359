import { describe, expect, it } from 'vitest'
import { createTimeZone, type EarlyTimeZone, type TimeZoneSources } from './timeZone.ts'

/** Sources with a storage, an Intl that counts its calls, and idle work run when the test says. */
function sources(over: { early?: EarlyTimeZone; stored?: string; intl?: string } = {}) {
  let stored: string | null = over.stored ?? null
  const idle: (() => void)[] = []
  const calls = { intl: 0 }
  const s: TimeZoneSources = {
    early: () => over.early,
    remembered: () => stored,
    remember: (z) => { stored = z },
    intl: () => { calls.intl++; return over.intl ?? 'Europe/Paris' },
    later: (check) => { idle.push(check) },
  }
  return { s, calls, idle, stored: () => stored }
}

describe('the time zone sent (X-TZ)', () => {
  it('after a refresh (a preference changed), the next request sends what the sources say now, not the remembered zone', () => {
    const src = sources({ early: { zone: 'Asia/Shanghai', fromIntl: false }, stored: 'Asia/Shanghai', intl: 'Asia/Tokyo' })
    const tz = createTimeZone(src.s)
    expect(tz.current()).toBe('Asia/Shanghai')
    tz.refresh()
    expect(tz.current()).toBe('Asia/Tokyo')
    expect(src.stored()).toBe('Asia/Tokyo')
    expect(tz.current()).toBe('Asia/Tokyo')
  })

  it('with nothing known, asks Intl at once, once, and remembers the answer', () => {
    const { s, calls, stored } = sources()
    const tz = createTimeZone(s)
    expect(tz.current()).toBe('Europe/Paris')
    expect(tz.current()).toBe('Europe/Paris')
    expect(calls.intl).toBe(1)
    expect(stored()).toBe('Europe/Paris')
  })

  it('takes the early script’s own Intl answer without asking again', () => {
    const { s, calls, idle, stored } = sources({ early: { zone: 'Asia/Tokyo', fromIntl: true } })
    expect(createTimeZone(s).current()).toBe('Asia/Tokyo')
    expect(calls.intl).toBe(0)
    expect(idle).toHaveLength(0)
    expect(stored()).toBe('Asia/Tokyo')
  })

  it('starts with the remembered zone and checks it when idle: a changed zone is sent from then on and remembered', () => {
    const { s, calls, idle, stored } = sources({ early: { zone: 'Asia/Shanghai', fromIntl: false }, stored: 'Asia/Shanghai', intl: 'America/New_York' })
    const tz = createTimeZone(s)
    expect(tz.current()).toBe('Asia/Shanghai')
    expect(calls.intl).toBe(0) // nothing on the first request's path
    idle.forEach((check) => check())
    expect(calls.intl).toBe(1)
    expect(tz.current()).toBe('America/New_York')
    expect(stored()).toBe('America/New_York')
  })

  it('without the early script (development), the remembered zone is used and checked the same way', () => {
    const { s, idle, calls } = sources({ stored: 'Europe/Paris' })
    const tz = createTimeZone(s)
    expect(tz.current()).toBe('Europe/Paris')
    idle.forEach((check) => check())
    expect(calls.intl).toBe(1)
    expect(tz.current()).toBe('Europe/Paris')
  })
})
