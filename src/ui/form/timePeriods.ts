/**
 * Weekly time periods as ACL rules store them (`[{id: 0-6 (0 = Sunday), value: "HH:MM~HH:MM、…"}]`) ↔ a
 * 7 × 24 grid of hours. Pure.
 *
 * - An empty list reads as every hour (our server: "any time"), so the grid shows it fully selected.
 * - The grid writes all seven days explicitly; a day without hours is `""` (no time that day), a run ending at
 *   midnight ends with `00:00` (JumpServer and our server read it as 24:00).
 * - An hour is shown selected when a period covers any part of it; `wholeHours` says whether the value is exact.
 */
export interface TimePeriod { id: number; value: string }
/** hours[day id][hour] */
export type HourGrid = boolean[][]

const SEP = /[、,，]/
const minutes = (hm: string): number | null => {
  const m = /^(\d{2}):(\d{2})$/.exec(hm.trim())
  return m ? Number(m[1]) * 60 + Number(m[2]) : null
}

export function emptyGrid(fill = false): HourGrid {
  return Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => fill))
}

export function isPeriodList(v: unknown): v is TimePeriod[] {
  return Array.isArray(v) && v.every((p) => typeof p === 'object' && p !== null && Number.isInteger((p as TimePeriod).id) && typeof (p as TimePeriod).value === 'string')
}

export function toGrid(periods: unknown): { grid: HourGrid; wholeHours: boolean } {
  if (!isPeriodList(periods) || periods.length === 0) return { grid: emptyGrid(true), wholeHours: true }
  const grid = emptyGrid()
  let wholeHours = true
  for (const p of periods) {
    if (p.id < 0 || p.id > 6) continue
    for (const seg of p.value.split(SEP).map((s) => s.trim()).filter(Boolean)) {
      const [a = '', b = ''] = seg.split('~')
      const start = minutes(a)
      let end = minutes(b)
      if (start === null || end === null) { wholeHours = false; continue }
      if (end === 0) end = 24 * 60
      if (start % 60 !== 0 || end % 60 !== 0) wholeHours = false
      for (let h = Math.floor(start / 60); h < 24 && h * 60 < end; h++) grid[p.id]![h] = true
    }
  }
  return { grid, wholeHours }
}

const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`

export function fromGrid(grid: HourGrid): TimePeriod[] {
  return grid.map((hours, id) => {
    const runs: string[] = []
    let start = -1
    for (let h = 0; h <= 24; h++) {
      const on = h < 24 && hours[h] === true
      if (on && start < 0) start = h
      if (!on && start >= 0) {
        runs.push(`${hh(start)}~${hh(h)}`)
        start = -1
      }
    }
    return { id, value: runs.join('、') }
  })
}

export function toggle(grid: HourGrid, day: number, hour: number, to?: boolean): HourGrid {
  return grid.map((hours, d) => (d === day ? hours.map((on, h) => (h === hour ? (to ?? !on) : on)) : hours))
}

export function setDay(grid: HourGrid, day: number, to: boolean): HourGrid {
  return grid.map((hours, d) => (d === day ? hours.map(() => to) : hours))
}

/** `Monday 09:00~18:00; Tuesday …` (days without hours left out), or null for "any time" (an empty list). */
export function periodSummary(periods: unknown, dayName: (id: number) => string, allDay = '00:00~00:00'): string | null {
  if (!isPeriodList(periods) || periods.length === 0) return null
  return [1, 2, 3, 4, 5, 6, 0]
    .map((id) => periods.find((p) => p.id === id))
    .filter((p): p is TimePeriod => !!p && p.value.trim() !== '')
    .map((p) => `${dayName(p.id)} ${/^00:00~(00:00|24:00)$/.test(p.value.trim()) ? allDay : p.value}`)
    .join('; ')
}
