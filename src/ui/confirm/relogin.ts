/** Where the re-login button goes: the server logout, then back to the current page (console-behaviour §2.7). */
export function reloginHref(location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location): string {
  return `/core/auth/logout/?next=${encodeURIComponent(`${location.pathname}${location.search}${location.hash}`)}`
}
