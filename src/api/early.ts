/**
 * The first visit's start-up calls, started before the console's code has downloaded (docs/architecture.md,
 * "First visit"). The build makes this file its own tiny entry, imported by nothing, and puts it first into
 * index.html as a classic script (scripts/vite-plugins.ts), so it runs as soon as its few hundred bytes arrive.
 * It leaves the answers' promises in `globalThis.__bastionEarly`; `takeEarly` (client.ts) hands each to the
 * first `request()` of the same URL, once.
 *
 * Only GETs whose answer does not depend on anything the console decides later: the settings, the profile and
 * the asset categories, with the headers the client would send (X-TZ, X-JMS-ORG from the page's `oid`). The
 * signed-in calls leave only when the session mark cookie says a session may exist, so a visitor who is not
 * signed in makes no call that can only fail; a signed-in one does not ask for the open settings, which the public
 * settings include (src/app/appActor.ts, initApp).
 */

const SESSION_MARK = 'jms_session_expire'
const OPEN = ['/api/v1/settings/public/open/']
const SIGNED_IN = ['/api/v1/settings/public/', '/api/v1/users/profile/', '/api/v1/assets/categories/']

function start(): Map<string, Promise<Response>> {
  const early = new Map<string, Promise<Response>>()
  const headers: Record<string, string> = { Accept: 'application/json', 'X-TZ': Intl.DateTimeFormat().resolvedOptions().timeZone }
  const oid = new URLSearchParams(window.location.search).get('oid')
  if (oid) headers['X-JMS-ORG'] = oid
  const signedIn = document.cookie.split(/;\s*/).some((c) => c.startsWith(`${SESSION_MARK}=`))
  for (const url of signedIn ? SIGNED_IN : OPEN) {
    const answer = fetch(url, { credentials: 'same-origin', headers })
    answer.catch(() => {}) // a failure is the caller's to see when it asks (it then calls again)
    early.set(url, answer)
  }
  return early
}

const holder = globalThis as unknown as { __bastionEarly?: Map<string, Promise<Response>> }
holder.__bastionEarly ??= start()
