/**
 * `GET /api/v1/xpack/license/detail` and `POST /api/v1/xpack/license/import` (both also with a trailing
 * slash; contract §4.5). 404 when xpack is off (LICENSE=none); both need `settings.change_license`.
 * The import accepts a JSON licence file `{corporation, date_expired, asset_count, edition, serial_no}`
 * (optional subscription_id, remark) in the multipart part `file`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { requirePerm } from '../http/context.ts'
import { ApiError } from '../http/errors.ts'
import { tr } from '../i18n.ts'
import { setSettings } from '../settings/store.ts'
import { LICENSE_SETTING, type LicenseInfo, licenseIsCurrent, requestLicense } from './license.ts'
import { STARTUP_MESSAGES } from './messages.ts'

const MAX_LICENSE_BYTES = 64 * 1024

async function xpackOnly(req: FastifyRequest) {
  const license = await requestLicense(req)
  if (!license.enabled) throw new ApiError(404, { detail: 'Not found.', code: 'not_found' })
  await requirePerm(req, 'settings.change_license')
  return license
}

/** `YYYY-MM-DD` (a longer datetime is cut to its day) when it is a real calendar day. */
function calendarDay(v: unknown): string | undefined {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})/.exec(v) : null
  if (!m) return undefined
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return day.toISOString().slice(0, 10) === m[0] ? m[0] : undefined
}

const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() !== '' && v.length <= max ? v.trim() : undefined)

/** The licence in a file, or undefined when the file is not one. */
export function parseLicenseFile(content: Buffer): LicenseInfo | undefined {
  let data: unknown
  try {
    data = JSON.parse(content.toString('utf8'))
  } catch {
    return undefined
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined
  const d = data as Record<string, unknown>
  const count = Number(d.asset_count)
  const info = {
    subscription_id: text(d.subscription_id, 128) ?? '',
    corporation: text(d.corporation, 128),
    date_expired: calendarDay(d.date_expired),
    asset_count: Number.isInteger(count) && count > 0 ? count : undefined,
    edition: text(d.edition, 64),
    serial_no: text(d.serial_no, 128),
    remark: typeof d.remark === 'string' ? d.remark.slice(0, 1024) : '',
  }
  if (!info.corporation || !info.date_expired || !info.asset_count || !info.edition || !info.serial_no) return undefined
  return info as LicenseInfo
}

async function detail(req: FastifyRequest) {
  const license = await xpackOnly(req)
  const info = license.info!
  return { ...info, current_asset_count: await req.server.startupHooks.assetCount(req.ctx.db) }
}

async function importLicense(req: FastifyRequest, reply: FastifyReply) {
  await xpackOnly(req)
  const refuse = (msg: string) => reply.status(400).send({ status: false, msg: tr(req.ctx.lang, msg) })
  if (!req.isMultipart()) return refuse(STARTUP_MESSAGES.licenseFileRequired)
  const file = await req.file({ limits: { fileSize: MAX_LICENSE_BYTES } })
  if (!file || file.fieldname !== 'file') return refuse(STARTUP_MESSAGES.licenseFileRequired)
  let content: Buffer
  try {
    content = await file.toBuffer()
  } catch {
    return refuse(STARTUP_MESSAGES.licenseInvalid) // larger than any licence file
  }
  const info = parseLicenseFile(content)
  if (!info) return refuse(STARTUP_MESSAGES.licenseInvalid)
  if (!licenseIsCurrent(info.date_expired)) return refuse(STARTUP_MESSAGES.licenseExpired)
  await setSettings(req.ctx.db, { [LICENSE_SETTING]: info })
  return { status: true, msg: tr(req.ctx.lang, STARTUP_MESSAGES.licenseImported) }
}

export function registerLicense(app: FastifyInstance): void {
  for (const suffix of ['', '/']) {
    app.get(`/api/v1/xpack/license/detail${suffix}`, detail)
    app.post(`/api/v1/xpack/license/import${suffix}`, importLicense)
  }
}
