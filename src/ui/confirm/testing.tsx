/** Test-only helpers for the confirm, import and export dialogs (never imported by production code). */
import { generateKeyPairSync } from 'node:crypto'
import type { ReactElement } from 'react'
import { createLightTheme, FluentProvider } from '@fluentui/react-components'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { render, type RenderResult } from '@testing-library/react'
import { vi } from 'vitest'
import { BRAND_GREEN } from '../../app/brand.ts'

/** A `jms_public_key` cookie value (quoted base64 of a PEM public key, as the server sets it). */
export const PUBLIC_KEY_COOKIE = (() => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
  return `"${btoa(publicKey.export({ type: 'spki', format: 'pem' }).toString())}"`
})()

/** jsdom lacks ResizeObserver, which Fluent's positioning (tooltips, popovers) uses. */
class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

export function renderUi(ui: ReactElement): RenderResult {
  if (typeof window.ResizeObserver !== 'function') window.ResizeObserver = NoResizeObserver as unknown as typeof ResizeObserver
  if (i18n.locale !== 'en') i18n.loadAndActivate({ locale: 'en', messages: {} })
  return render(
    <I18nProvider i18n={i18n}>
      <FluentProvider theme={createLightTheme(BRAND_GREEN)}>{ui}</FluentProvider>
    </I18nProvider>,
  )
}

export interface Received {
  method: string
  url: URL
  headers: Headers
  /** parsed JSON, else the text */
  body: unknown
}

export type Route = (req: Received) => Response | unknown | Promise<Response | unknown>

export function jsonResponse(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })
}

const NodeRequest = globalThis.Request
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
  }
}

/**
 * A fake server behind `fetch`: `routes` maps `"METHOD /path/"` (query ignored; `*` matches one path segment)
 * to a handler returning a Response or a JSON body (200). Unmatched requests answer 404. Bodies that are not
 * JSON (uploaded files) arrive as text.
 */
export function fakeServer(routes: Record<string, Route>): Received[] {
  const received: Received[] = []
  const patterns = Object.entries(routes).map(([key, handler]) => {
    const [method, path] = key.split(' ') as [string, string]
    const re = new RegExp(`^${path.replace(/[.?+^$()[\]{}|\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`)
    return { method, re, handler }
  })
  vi.stubGlobal('Request', PageRequest)
  vi.stubGlobal('fetch', async (input: Request) => {
    const text = await input.text()
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      // a file
    }
    const req: Received = { method: input.method, url: new URL(input.url), headers: input.headers, body }
    received.push(req)
    const route = patterns.find((p) => p.method === req.method && p.re.test(req.url.pathname))
    if (!route) return jsonResponse(404, { detail: 'Not found.' })
    const out = await route.handler(req)
    return out instanceof Response ? out : jsonResponse(200, out)
  })
  return received
}

/** jsdom has no object URLs: records what would be saved. */
export function captureDownloads(): { name: string; blob: Blob }[] {
  const saved: { name: string; blob: Blob }[] = []
  const blobs = new Map<string, Blob>()
  let n = 0
  vi.stubGlobal('URL', Object.assign(class extends URL {}, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:test/${++n}`
      blobs.set(url, blob)
      return url
    },
    revokeObjectURL: () => {},
  }))
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)
    if (blob) saved.push({ name: this.download, blob })
  })
  return saved
}
