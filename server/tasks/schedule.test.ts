import { describe, expect, it } from 'vitest'
import { execCycle, nextCronRun, nextRun, parseCron } from './schedule.ts'

// Wall-clock times in UTC; the schedule functions are given the zone explicitly.
const local = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(Date.UTC(y, mo - 1, d, h, mi, 0, 0))
const UTC = 'UTC'

describe('cron expressions', () => {
  it('refuses what is not a 5-field expression', () => {
    for (const bad of ['', '* * * *', '* * * * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '* * * 13 *', '* * * * 8',
      '5-1 * * * *', '*/0 * * * *', 'a * * * *', '1,,2 * * * *', '1-2-3 * * * *']) {
      expect(parseCron(bad), bad).toBeUndefined()
    }
    for (const good of ['0 2 * * *', '*/15 * * * *', '0 0 1 jan *', '30 8 * * mon-fri', '0 0 * * 7', '5,10-20/5 1 1-15 * *']) {
      expect(parseCron(good), good).toBeDefined()
    }
  })

  it('computes the next run strictly after the given time (wall clock of the zone)', () => {
    const daily = parseCron('0 2 * * *')!
    expect(nextCronRun(daily, local(2026, 11, 22, 1, 59), UTC)).toEqual(local(2026, 11, 22, 2, 0))
    expect(nextCronRun(daily, local(2026, 11, 22, 2, 0), UTC)).toEqual(local(2026, 11, 23, 2, 0))
    expect(nextCronRun(daily, local(2026, 12, 31, 3, 0), UTC)).toEqual(local(2027, 1, 1, 2, 0))
    const quarter = parseCron('*/15 * * * *')!
    expect(nextCronRun(quarter, local(2026, 11, 22, 10, 7), UTC)).toEqual(local(2026, 11, 22, 10, 15))
    expect(nextCronRun(quarter, local(2026, 11, 22, 10, 45), UTC)).toEqual(local(2026, 11, 22, 11, 0))
  })

  it('matches day-of-month OR day-of-week when both are restricted, as cron does', () => {
    // 2026-11-22 is a Sunday. "on the 25th or on Mondays" → Monday the 23rd comes first.
    const spec = parseCron('0 0 25 * mon')!
    expect(nextCronRun(spec, local(2026, 11, 22, 12), UTC)).toEqual(local(2026, 11, 23))
    expect(nextCronRun(spec, local(2026, 11, 23, 12), UTC)).toEqual(local(2026, 11, 25))
    // Only a weekday: 7 is Sunday too.
    expect(nextCronRun(parseCron('0 0 * * 7')!, local(2026, 11, 23), UTC)).toEqual(local(2026, 11, 29))
    // February 30th never comes.
    expect(nextCronRun(parseCron('0 0 30 2 *')!, local(2026, 1, 1), UTC)).toBeUndefined()
  })
})

describe('schedules', () => {
  const now = local(2026, 11, 22, 12, 34)
  it('interval in hours from now; disabled or empty → none', () => {
    expect(nextRun({ crontab: '', interval: 6, enabled: true }, now)).toEqual(new Date(now.getTime() + 6 * 3600_000))
    expect(nextRun({ crontab: '0 2 * * *', interval: null, enabled: true }, now, UTC)).toEqual(local(2026, 11, 23, 2, 0))
    // 02:00 in Shanghai (UTC+8) is 18:00 UTC the day before.
    expect(nextRun({ crontab: '0 2 * * *', interval: null, enabled: true }, now, 'Asia/Shanghai')).toEqual(local(2026, 11, 22, 18, 0))
    // Across a DST change: 02:30 happens twice in Berlin on 2026-10-25 (clocks go back); it runs once that day.
    const berlin = { crontab: '30 2 * * *', interval: null, enabled: true }
    const first = nextRun(berlin, local(2026, 10, 24, 12), 'Europe/Berlin')!
    expect(first).toEqual(local(2026, 10, 25, 1, 30))
    expect(nextRun(berlin, first, 'Europe/Berlin')).toEqual(local(2026, 10, 26, 1, 30))
    expect(nextRun({ crontab: '0 2 * * *', interval: null, enabled: false }, now)).toBeNull()
    expect(nextRun({ crontab: '', interval: null, enabled: true }, now)).toBeNull()
    expect(nextRun({ crontab: 'bad', interval: null, enabled: true }, now)).toBeNull()
    expect(execCycle({ crontab: '', interval: 3 })).toEqual({ hours: 3 })
    expect(execCycle({ crontab: '0 2 * * *', interval: null })).toEqual({ crontab: '0 2 * * *' })
  })
})
