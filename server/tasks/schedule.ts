/**
 * Schedules of periodic tasks: a 5-field cron expression (minute hour day-of-month month day-of-week, read in the
 * server's time zone — TIME_ZONE, Asia/Shanghai by default as JumpServer's — like Celery beat's crontab) or an
 * interval in hours. Pure functions of a given time.
 */

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai'

const formatters = new Map<string, Intl.DateTimeFormat>()
/** The wall-clock time of `instant` in `tz`, as a Date whose UTC fields are that wall clock. */
function toWall(instant: Date, tz: string): Date {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    formatters.set(tz, f)
  }
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, Number(x.value)])) as Record<string, number>
  return new Date(Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!, instant.getUTCMilliseconds()))
}
/** The instant at which `tz` shows the wall clock `wall` (a time skipped by a DST change moves forward). */
function fromWall(wall: Date, tz: string): Date {
  const guess = new Date(wall.getTime() - (toWall(wall, tz).getTime() - wall.getTime()))
  return new Date(wall.getTime() - (toWall(guess, tz).getTime() - guess.getTime()))
}

export interface CronSpec {
  minutes: Set<number>
  hours: Set<number>
  days: Set<number>
  months: Set<number>
  weekdays: Set<number>
  /** Day-of-month and day-of-week both restricted: a day matches when either does (cron's rule). */
  dayOr: boolean
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']

interface FieldRule { min: number; max: number; names?: string[]; nameBase?: number }
const RULES: FieldRule[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { min: 0, max: 7, names: WEEKDAYS, nameBase: 0 },
]

function atom(text: string, rule: FieldRule): number | undefined {
  if (/^\d+$/.test(text)) {
    const n = Number(text)
    return n >= rule.min && n <= rule.max ? n : undefined
  }
  const i = rule.names?.indexOf(text.toLowerCase()) ?? -1
  return i >= 0 ? i + (rule.nameBase ?? 0) : undefined
}

function parseField(text: string, rule: FieldRule): Set<number> | undefined {
  const out = new Set<number>()
  for (const part of text.split(',')) {
    const m = /^([^/]+)(?:\/(\d+))?$/.exec(part)
    if (!m) return undefined
    const step = m[2] === undefined ? 1 : Number(m[2])
    if (step < 1 || step > rule.max) return undefined
    let lo: number | undefined
    let hi: number | undefined
    if (m[1] === '*') [lo, hi] = [rule.min, rule.max]
    else if (m[1]!.includes('-')) {
      const [a, b, ...rest] = m[1]!.split('-')
      if (rest.length) return undefined
      lo = atom(a!, rule)
      hi = atom(b!, rule)
    } else {
      lo = atom(m[1]!, rule)
      hi = m[2] === undefined ? lo : rule.max
    }
    if (lo === undefined || hi === undefined || lo > hi) return undefined
    for (let v = lo; v <= hi; v += step) out.add(v)
  }
  return out.size ? out : undefined
}

/** Parses a 5-field cron expression; `undefined` when it is not one. */
export function parseCron(expr: string): CronSpec | undefined {
  const fields = expr.trim().split(/\s+/)
  if (fields.length !== 5 || expr.length > 128) return undefined
  const sets = fields.map((f, i) => parseField(f, RULES[i]!))
  if (sets.some((s) => !s)) return undefined
  const [minutes, hours, days, months, weekdays] = sets as Set<number>[]
  if (weekdays!.has(7)) weekdays!.add(0)
  return { minutes: minutes!, hours: hours!, days: days!, months: months!, weekdays: weekdays!, dayOr: fields[2] !== '*' && fields[4] !== '*' }
}

function dayMatches(spec: CronSpec, d: Date): boolean {
  const dom = spec.days.has(d.getUTCDate())
  const dow = spec.weekdays.has(d.getUTCDay())
  return spec.dayOr ? dom || dow : dom && dow
}

/** The first minute strictly after `after` that the expression matches in time zone `tz`; undefined if none in 5 years. */
export function nextCronRun(spec: CronSpec, after: Date, tz = DEFAULT_TIME_ZONE): Date | undefined {
  // Walk the wall clock (UTC fields of `d`), then turn the match back into an instant.
  const d = toWall(after, tz)
  d.setUTCSeconds(0, 0)
  d.setUTCMinutes(d.getUTCMinutes() + 1)
  const limit = d.getTime() + 5 * 366 * 86_400_000
  while (d.getTime() <= limit) {
    if (!spec.months.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1)
      d.setUTCHours(0, 0, 0, 0)
      continue
    }
    if (!dayMatches(spec, d)) {
      d.setUTCDate(d.getUTCDate() + 1)
      d.setUTCHours(0, 0, 0, 0)
      continue
    }
    if (!spec.hours.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0)
      continue
    }
    if (!spec.minutes.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0)
      continue
    }
    const at = fromWall(d, tz)
    return at.getTime() > after.getTime() ? at : new Date(after.getTime() + 60_000)
  }
  return undefined
}

export interface Schedule { crontab: string; interval: number | null; enabled: boolean }

/** When a schedule next fires after `now` (null when it is disabled, empty or invalid). */
export function nextRun(s: Schedule, now: Date, tz = DEFAULT_TIME_ZONE): Date | null {
  if (!s.enabled) return null
  if (s.crontab) {
    const spec = parseCron(s.crontab)
    return spec ? nextCronRun(spec, now, tz) ?? null : null
  }
  if (s.interval && s.interval > 0) return new Date(now.getTime() + s.interval * 3_600_000)
  return null
}

/** The schedule as JumpServer's `exec_cycle` shows it: the cron expression, or "Every N hours". */
export function execCycle(s: Pick<Schedule, 'crontab' | 'interval'>): { crontab: string } | { hours: number } | null {
  if (s.crontab) return { crontab: s.crontab }
  if (s.interval) return { hours: s.interval }
  return null
}
