/**
 * What the console remembers in the browser (console-behaviour §2.2): per username the current and previous
 * organization (`jms_current_org_<username>`, `PRE_ORG_<username>`, JSON), the last view (`PreView`), and the
 * `X-JMS-ORG` cookie that server-rendered pages read.
 */
import Cookies from 'js-cookie'
import { isViewName } from '../../machines/index.ts'
import type { Org, PersistedViewOrg, PersistViewOrgPayload, RefreshMarkParams } from '../../machines/index.ts'

export const currentOrgKey = (username: string) => `jms_current_org_${username}`
export const previousOrgKey = (username: string) => `PRE_ORG_${username}`
export const LAST_VIEW_KEY = 'PreView'
export const ORG_COOKIE = 'X-JMS-ORG'

function readOrg(key: string): Org | null {
  try {
    const raw = localStorage.getItem(key)
    if (!raw) return null
    const o = JSON.parse(raw) as Partial<Org> | null
    return o && typeof o.id === 'string' ? { id: o.id, name: typeof o.name === 'string' ? o.name : o.id, is_default: o.is_default === true, is_root: o.is_root === true } : null
  } catch {
    return null
  }
}

// A write only when the value changes: every start persists what it resolved, and a page's first write to its
// storage costs a round trip to the browser (several ms during a first visit); the reads are served locally.
function writeItem(key: string, value: string | null): void {
  if (localStorage.getItem(key) === value) return
  if (value === null) localStorage.removeItem(key)
  else localStorage.setItem(key, value)
}

function writeOrg(key: string, org: Org | null): void {
  writeItem(key, org ? JSON.stringify(org) : null)
}

export function readPersisted(username: string): Partial<PersistedViewOrg> {
  const view = localStorage.getItem(LAST_VIEW_KEY)
  return {
    currentOrg: readOrg(currentOrgKey(username)),
    previousOrg: readOrg(previousOrgKey(username)),
    lastView: isViewName(view) ? view : null,
  }
}

export function writePersisted(payload: PersistViewOrgPayload): void {
  if (!payload.username) return
  writeOrg(currentOrgKey(payload.username), payload.currentOrg)
  writeOrg(previousOrgKey(payload.username), payload.previousOrg)
  if (payload.lastView) writeItem(LAST_VIEW_KEY, payload.lastView)
  // Written only when it changes: every start persists the organization it resolved, and a cookie written from
  // JavaScript makes the browser's next `document.cookie` read a synchronous call to its network process (1–10 ms
  // on this machine during a first visit; reads of an unchanged jar are served from the page's cache).
  if (payload.currentOrg && Cookies.get(ORG_COOKIE) !== payload.currentOrg.id) Cookies.set(ORG_COOKIE, payload.currentOrg.id, { path: '/', sameSite: 'lax' })
}

/**
 * The session mark's rewrite (`refreshMark` of the sessionMark machine), when the page is next idle: a cookie
 * written from JavaScript makes the page's next cookie read a synchronous call to the browser (≈9 ms during a first
 * visit), and the mark just read has up to two minutes to run. A mark gone meanwhile (a logout clears it) is not
 * written back.
 */
export async function refreshMarkWhenIdle(p: RefreshMarkParams, idle: () => Promise<void>): Promise<void> {
  await idle()
  if (Cookies.get(p.name) !== undefined) Cookies.set(p.name, p.value, { path: '/', sameSite: 'lax', expires: new Date(Date.now() + p.expiresInMs) })
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The organization the server resolves for a request without X-JMS-ORG header: the cookie, else DEFAULT. */
export function cookieOrgId(defaultOrgId: string): string {
  const v = Cookies.get(ORG_COOKIE)
  return v && UUID_RE.test(v) ? v : defaultOrgId
}
