/**
 * Generic resource HTTP (contract §1.2–1.4, §4.6, §4.9–4.12): list with query, retrieve, create, update,
 * partial update, delete, bulk delete through `spm`, bulk PATCH, activities and operate-log diffs.
 * Raw DRF JSON is checked here; every failure becomes an `ApiError` carrying the status and the body.
 */
import { ApiError, http, readBody, toApiError } from './client.ts'

export type RowId = string | number
export type Row = { id: RowId } & Record<string, unknown>

export interface Page<T = Row> {
  count: number
  results: T[]
  next: string | null
}

export type QueryValue = string | number | boolean | null | undefined
export type Query = Readonly<Record<string, QueryValue>>

/** Failures are `ApiError`s of the shared client (status, parsed body, translated message). */
export { ApiError }

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The generic pages show every failure themselves (inline, on fields, in dialogs): calls are silent. */
const SILENT = { context: { silent: true } }

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    throw await toApiError(e)
  }
}

function unexpected(data: unknown, what: string): ApiError {
  return new ApiError(200, data, what, 'http')
}

/** Adds query parameters to a URL that may already carry some (empty values are left out). */
export function withQuery(url: string, query: Query = {}): string {
  const [path, existing = ''] = url.split('?', 2) as [string, string?]
  const params = new URLSearchParams(existing)
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue
    params.set(k, String(v))
  }
  const qs = params.toString()
  return qs ? `${path}?${qs}` : path
}

/** `<list path><id>/`, keeping the list URL's query (console-behaviour §2.11). */
export function detailUrl(listUrl: string, id: RowId): string {
  const [path, qs] = listUrl.split('?', 2) as [string, string?]
  const base = path.endsWith('/') ? path : `${path}/`
  return `${base}${encodeURIComponent(String(id))}/${qs ? `?${qs}` : ''}`
}

/** `<list path><id>/<action>/` (detail actions such as `password/reset`), keeping the list query. */
export function actionUrl(listUrl: string, id: RowId | undefined, action: string): string {
  const [path, qs] = (id === undefined ? listUrl : detailUrl(listUrl, id)).split('?', 2) as [string, string?]
  const base = path.endsWith('/') ? path : `${path}/`
  return `${base}${action.replace(/^\/|\/$/g, '')}/${qs ? `?${qs}` : ''}`
}

function toRow(raw: unknown): Row | undefined {
  if (!isObject(raw)) return undefined
  const id = raw.id ?? raw.pk
  if (typeof id !== 'string' && typeof id !== 'number') return { ...raw, id: '' }
  return { ...raw, id }
}

/** A list answer: paginated `{count, next, results}` or a bare array (no `limit`). */
export function parseListAnswer(raw: unknown): Page {
  if (Array.isArray(raw)) {
    const results = raw.map(toRow).filter((r): r is Row => r !== undefined)
    return { count: results.length, results, next: null }
  }
  if (isObject(raw) && Array.isArray(raw.results)) {
    const results = raw.results.map(toRow).filter((r): r is Row => r !== undefined)
    const count = typeof raw.count === 'number' ? raw.count : results.length
    return { count, results, next: typeof raw.next === 'string' ? raw.next : null }
  }
  throw unexpected(raw, 'unexpected list answer')
}

export interface CallOptions {
  signal?: AbortSignal
}

export function listResources(url: string, query: Query = {}, opts: CallOptions = {}): Promise<Page> {
  return call(async () => parseListAnswer(await http.get(withQuery(url, query), { ...SILENT, signal: opts.signal }).json<unknown>()))
}

/** Pages through a list until `next` is empty (pickers resolving their initial values by `spm`). */
export async function listAll(url: string, query: Query = {}, opts: CallOptions & { pageSize?: number; max?: number } = {}): Promise<Row[]> {
  const limit = opts.pageSize ?? 100
  const max = opts.max ?? 10_000
  const rows: Row[] = []
  for (let offset = 0; offset < max; offset += limit) {
    const page = await listResources(url, { ...query, limit, offset }, opts)
    rows.push(...page.results)
    if (!page.next || page.results.length === 0) break
  }
  return rows
}

export function getJson<T = unknown>(url: string, opts: CallOptions = {}): Promise<T> {
  return call(() => http.get(url, { ...SILENT, signal: opts.signal }).json<T>())
}

export function retrieveResource(listUrl: string, id: RowId, opts: CallOptions = {}): Promise<Row> {
  return call(async () => {
    const row = toRow(await http.get(detailUrl(listUrl, id), { ...SILENT, signal: opts.signal }).json<unknown>())
    if (!row) throw unexpected(undefined, 'unexpected detail answer')
    return row
  })
}

async function sendJson(method: 'post' | 'put' | 'patch' | 'delete', url: string, body?: unknown): Promise<unknown> {
  const response = await http(url, { ...SILENT, method, ...(body === undefined ? {} : { json: body }) })
  if (response.status === 204) return undefined
  return readBody(response)
}

export function createResource(listUrl: string, body: unknown, opts: { cloneFrom?: RowId } = {}): Promise<Row> {
  const url = opts.cloneFrom === undefined ? listUrl : withQuery(listUrl, { clone_from: opts.cloneFrom })
  return call(async () => toRow(await sendJson('post', url, body)) ?? { id: '' })
}

export function updateResource(listUrl: string, id: RowId, body: unknown): Promise<Row> {
  return call(async () => toRow(await sendJson('put', detailUrl(listUrl, id), body)) ?? { id })
}

export function patchResource(listUrl: string, id: RowId, body: unknown): Promise<Row> {
  return call(async () => toRow(await sendJson('patch', detailUrl(listUrl, id), body)) ?? { id })
}

/** A single-object endpoint (no id, e.g. a settings category): GET it. */
export function retrieveObject(url: string, opts: CallOptions = {}): Promise<Row> {
  return call(async () => {
    const row = toRow(await http.get(url, { ...SILENT, signal: opts.signal }).json<unknown>())
    if (!row) throw unexpected(undefined, 'unexpected object answer')
    return row
  })
}

/** A single-object endpoint: PUT (whole) or PATCH (the keys sent) it; answers the saved object. */
export function saveObject(url: string, method: 'put' | 'patch', body: unknown): Promise<Row> {
  return call(async () => toRow(await sendJson(method, url, body)) ?? { id: '' })
}

export function deleteResource(listUrl: string, id: RowId): Promise<void> {
  return call(async () => {
    await sendJson('delete', detailUrl(listUrl, id))
  })
}

/** Any other call (custom actions such as `…/<id>/unblock/`): method, URL, optional JSON body. */
export function sendAction(method: 'post' | 'put' | 'patch' | 'delete', url: string, body?: unknown): Promise<unknown> {
  return call(() => sendJson(method, url, body))
}

export const RESOURCE_CACHE_URL = '/api/v1/common/resources/cache/'

/** Caches an id list for 300 s and returns its `spm` (contract §4.6). */
export function cacheResources(ids: readonly RowId[]): Promise<string> {
  return call(async () => {
    const body = await sendJson('post', RESOURCE_CACHE_URL, { resources: ids })
    if (!isObject(body) || typeof body.spm !== 'string') throw unexpected(body, 'no spm in answer')
    return body.spm
  })
}

/** `DELETE <list>?spm=` of the given ids (contract §4.9). */
export async function bulkDelete(listUrl: string, ids: readonly RowId[]): Promise<void> {
  const spm = await cacheResources(ids)
  await call(() => sendJson('delete', withQuery(listUrl, { spm })))
}

/** `POST <url>?spm=` for list actions that take a selection (e.g. users `remove/`). */
export async function postWithSpm(url: string, ids: readonly RowId[]): Promise<void> {
  const spm = await cacheResources(ids)
  await call(() => sendJson('post', withQuery(url, { spm })))
}

/** `PATCH <list>` with `[{id, …fields}]`; on 400 the body is an array aligned with the items. */
export function bulkPatch(listUrl: string, items: readonly Row[]): Promise<unknown> {
  return call(() => sendJson('patch', listUrl, items))
}

// ---------------------------------------------------------------------------------------------- dates

/**
 * Parses the server's datetimes: `YYYY/MM/DD HH:MM:SS ±HHMM`, `YYYY-MM-DD HH:MM:SS` (local time, used by
 * activities) and ISO-8601. Anything else → undefined.
 */
export function parseServerDateTime(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined
  const m = /^(\d{4})[/-](\d{2})[/-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(value.trim())
  if (!m) return undefined
  const [, y, mo, d, h, mi, s, zone] = m
  if (!zone) return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))
  const z = zone === 'Z' ? '+00:00' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${z}`)
  return Number.isNaN(date.getTime()) ? undefined : date
}

// ---------------------------------------------------------------------------------------------- activities

export const ACTIVITIES_URL = '/api/v1/audits/activities/'

export interface Activity {
  id: string
  /** undefined when the server sent something unparsable (the raw text is kept). */
  at: Date | undefined
  timestamp: string
  /** O operate log, S session, L login log, T task; others pass through. */
  kind: string
  content: string
  detailUrl: string
}

export function parseActivities(raw: unknown): Activity[] {
  const list = Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.results) ? raw.results : []
  return list.filter(isObject).map((item, i) => {
    const timestamp = typeof item.timestamp === 'string' ? item.timestamp : ''
    return {
      id: typeof item.id === 'string' ? item.id : String(i),
      at: parseServerDateTime(timestamp),
      timestamp,
      kind: typeof item.r_type === 'string' ? item.r_type : '',
      content: typeof item.content === 'string' ? item.content : '',
      detailUrl: typeof item.detail_url === 'string' ? item.detail_url : '',
    }
  })
}

export function listActivities(resourceId: RowId, opts: CallOptions = {}): Promise<Activity[]> {
  return call(async () => parseActivities(await http.get(withQuery(ACTIVITIES_URL, { resource_id: resourceId }), { ...SILENT, signal: opts.signal }).json<unknown>()))
}

export interface DiffEntry {
  field: string
  before: string
  after: string
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v))

export function parseDiff(raw: unknown): DiffEntry[] {
  if (!isObject(raw) || !Array.isArray(raw.diff)) return []
  return raw.diff.filter(isObject).map((d) => ({ field: text(d.field), before: text(d.before), after: text(d.after) }))
}

/** The field diff of an operate log (`r_type` O): `GET detail_url` → `{diff: [{field, before, after}]}`. */
export function getOperateLogDiff(url: string, opts: CallOptions = {}): Promise<DiffEntry[]> {
  return call(async () => parseDiff(await http.get(url, { ...SILENT, signal: opts.signal }).json<unknown>()))
}
