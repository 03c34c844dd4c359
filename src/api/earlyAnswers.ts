/**
 * The answers early.ts asked for before the console's code arrived, and the rules by which the HTTP client
 * (client.ts) adopts one instead of asking again (docs/architecture.md, "First visit"):
 * - only for the very same request: method, path and query, X-JMS-ORG header (none = none) and X-TZ, so an early
 *   guess of another organization, page size, order or time zone is never taken for the loader's request;
 * - once;
 * - only while fresh: still on its way, or arrived at most `EARLY_MAX_AGE_MS` ago;
 * - only a success: anything else (a 401 of a session that ended, a 403, a network failure) is asked again the
 *   ordinary way, so errors, the re-login dialog and toasts stay where they are;
 * - only during the first page's load: the shell drops what is left when the first page has loaded
 *   (`dropEarly`, main.tsx), and any successful write drops them too (client.ts).
 */

export interface EarlyRecord {
  method: 'GET' | 'OPTIONS'
  /** path and query */
  url: string
  /** X-JMS-ORG sent, null for none */
  org: string | null
  /** X-TZ sent */
  tz: string
  answer: Promise<Response>
  /** `performance.now()` when the answer arrived (unset while on its way) */
  arrived?: number
}

export interface RequestKey {
  method: string
  /** path and query */
  url: string
  org: string | null
  tz: string | null
}

export const EARLY_MAX_AGE_MS = 10_000

/** The early answer for `key`, taken out of `records` (stale ones are dropped on the way); undefined if none. */
export function takeEarly(records: EarlyRecord[], key: RequestKey, now: number): EarlyRecord | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!
    if (r.arrived !== undefined && now - r.arrived > EARLY_MAX_AGE_MS) records.splice(i, 1)
  }
  const at = records.findIndex((r) => r.method === key.method.toUpperCase() && r.url === key.url && r.org === key.org && r.tz === key.tz)
  return at < 0 ? undefined : records.splice(at, 1)[0]
}

const holder = globalThis as unknown as { __bastionEarly?: EarlyRecord[] }

/** Forgets every early answer not taken yet. */
export function dropEarly(): void {
  if (holder.__bastionEarly) holder.__bastionEarly.length = 0
}

/** The answer, or undefined when it failed or is not a success, or when `signal` aborts first. */
async function successOf(answer: Promise<Response>, signal: AbortSignal | undefined): Promise<Response | undefined> {
  if (signal?.aborted) return undefined
  const aborted = new Promise<undefined>((resolve) => signal?.addEventListener('abort', () => resolve(undefined), { once: true }))
  const response = await Promise.race([answer.catch(() => undefined), aborted])
  return response?.ok ? response : undefined
}

/**
 * For the client's request hook: the early answer of this request when there is a fresh, successful one; else
 * undefined and the request goes out as usual.
 */
export async function adoptEarly(request: Request): Promise<Response | undefined> {
  const records = holder.__bastionEarly
  if (!records?.length || (request.method !== 'GET' && request.method !== 'OPTIONS')) return undefined
  const url = new URL(request.url)
  const record = takeEarly(records, { method: request.method, url: url.pathname + url.search, org: request.headers.get('X-JMS-ORG'), tz: request.headers.get('X-TZ') }, performance.now())
  return record ? successOf(record.answer, request.signal) : undefined
}
