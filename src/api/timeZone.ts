/**
 * The browser's time zone, sent as X-TZ on every request (spec 000 §7).
 *
 * The first `Intl.DateTimeFormat()` of a page loads the zone database: 40–80 ms of the main thread on the
 * reference machine, once per page — on a first visit's critical path if the client asked it before its first
 * request. So a page starts with a zone it already has:
 * - the early script's (early.ts): it asked Intl itself when nothing was remembered (`fromIntl`), and then that
 *   answer is this page's own;
 * - else the zone remembered from the last visit, checked against Intl once the page has started; a zone that changed
 *   (a laptop that travelled) is sent from then on and remembered.
 * Only with neither does the first request ask Intl.
 */

/** localStorage key of the time zone last sent, for the early script's requests of the next visit (early.ts). */
export const TIME_ZONE_KEY = 'bastionTimeZone'

/** What early.ts leaves on `globalThis.__bastionTimeZone`. */
export interface EarlyTimeZone {
  zone: string
  /** asked of Intl by this page (rather than taken from storage) */
  fromIntl: boolean
}

export interface TimeZoneSources {
  early(): EarlyTimeZone | undefined
  remembered(): string | null
  remember(zone: string): void
  intl(): string
  /** runs `check` once the page has time: after its start (a few seconds), when idle */
  later(check: () => void): void
}

export interface TimeZone {
  /** the zone to send now */
  current(): string
  /** forget the zone in use: the next request asks the sources again (after a preference changed) */
  refresh(): void
}

/** localStorage key of the user's preferred time zone (Preferences); absent: the browser's. */
export const PREFERRED_TIME_ZONE_KEY = 'bastionPreferredTimeZone'

export function createTimeZone(sources: TimeZoneSources): TimeZone {
  let zone: string | undefined
  /** refresh() was called: the next request asks the sources (the preference) at once, not the remembered zone */
  let refreshed = false
  const ask = (): string => {
    const asked = sources.intl()
    if (asked !== sources.remembered()) sources.remember(asked)
    return asked
  }
  return {
    refresh() {
      zone = undefined
      refreshed = true
    },
    current() {
      if (zone !== undefined) return zone
      if (refreshed) {
        refreshed = false
        return (zone = ask())
      }
      const early = sources.early()
      if (early?.fromIntl) {
        zone = early.zone
        if (sources.remembered() !== zone) sources.remember(zone)
        return zone
      }
      const known = early?.zone ?? sources.remembered()
      if (!known) return (zone = ask())
      zone = known
      sources.later(() => {
        zone = ask()
      })
      return zone
    },
  }
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage
  } catch {
    return undefined // storage denied (privacy settings)
  }
}

/** The zone the user chose in Preferences, or null (the browser's own is used: the one sent as X-TZ). */
export function preferredTimeZone(): string | null {
  return preferred()
}

function preferred(): string | null {
  try {
    return storage()?.getItem(PREFERRED_TIME_ZONE_KEY) ?? null
  } catch {
    return null
  }
}

/** The page's sources: early.ts's global, localStorage, Intl, an idle callback (a timer where there is none). */
export const browserTimeZoneSources: TimeZoneSources = {
  // a preferred zone wins over what the early script asked of Intl (its early answers are then asked again)
  early: () => (preferred() ? undefined : (globalThis as { __bastionTimeZone?: EarlyTimeZone }).__bastionTimeZone),
  remembered: () => {
    try {
      return storage()?.getItem(TIME_ZONE_KEY) ?? null
    } catch {
      return null
    }
  },
  remember: (zone) => {
    try {
      storage()?.setItem(TIME_ZONE_KEY, zone)
    } catch {
      // not remembered: the next visit asks Intl early
    }
  },
  intl: () => preferred() || Intl.DateTimeFormat().resolvedOptions().timeZone,
  // Not at the first idle moment: a starting page is idle while it waits for its data, and the check would then
  // hold up the render when the data arrives.
  later: (check) => {
    setTimeout(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(check, { timeout: 5_000 })
      else check()
    }, 5_000)
  },
}
