/**
 * Licence state (xpack, contract §4.5). The mode comes from config.license (env LICENSE):
 * `valid` (default) — a demo licence valid for a year; `expiring` — valid, expires in 3 days;
 * `expired` — xpack enabled but the licence is not valid; `none` — community install, no xpack at all.
 * A licence imported through `POST /api/v1/xpack/license/import` (stored in setting XPACK_LICENSE_CONTENT)
 * replaces the demo licence in every mode but `none`. Nothing is verified cryptographically: the real
 * format is closed source (contract §8).
 */
import type { FastifyRequest } from 'fastify'
import type { ServerConfig } from '../config.ts'
import type { DB } from '../db/connection.ts'
import { getSetting } from '../settings/store.ts'

export interface LicenseInfo {
  subscription_id: string
  corporation: string
  /** `YYYY-MM-DD`, last valid day (UTC). */
  date_expired: string
  asset_count: number
  edition: string
  serial_no: string
  remark: string
}

export interface LicenseState {
  /** XPACK_ENABLED */
  enabled: boolean
  /** XPACK_LICENSE_IS_VALID */
  valid: boolean
  info?: LicenseInfo
}

export const LICENSE_SETTING = 'XPACK_LICENSE_CONTENT'
const DAY = 86_400_000

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export function licenseIsCurrent(dateExpired: string, now = Date.now()): boolean {
  const end = Date.parse(`${dateExpired}T23:59:59.999Z`)
  return Number.isFinite(end) && end >= now
}

function demoLicense(mode: ServerConfig['license']): LicenseInfo {
  const days = mode === 'expiring' ? 3 : mode === 'expired' ? -1 : 365
  return {
    subscription_id: 'demo-subscription',
    corporation: 'Demo Corporation',
    date_expired: isoDay(Date.now() + days * DAY),
    asset_count: 5000,
    edition: 'Enterprise',
    serial_no: 'DEMO-0000-0000',
    remark: 'Demonstration licence',
  }
}

export async function licenseState(config: ServerConfig, db: DB): Promise<LicenseState> {
  if (config.license === 'none') return { enabled: false, valid: false }
  const imported = await getSetting<LicenseInfo | null | undefined>(db, LICENSE_SETTING)
  const info = imported && typeof imported === 'object' && typeof imported.date_expired === 'string' ? imported : demoLicense(config.license)
  return { enabled: true, valid: licenseIsCurrent(info.date_expired), info }
}

export function requestLicense(req: FastifyRequest): Promise<LicenseState> {
  return licenseState(req.server.services.config, req.ctx.db)
}
