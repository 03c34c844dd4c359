/**
 * Licence and password-expiry warnings (spec 000 §4.1, §8, §9) as pure functions of the profile, the public
 * settings, the licence detail and the clock.
 */
export const LICENSE_WARNING_DAYS = 7
export const PASSWORD_WARNING_DAYS = 5
const DAY_MS = 86_400_000

/**
 * Server datetimes: `2023/05/09 14:36:56 +0800` (contract §1.5), ISO-8601, or a plain `2024-01-31` date.
 * Returns null when unparsable.
 */
export function parseServerDate(value: string | null | undefined): Date | null {
  if (!value) return null
  const m = /^(\d{4})[/-](\d{2})[/-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim())
  if (!m) {
    const d = new Date(value)
    return Number.isNaN(d.getTime()) ? null : d
  }
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m
  const z = !zone ? '' : zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${z}`)
  return Number.isNaN(date.getTime()) ? null : date
}

export type LicenseWarning =
  | { kind: 'expired' }
  | { kind: 'expiring'; date: Date; days: number }
  | { kind: 'assetLimit'; count: number; limit: number }

export interface LicenseFacts {
  canManageLicense: boolean
  xpackEnabled: boolean
  license: { date_expired: string; asset_count: number | null; current_asset_count: number | null } | null
}

export function licenseWarnings(facts: LicenseFacts, now: Date): LicenseWarning[] {
  if (!facts.canManageLicense || !facts.xpackEnabled || !facts.license) return []
  const out: LicenseWarning[] = []
  const expires = parseServerDate(facts.license.date_expired)
  if (expires) {
    const days = Math.ceil((expires.getTime() - now.getTime()) / DAY_MS)
    if (expires.getTime() <= now.getTime()) out.push({ kind: 'expired' })
    else if (days <= LICENSE_WARNING_DAYS) out.push({ kind: 'expiring', date: expires, days })
  }
  const { asset_count: limit, current_asset_count: count } = facts.license
  if (limit !== null && count !== null && limit > 0 && count > limit) out.push({ kind: 'assetLimit', count, limit })
  return out
}

export type PasswordWarning = { kind: 'expired' } | { kind: 'expiring'; days: number }

export interface PasswordFacts {
  source: string
  lastUpdated: string | null
  /** SECURITY_PASSWORD_EXPIRATION_TIME, days. */
  expirationDays: number | undefined
}

/** Local users only; warns when 5 days or fewer remain (spec 000 §9). */
export function passwordWarning(facts: PasswordFacts, now: Date): PasswordWarning | null {
  if (facts.source !== 'local' || !facts.expirationDays || facts.expirationDays <= 0) return null
  const last = parseServerDate(facts.lastUpdated)
  if (!last) return null
  const expires = last.getTime() + facts.expirationDays * DAY_MS
  const days = Math.ceil((expires - now.getTime()) / DAY_MS)
  if (days <= 0) return { kind: 'expired' }
  return days <= PASSWORD_WARNING_DAYS ? { kind: 'expiring', days } : null
}
