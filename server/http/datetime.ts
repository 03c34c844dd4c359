/**
 * Datetimes on the wire (contract §1.5): output `YYYY/MM/DD HH:MM:SS ±HHMM` in the request's time zone
 * (`req.ctx.tz`); input in that form, ISO-8601, or `YYYY-MM-DD HH:MM:SS ±HHMM`. A value without a zone is
 * read as wall time in the given zone (Django makes naive input aware in the current zone).
 */

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    })
    formatters.set(tz, f)
  }
  return f
}

interface WallTime { year: number; month: number; day: number; hour: number; minute: number; second: number }

function wallTime(ms: number, tz: string): WallTime {
  const out: Record<string, number> = {}
  for (const p of formatterFor(tz).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value)
  }
  return { year: out.year!, month: out.month!, day: out.day!, hour: out.hour! % 24, minute: out.minute!, second: out.second! }
}

/** Offset of `tz` from UTC at instant `ms`, in minutes (east positive). */
export function zoneOffsetMinutes(ms: number, tz: string): number {
  const w = wallTime(ms, tz)
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000)
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0')

/** `2023/05/09 14:36:56 +0800`; null and invalid dates give null. */
export function formatDateTime(value: Date | string | number | null | undefined, tz = 'Asia/Shanghai'): string | null {
  if (value === null || value === undefined) return null
  const date = value instanceof Date ? value : new Date(value)
  const ms = date.getTime()
  if (Number.isNaN(ms)) return null
  let w = wallTime(ms, tz)
  const off = zoneOffsetMinutes(ms, tz)
  // Wall times past 9999-12-31 (e.g. 9999-12-31T23:59:59Z east of UTC) cannot be written with four digits, nor
  // read back: the latest representable wall time is shown instead (such values mean "never").
  if (w.year > 9999) w = { year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59 }
  else if (w.year < 1) w = { year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0 }
  const sign = off < 0 ? '-' : '+'
  return `${pad(w.year, 4)}/${pad(w.month)}/${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)} ` +
    `${sign}${pad(Math.trunc(Math.abs(off) / 60))}${pad(Math.abs(off) % 60)}`
}

const INPUT = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/**
 * Parses the three accepted input forms (and a bare date). Returns undefined for anything else,
 * including impossible dates such as 2023-02-30 or 24:00:00.
 */
export function parseDateTime(text: unknown, tz = 'Asia/Shanghai'): Date | undefined {
  if (typeof text !== 'string') return undefined
  const m = INPUT.exec(text.trim())
  if (!m) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)]
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, millis)
  const zone = m[8]
  if (zone) {
    if (zone === 'Z' || zone === 'z') return new Date(wall)
    const digits = zone.slice(1).replace(':', '')
    const hours = Number(digits.slice(0, 2))
    const minutes = Number(digits.slice(2) || 0)
    if (hours > 23 || minutes > 59) return undefined
    const off = (hours * 60 + minutes) * (zone.startsWith('-') ? -1 : 1)
    return new Date(wall - off * 60_000)
  }
  // Naive wall time in `tz`: guess with the offset at the wall instant, then correct once (DST edges).
  let guess = wall - zoneOffsetMinutes(wall, tz) * 60_000
  guess = wall - zoneOffsetMinutes(guess, tz) * 60_000
  return new Date(guess)
}
