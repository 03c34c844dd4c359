/**
 * The table the early module (src/api/early.ts, rules in src/api/earlyPlan.ts) works from, made at build time from
 * the route catalogue and the console manifest (scripts/vite-plugins.ts, `earlyStart`, loads this module in the
 * build and writes its result into the early script): for each list page whose first reads depend only on the
 * address and the page size, what its route loader asks first (src/router/pageData.ts) — the OPTIONS of its API
 * URL and its first page with the default order — so a first visit starts them before the console's code has
 * arrived (docs/architecture.md, "First visit"). Built with the loader's own functions, so the early requests are
 * the loader's requests exactly; and the cookie, storage key and defaults the console reads to choose the page
 * size, the organization and the language.
 *
 * Left out: lists whose URL the page chooses at run time (`pageUrl`), lists with a default date range (today's
 * dates), lists shown as tabs of another page, and paths with parameters.
 */
import { DEFAULT_ORG_ID } from '../api/client.ts'
import { PREFERRED_TIME_ZONE_KEY, TIME_ZONE_KEY } from '../api/timeZone.ts'
import { SIZE_SLOT, type EarlyConfig } from '../api/earlyPlan.ts'
import { withQuery } from '../api/resources.ts'
import { LANGUAGE_COOKIE, LOCALES } from '../app/i18n.ts'
import { ORG_COOKIE } from '../app/persist.ts'
import { decodeListState, toApiQuery } from '../ui/list/listState.ts'
import { listDefaults } from '../ui/list/useListState.ts'
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_KEY, PAGE_SIZES } from '../ui/table/tableConfig.ts'
import { manifestRoute } from '../views/entries.ts'
import { ROUTABLE } from './catalog.ts'

/** A page size no one chooses, replaced by the slot once the address is built. */
const SENTINEL = 987_654_321

export interface EarlyList {
  /** router path */
  path: string
  /** route name (its page: src/router/pages.ts) */
  name: string
  /** the API URL (its OPTIONS) */
  url: string
  /** the first page's address with `{size}` */
  first: string
}

/** The list pages the early module may start, with the loader's first requests. */
export function earlyLists(): EarlyList[] {
  const lists: EarlyList[] = []
  for (const route of ROUTABLE) {
    const found = manifestRoute(route.name)
    if (!found || found.kind !== 'list' || route.path.includes(':')) continue
    const { item } = found
    if (item.entry.pageUrl) continue
    // The loader's defaults (src/router/pageData.ts) with no list state in the address.
    const defaults = listDefaults({ resource: item.resource })
    if (defaults.dateRange) continue
    const state = decodeListState({}, { ...defaults, size: SENTINEL })
    const first = withQuery(item.url, toApiQuery(state)).replace(`limit=${SENTINEL}`, `limit=${SIZE_SLOT}`)
    if (!first.includes(SIZE_SLOT)) continue
    lists.push({ path: route.path, name: route.name, url: item.url, first })
  }
  return lists
}

export function earlyTable(): EarlyConfig {
  return {
    lists: Object.fromEntries(earlyLists().map((l) => [l.path, [l.url, l.first] as const])),
    pageSize: { key: PAGE_SIZE_KEY, sizes: [...PAGE_SIZES], fallback: DEFAULT_PAGE_SIZE },
    org: { cookie: ORG_COOKIE, fallback: DEFAULT_ORG_ID },
    // detectLocale's order (src/app/i18n.ts): the cookie, the browser, then Chinese.
    locale: { cookie: LANGUAGE_COOKIE, known: [...LOCALES], fallback: 'zh' },
    timeZoneKey: TIME_ZONE_KEY,
    preferredTimeZoneKey: PREFERRED_TIME_ZONE_KEY,
  }
}
