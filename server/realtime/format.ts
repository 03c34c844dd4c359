import type { FastifyRequest } from 'fastify'

/**
 * Wire helpers of contract §1.3 and §1.5 used by the site-message endpoints. (When the resource engine exports
 * its own, these should be replaced by it.)
 */

/** `YYYY/MM/DD HH:MM:SS ±HHMM` in the request's time zone (contract §1.5). */
export function formatDateTime(value: Date | string | null | undefined, tz: string): string | null {
  if (value === null || value === undefined) return null
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return null
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(date).map((p) => [p.type, p.value]),
  )
  const local = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!)
  const offsetMin = Math.round((local - Math.floor(date.getTime() / 1000) * 1000) / 60_000)
  const sign = offsetMin < 0 ? '-' : '+'
  const abs = Math.abs(offsetMin)
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
  return `${parts.year}/${parts.month}/${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${zone}`
}

export interface PageRequest {
  limit: number
  offset: number
}

/** `limit` present and a positive integer → a page (clamped to 100); otherwise the whole list (contract §1.3). */
export function pageRequest(query: Record<string, unknown>, maxLimit = 100): PageRequest | null {
  const limit = Number.parseInt(String(query.limit ?? ''), 10)
  if (!Number.isFinite(limit) || limit <= 0) return null
  const offset = Number.parseInt(String(query.offset ?? ''), 10)
  return { limit: Math.min(limit, maxLimit), offset: Number.isFinite(offset) && offset > 0 ? offset : 0 }
}

/** Absolute `next`/`previous` links rebuilt from the request with `limit` and `offset` set. */
export function pageLinks(req: FastifyRequest, page: PageRequest, count: number): { next: string | null; previous: string | null } {
  const base = `${req.protocol}://${req.headers.host ?? 'localhost'}${req.url.split('?')[0]}`
  const link = (offset: number | null) => {
    const params = new URLSearchParams(req.url.split('?')[1] ?? '')
    params.set('limit', String(page.limit))
    if (offset === null) params.delete('offset')
    else params.set('offset', String(offset))
    return `${base}?${params.toString()}`
  }
  const next = page.offset + page.limit < count ? link(page.offset + page.limit) : null
  let previous: string | null = null
  if (page.offset > 0) {
    const prev = page.offset - page.limit
    previous = link(prev > 0 ? prev : null)
  }
  return { next, previous }
}
