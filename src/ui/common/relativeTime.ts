/**
 * Relative dates of the activity timeline (spec §9): under 30 s "just now", under an hour in minutes, under a
 * day in hours, under two days "1 day ago", under 7 days in days, then the full date.
 */
export type Relative =
  | { kind: 'justNow' }
  | { kind: 'minutes'; n: number }
  | { kind: 'hours'; n: number }
  | { kind: 'days'; n: number }
  | { kind: 'date' }

export function relativeTime(date: Date, now: Date = new Date()): Relative {
  const s = Math.max(0, (now.getTime() - date.getTime()) / 1000)
  if (s < 30) return { kind: 'justNow' }
  if (s < 3600) return { kind: 'minutes', n: Math.max(1, Math.floor(s / 60)) }
  if (s < 86_400) return { kind: 'hours', n: Math.floor(s / 3600) }
  if (s < 7 * 86_400) return { kind: 'days', n: Math.floor(s / 86_400) }
  return { kind: 'date' }
}
