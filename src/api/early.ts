/**
 * The first visit's requests, started before the console's code has downloaded (docs/architecture.md, "First
 * visit"). The build makes this file its own tiny entry, imported by nothing, and puts it first into index.html as
 * a classic script (scripts/vite-plugins.ts), so it runs as soon as its few hundred bytes arrive. What it asks is
 * decided by earlyPlan.ts from the address, the cookies and the build's table (`__BASTION_EARLY__`, written in by
 * the build; none in development) and chunk files (the tag's `data-assets`).
 *
 * It leaves the answers in `globalThis.__bastionEarly`; the HTTP client adopts one for the very same request
 * (method, address, organization header), once, while the first page loads (earlyAnswers.ts).
 */
import { planEarly, type EarlyAssets, type EarlyConfig } from './earlyPlan.ts'
import type { EarlyRecord } from './earlyAnswers.ts'
import type { EarlyTimeZone } from './timeZone.ts'

declare const __BASTION_EARLY__: EarlyConfig | undefined

/** The tag's `data-assets`: each file once in `files`, named elsewhere by its index (scripts/vite-plugins.ts). */
interface PackedAssets {
  files: string[]
  catalogues: Record<string, number>
  list: number[]
  pages: Record<string, number[]>
}

function assetsOfTag(): EarlyAssets | undefined {
  try {
    const raw = (document.currentScript as HTMLScriptElement | null)?.dataset.assets
    if (!raw) return undefined
    const packed = JSON.parse(raw) as PackedAssets
    const files = (ids: number[]) => ids.map((i) => packed.files[i]!)
    return {
      catalogues: Object.fromEntries(Object.entries(packed.catalogues).map(([k, i]) => [k, packed.files[i]!])),
      list: files(packed.list),
      pages: Object.fromEntries(Object.entries(packed.pages).map(([k, ids]) => [k, files(ids)])),
    }
  } catch {
    return undefined
  }
}

function stored(key: string | undefined): string | null {
  try {
    return key ? localStorage.getItem(key) : null
  } catch {
    return null
  }
}

function start(): EarlyRecord[] {
  const config = typeof __BASTION_EARLY__ === 'undefined' ? undefined : __BASTION_EARLY__
  const plan = planEarly({
    pathname: window.location.pathname,
    search: window.location.search,
    cookies: document.cookie,
    language: navigator.language,
    storedPageSize: stored(config?.pageSize.key),
    config,
    assets: assetsOfTag(),
  })
  // The code first: the server sends these files at once, its answers take longer.
  for (const href of plan.preloads) {
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.href = href
    link.crossOrigin = '' // as the module script tag: one fetch serves both
    document.head.appendChild(link)
  }
  // The time zone the client sent last (the first Intl call of a page costs tens of milliseconds); the client
  // adopts an answer only when its own X-TZ is the same.
  // (A zone chosen in Preferences first: the last one sent may predate the choice, made on another browser.)
  const remembered = stored(config?.preferredTimeZoneKey) || stored(config?.timeZoneKey)
  const tz = remembered || Intl.DateTimeFormat().resolvedOptions().timeZone
  ;(globalThis as unknown as { __bastionTimeZone?: EarlyTimeZone }).__bastionTimeZone = { zone: tz, fromIntl: !remembered }
  return plan.requests.map((r) => {
    const headers: Record<string, string> = { Accept: 'application/json', 'X-TZ': tz }
    if (r.org) headers['X-JMS-ORG'] = r.org
    const url = new URL(r.url, window.location.href)
    const record: EarlyRecord = { ...r, url: url.pathname + url.search, tz, answer: fetch(url, { method: r.method, credentials: 'same-origin', headers }) }
    // A failure is the caller's to see when it asks (it then calls again); the arrival dates the answer.
    record.answer.then(() => { record.arrived = performance.now() }, () => {})
    return record
  })
}

const holder = globalThis as unknown as { __bastionEarly?: EarlyRecord[] }
holder.__bastionEarly ??= start()
