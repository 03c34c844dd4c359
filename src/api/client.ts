import Cookies from 'js-cookie'
import ky, { type KyInstance, type Options } from 'ky'

/** Organization ids with a fixed meaning (contract §1.6). */
export const ROOT_ORG_ID = '00000000-0000-0000-0000-000000000000'
export const DEFAULT_ORG_ID = '00000000-0000-0000-0000-000000000002'
export const SYSTEM_ORG_ID = '00000000-0000-0000-0000-000000000004'

/** Where the client takes the organization header from; the app shell sets it (current org, XPACK state). */
export interface OrgSource {
  currentOrgId(): string | undefined
  xpackEnabled(): boolean
}
let orgSource: OrgSource = { currentOrgId: () => undefined, xpackEnabled: () => true }
export function setOrgSource(source: OrgSource): void {
  orgSource = source
}

/** CSRF cookie name: `<SESSION_COOKIE_NAME_PREFIX>csrftoken` (contract §1.7). */
export function csrfToken(): string | undefined {
  let prefix = Cookies.get('SESSION_COOKIE_NAME_PREFIX')
  if (!prefix || prefix === '""' || prefix === "''") prefix = 'jms_'
  return Cookies.get(`${prefix.replace(/"/g, '')}csrftoken`)
}

function orgHeader(oidFromUrl: string | null): string | undefined {
  const oid = oidFromUrl ?? orgSource.currentOrgId()
  if (!oid) return undefined
  if (!orgSource.xpackEnabled() && oid !== SYSTEM_ORG_ID) return DEFAULT_ORG_ID
  return oid
}

/**
 * The only HTTP client of the console: CSRF, X-JMS-ORG (route query `oid` or the current org), X-TZ,
 * 60 s timeout, no retries (spec 000 §7).
 */
export const http: KyInstance = ky.create({
  timeout: 60_000,
  retry: 0,
  credentials: 'same-origin',
  hooks: {
    beforeRequest: [
      (request) => {
        const token = csrfToken()
        if (token) request.headers.set('X-CSRFToken', token)
        const pageOid = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('oid')
        const org = orgHeader(pageOid)
        if (org && !request.headers.has('X-JMS-ORG')) request.headers.set('X-JMS-ORG', org)
        request.headers.set('X-TZ', Intl.DateTimeFormat().resolvedOptions().timeZone)
      },
    ],
  },
})

export type RequestOptions = Options
