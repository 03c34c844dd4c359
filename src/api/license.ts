import { request, silent } from './client.ts'

/** Licence detail (contract §4.5; xpack). */
export interface LicenseDetail {
  corporation: string
  /** `YYYY-MM-DD…` as the server sends it, or '' */
  date_expired: string
  asset_count: number | null
  current_asset_count: number | null
  edition: string
}

export const LICENSE_URL = '/api/v1/xpack/license/detail'

export function parseLicense(raw: unknown): LicenseDetail {
  const o = (raw ?? {}) as Record<string, unknown>
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(+v) ? +v : null)
  return {
    corporation: typeof o.corporation === 'string' ? o.corporation : '',
    date_expired: typeof o.date_expired === 'string' ? o.date_expired : '',
    asset_count: num(o.asset_count),
    current_asset_count: num(o.current_asset_count),
    edition: typeof o.edition === 'string' ? o.edition : '',
  }
}

/** Read quietly: a missing licence endpoint (community install) is not an error worth a toast. */
export async function fetchLicense(signal?: AbortSignal): Promise<LicenseDetail> {
  return parseLicense(await request('get', LICENSE_URL, silent({ signal })))
}

export const LICENSE_IMPORT_URL = '/api/v1/xpack/license/import'

/** Imports a licence file (multipart part `file`): the server's message, or an ApiError whose body has `msg`. */
export async function importLicense(file: File): Promise<string> {
  const body = new FormData()
  body.append('file', file)
  const raw = await request<Record<string, unknown>>('post', LICENSE_IMPORT_URL, silent({ body }))
  return typeof raw?.msg === 'string' ? raw.msg : ''
}
