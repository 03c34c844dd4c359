/**
 * Import, export and confirmation calls (contract §4.6–4.8, §4.16; spec 000 §7):
 * - files: export and template downloads with progress, `render-to-json` uploads, one import row per call;
 * - the user confirmation API (MFA / password / re-login) and the check of a protected URL.
 * Every failure becomes the client's `ApiError` (status, DRF body, text to show), except a missing or unusable
 * session public key, which stays the crypto module's own error: nothing secret is ever sent in clear.
 */
import Cookies from 'js-cookie'
import { ApiError, errorText, genericMessage, http, silent, toApiError } from './client.ts'
import { encryptSecret, InvalidPublicKeyError, MissingPublicKeyError } from './crypto.ts'
import { detailUrl, withQuery } from './resources.ts'

export const CONFIRM_URL = '/api/v1/authentication/confirm/'
export const MFA_SELECT_URL = '/api/v1/authentication/mfa/select/'
/** The server refuses bigger files (contract §4.8, 10 MiB). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024
/** Row fields encrypted before upload (console-behaviour §2.1: import rows). */
export const IMPORT_SECRET_FIELDS: readonly string[] = ['password', 'secret', 'private_key']

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

// ---------------------------------------------------------------------------------------------- errors

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    if (e instanceof MissingPublicKeyError || e instanceof InvalidPublicKeyError) throw e
    throw await toApiError(e)
  }
}

/** An answer of the wrong shape (a proxy page, an old server). */
function badAnswer(status: number, data: unknown): ApiError {
  return new ApiError(status, data, errorText(data) || genericMessage(500))
}

/** Failures are shown by the dialogs, never as the global toast. */
const quiet = silent

// ---------------------------------------------------------------------------------------------- URLs

function splitUrl(url: string): [string, string | undefined] {
  const at = url.indexOf('?')
  return at < 0 ? [url, undefined] : [url.slice(0, at), url.slice(at + 1)]
}

/** `<list path><suffix>` keeping the list URL's query: `…/users/` + `render-to-json/`. */
export function underList(listUrl: string, suffix: string): string {
  const [path, query] = splitUrl(listUrl)
  const base = path.endsWith('/') ? path : `${path}/`
  return query ? `${base}${suffix}?${query}` : `${base}${suffix}`
}

// ---------------------------------------------------------------------------------------------- files

export type FileFormat = 'csv' | 'xlsx'
export type TemplateKind = 'import' | 'update'

export interface DownloadedFile {
  blob: Blob
  filename: string
}

/** Bytes received so far; `total` is null when the server did not say. */
export interface DownloadProgress {
  loaded: number
  total: number | null
}

/** The file name of a `Content-Disposition` header (`filename*=UTF-8''…` wins over `filename="…"`). */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header)
  if (star?.[2]) {
    try {
      return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ''))
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header)
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim()
  return name || fallback
}

function fallbackName(url: string, format: FileFormat | 'zip'): string {
  const segments = splitUrl(url)[0].split('/').filter(Boolean)
  return `${segments[segments.length - 1] ?? 'export'}.${format}`
}

/**
 * Downloads a file through the client (cookies, CSRF, org header) as a blob, reporting progress, so that a
 * failure is an error the dialog can show instead of a broken browser download.
 */
export function downloadFile(
  url: string,
  format: FileFormat | 'zip',
  opts: { onProgress?: (progress: DownloadProgress) => void; signal?: AbortSignal } = {},
): Promise<DownloadedFile> {
  return call(async () => {
    const response = await http.get(url, quiet({
      signal: opts.signal,
      timeout: false,
      onDownloadProgress: (p) => opts.onProgress?.({ loaded: p.transferredBytes, total: p.totalBytes > 0 ? p.totalBytes : null }),
    }))
    const type = response.headers.get('Content-Type') ?? ''
    // A render failure answers a short JSON or text body instead of a file (contract §4.7).
    if (/application\/json/i.test(type)) {
      throw badAnswer(response.status, await response.json().catch(() => undefined))
    }
    const blob = await response.blob()
    return { blob, filename: filenameFromDisposition(response.headers.get('Content-Disposition'), fallbackName(url, format)) }
  })
}

/** `GET <list>?…&format=` (contract §4.7); `query` is the export query the dialog built. */
export function exportUrl(listUrl: string, query: Readonly<Record<string, string>>, format: FileFormat): string {
  return withQuery(listUrl, { ...query, format })
}

/** Import template: `template=import|update` with the selected rows' spm, else `limit=1` (console-behaviour §2.5). */
export function templateUrl(listUrl: string, format: FileFormat, template: TemplateKind, spm?: string): string {
  return withQuery(listUrl, { format, template, ...(spm ? { spm } : { limit: '1' }) })
}

// ---------------------------------------------------------------------------------------------- import

/** `[header text as written, field name]` pairs and the parsed rows (contract §4.8). */
export interface RenderedFile {
  title: [string, string][]
  data: Json[]
}

export function parseRenderedFile(body: unknown): RenderedFile | undefined {
  if (!isObject(body) || !Array.isArray(body.title) || !Array.isArray(body.data)) return undefined
  const title: [string, string][] = []
  for (const pair of body.title) {
    if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string') title.push([pair[0], pair[1]])
    else if (isObject(pair) && typeof pair.label === 'string' && typeof pair.name === 'string') title.push([pair.label, pair.name])
  }
  return { title, data: body.data.filter(isObject) }
}

/** `text/csv` when the file name mentions csv, else `text/xlsx` (console-behaviour §2.5). */
export function fileContentType(name: string): string {
  return /csv/i.test(name) ? 'text/csv' : 'text/xlsx'
}

/** `POST <list>render-to-json/` with the raw file as the body. */
export function renderToJson(listUrl: string, file: Blob & { name: string }, signal?: AbortSignal): Promise<RenderedFile> {
  return call(async () => {
    const body = await http
      .post(underList(listUrl, 'render-to-json/'), quiet({
        body: await file.arrayBuffer(),
        headers: { 'Content-Type': fileContentType(file.name) },
        signal,
        timeout: false,
      }))
      .json<unknown>()
    const parsed = parseRenderedFile(body)
    if (!parsed) throw badAnswer(200, body)
    return parsed
  })
}

export type ImportMode = 'create' | 'update'

/**
 * Uploads one row: `POST <list>` (create) or `PUT <list><id>/` (update). The body is the row's fields only;
 * a failure's `body` holds the DRF field errors.
 */
export function importRow(listUrl: string, mode: ImportMode, fields: Readonly<Json>, signal?: AbortSignal): Promise<void> {
  return call(async () => {
    if (mode === 'create') {
      await http.post(listUrl, quiet({ json: fields, signal }))
      return
    }
    const id = fields.id
    if ((typeof id !== 'string' && typeof id !== 'number') || id === '') {
      const data = { id: ['This field is required.'] }
      throw new ApiError(400, data, genericMessage(400))
    }
    await http.put(detailUrl(listUrl, id), quiet({ json: fields, signal }))
  })
}

/**
 * Encrypts the secret fields of a row with the session's public key (contract §6), once, when the preview is
 * built. Empty values stay empty; without a key this throws `MissingPublicKeyError`, so nothing leaves in clear.
 */
export function encryptImportSecrets<T extends Json>(row: T, publicKeyCookie = Cookies.get('jms_public_key')): T {
  const out: Json = { ...row }
  for (const field of IMPORT_SECRET_FIELDS) {
    const value = out[field]
    if (typeof value === 'string' && value !== '') {
      out[field] = encryptSecret(value, publicKeyCookie)
    }
  }
  return out as T
}

// ---------------------------------------------------------------------------------------------- confirm

export type ConfirmType = 'relogin' | 'password' | 'mfa'
const CONFIRM_TYPES: readonly string[] = ['relogin', 'password', 'mfa']
export const isConfirmType = (v: unknown): v is ConfirmType => typeof v === 'string' && CONFIRM_TYPES.includes(v)

/** One MFA backend offered for the confirmation (`otp`, `sms`, `otp_radius`, `mfa_custom`). */
export interface ConfirmMethod {
  name: string
  displayName: string
  disabled: boolean
  placeholder: string
}

export interface ConfirmMethods {
  confirmType: ConfirmType
  /** empty for password and relogin */
  methods: ConfirmMethod[]
}

export type ProtectedCheck = { kind: 'ok' } | { kind: 'confirm'; confirmType: ConfirmType }

/**
 * `GET <url>`: 2xx means the session is confirmed recently enough; a 400 `{code: relogin|password|mfa}` names the
 * confirmation needed (contract §4.16). Any other failure rejects.
 */
export function checkProtected(url: string, signal?: AbortSignal): Promise<ProtectedCheck> {
  return call(async () => {
    try {
      await http.get(url, quiet({ signal }))
      return { kind: 'ok' as const }
    } catch (e) {
      const error = await toApiError(e)
      const code = error.code
      if (error.status === 400 && isConfirmType(code)) return { kind: 'confirm' as const, confirmType: code }
      throw error
    }
  })
}

export function parseConfirmMethods(body: unknown): ConfirmMethods | undefined {
  if (!isObject(body) || !isConfirmType(body.confirm_type)) return undefined
  const content = Array.isArray(body.content) ? body.content.filter(isObject) : []
  const methods = content.map((item) => ({
    name: String(item.name ?? ''),
    displayName: String(item.display_name ?? item.name ?? ''),
    disabled: item.disabled === true,
    placeholder: typeof item.placeholder === 'string' ? item.placeholder : '',
  })).filter((m) => m.name)
  return { confirmType: body.confirm_type, methods }
}

/** `GET /api/v1/authentication/confirm/?confirm_type=` → the strongest method the user can do. */
export function getConfirmMethods(confirmType: ConfirmType, signal?: AbortSignal): Promise<ConfirmMethods> {
  return call(async () => {
    const body = await http.get(withQuery(CONFIRM_URL, { confirm_type: confirmType }), quiet({ signal })).json<unknown>()
    const parsed = parseConfirmMethods(body)
    if (!parsed) throw badAnswer(200, body)
    return parsed
  })
}

export interface ConfirmSubmission {
  confirmType: ConfirmType
  /** the MFA backend; left out for password and relogin */
  mfaType?: string
  /** the code or password in clear; encrypted here (the reference sends it in clear) */
  secret: string
}

/** `POST /api/v1/authentication/confirm/`; relogin sends an empty `secret_key`. */
export function submitConfirm(submission: ConfirmSubmission, signal?: AbortSignal): Promise<void> {
  return call(async () => {
    const json: Json = { confirm_type: submission.confirmType }
    if (submission.confirmType === 'mfa' && submission.mfaType) json.mfa_type = submission.mfaType
    json.secret_key = submission.confirmType === 'relogin' ? '' : encryptSecret(submission.secret, Cookies.get('jms_public_key'))
    await http.post(CONFIRM_URL, quiet({ json, signal }))
  })
}

/** `POST /api/v1/authentication/mfa/select/ {type: 'sms'}`: the server sends a code. */
export function sendSmsCode(signal?: AbortSignal): Promise<void> {
  return call(async () => {
    await http.post(MFA_SELECT_URL, quiet({ json: { type: 'sms' }, signal }))
  })
}
