/**
 * What the early module (early.ts) asks for on a first visit, decided from the address, the cookies and
 * localStorage only: pure, so the rules are tested here and early.ts only carries them out. Bundled into the
 * early script alone (no runtime imports: the script is a classic one, docs/architecture.md "First visit").
 *
 * - The start-up GETs whose answer does not depend on anything the console decides later (the settings, the
 *   profile; X-JMS-ORG only from the page's `oid`, as the client sends them during start-up).
 *   Signed-in calls only when the session mark cookie says a session may exist: a visitor who is not signed in
 *   makes no call that can only fail; a signed-in one does not ask for the open settings, which the public
 *   settings include (src/app/appActor.ts, initApp).
 * - On a list page of the build's table (src/router/earlyTable.ts) with no list state in its address, signed in:
 *   the list's OPTIONS and first page, in the organization the console will most likely use (`oid`, else the
 *   organization cookie the console writes, else the default one) — a guess: the client adopts an early answer
 *   only for the very same request (earlyAnswers.ts), so a wrong guess costs a request, never a wrong answer.
 * - Module preloads of the code the opened page will need: the catalogue of the language the console will pick
 *   (src/app/i18n.ts, detectLocale) and, on a list page of the table, its page's chunks and the list chunk.
 */
export const SESSION_MARK = 'jms_session_expire'
export const OPEN = ['/api/v1/settings/public/open/']
export const SIGNED_IN = ['/api/v1/settings/public/', '/api/v1/users/profile/']

/** Where the page size goes in a first page's address (`limit={size}`). */
export const SIZE_SLOT = '{size}'

/** The build's table (src/router/earlyTable.ts makes it; scripts/vite-plugins.ts writes it into the early script). */
export interface EarlyConfig {
  /** Router path (no `/ui` base) → [the API URL (its OPTIONS), the first page's address with `{size}`]. */
  lists: Readonly<Record<string, readonly [string, string]>>
  /** The page size the list loader uses: localStorage `key` when one of `sizes`, else `fallback`. */
  pageSize: { key: string; sizes: readonly number[]; fallback: number }
  /** the organization header's guess when the address has no `oid`: this cookie (a UUID), else `fallback` */
  org: { cookie: string; fallback: string }
  /** the console's language: this cookie, then the browser's, then `fallback` (first two letters, lower case) */
  locale: { cookie: string; known: readonly string[]; fallback: string }
  /** localStorage key of the time zone the client last sent (its X-TZ), so no Intl call delays the requests */
  timeZoneKey: string
  /** localStorage key of the zone chosen in Preferences: sent before the one last sent (a preference just changed) */
  preferredTimeZoneKey?: string
}

/** Chunk files of the build, by use (the `data-assets` of the early script tag). */
export interface EarlyAssets {
  /** locale → the catalogue chunk */
  catalogues?: Record<string, string>
  /** the chunks every list page imports */
  list?: readonly string[]
  /** list path → its page's chunk and the chunks that imports */
  pages?: Readonly<Record<string, readonly string[]>>
}

export interface EarlyRequest {
  method: 'GET' | 'OPTIONS'
  /** path and query */
  url: string
  /** the X-JMS-ORG header sent, null for none */
  org: string | null
}

export interface EarlyPlan {
  requests: EarlyRequest[]
  preloads: string[]
}

export interface EarlyInput {
  /** `location.pathname` */
  pathname: string
  /** `location.search` */
  search: string
  /** `document.cookie` */
  cookies: string
  /** `navigator.language` */
  language: string | undefined
  /** localStorage value of the table's page-size key */
  storedPageSize: string | null
  /** the build's table (none in development and tests) */
  config: EarlyConfig | undefined
  assets: EarlyAssets | undefined
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function cookieValue(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(/;\s*/)) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq) === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1))
      } catch {
        return part.slice(eq + 1)
      }
    }
  }
  return undefined
}

/** The router path of a console address (`/ui/console/users/users/` → `/console/users/users`). */
export function routerPathOf(pathname: string): string {
  const path = pathname.replace(/^\/ui(?=\/|$)/, '').replace(/\/+$/, '')
  return path === '' ? '/' : path
}

/** The language the console will choose (src/app/i18n.ts, detectLocale). */
export function guessLocale(locale: EarlyConfig['locale'], cookies: string, language: string | undefined): string {
  const pick = (value: string | undefined) => {
    const v = (value ?? '').slice(0, 2).toLowerCase()
    return locale.known.includes(v) ? v : undefined
  }
  return pick(cookieValue(cookies, locale.cookie)) ?? pick(language) ?? locale.fallback
}

/** The page size the list loader will use (src/ui/table/tableConfig.ts, readPageSize). */
export function guessPageSize(pageSize: EarlyConfig['pageSize'], stored: string | null): number {
  const n = Number(stored)
  return pageSize.sizes.includes(n) ? n : pageSize.fallback
}

export function planEarly(input: EarlyInput): EarlyPlan {
  const params = new URLSearchParams(input.search)
  const oid = params.get('oid')
  const signedIn = Boolean(cookieValue(input.cookies, SESSION_MARK))
  const requests: EarlyRequest[] = (signedIn ? SIGNED_IN : OPEN).map((url) => ({ method: 'GET', url, org: oid }))
  const preloads: string[] = []
  const { config, assets } = input
  if (!config) return { requests, preloads }
  const catalogue = assets?.catalogues?.[guessLocale(config.locale, input.cookies, input.language)]
  if (catalogue) preloads.push(catalogue)
  const path = routerPathOf(input.pathname)
  const list = config.lists[path]
  if (!list) return { requests, preloads }
  for (const file of [...(assets?.pages?.[path] ?? []), ...(assets?.list ?? [])]) if (!preloads.includes(file)) preloads.push(file)
  // Only the list's default first page: any list state in the address (page, filters, search, order…) is the
  // loader's to read. `oid` alone keeps the defaults.
  if (!signedIn || [...params.keys()].some((k) => k !== 'oid')) return { requests, preloads }
  const cookieOrg = cookieValue(input.cookies, config.org.cookie)
  const org = oid ?? (cookieOrg && UUID.test(cookieOrg) ? cookieOrg : config.org.fallback)
  const [metadataUrl, first] = list
  const size = guessPageSize(config.pageSize, input.storedPageSize)
  requests.push({ method: 'OPTIONS', url: metadataUrl, org }, { method: 'GET', url: first.replace(SIZE_SLOT, String(size)), org })
  return { requests, preloads }
}
