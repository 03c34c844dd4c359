/**
 * Test-only helpers (never imported by production code): a fake `fetch` answering by method + path, and
 * Lingui activated in English so macros render their source text.
 */
import { i18n } from '@lingui/core'
import { vi } from 'vitest'

export interface SentRequest {
  method: string
  url: URL
  headers: Headers
  body: unknown
}

export type Handler = (req: SentRequest) => Response | unknown | Promise<Response | unknown>

export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

/** Browsers resolve relative URLs against the page; Node's Request does not, so the fake does it. */
const NodeRequest = globalThis.Request
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
  }
}

/**
 * Installs a fake fetch. `routes` maps `"METHOD /path/"` (query ignored) to a handler returning a Response or a
 * JSON body (200). Unmatched requests answer 404. Returns the list of requests sent.
 */
export function fakeFetch(routes: Record<string, Handler>): SentRequest[] {
  const sent: SentRequest[] = []
  vi.stubGlobal('Request', PageRequest)
  vi.stubGlobal('fetch', async (input: Request) => {
    const text = await input.text()
    const req: SentRequest = { method: input.method, url: new URL(input.url), headers: input.headers, body: text ? JSON.parse(text) : undefined }
    sent.push(req)
    const handler = routes[`${req.method} ${req.url.pathname}`]
    if (!handler) return json(404, { detail: 'Not found.' })
    const out = await handler(req)
    return out instanceof Response ? out : json(200, out)
  })
  return sent
}

export function activateEnglish(): void {
  if (i18n.locale !== 'en') i18n.loadAndActivate({ locale: 'en', messages: {} })
}
