/**
 * The one default expiry of users, permissions and the like: the same day and time 70 years on (a calendar
 * step, as PostgreSQL's `interval '70 years'`), so the form shows the start's time of day in any time zone. Until
 * issue 35 users stepped 70 × 365 days (18 days short) and permissions 70 × 365.25 days (12 hours off: 15:08 → 03:08).
 */
export const DEFAULT_EXPIRY_YEARS = 70

export function defaultExpiry(now: Date = new Date()): Date {
  const d = new Date(now.getTime())
  d.setUTCFullYear(d.getUTCFullYear() + DEFAULT_EXPIRY_YEARS)
  return d
}
