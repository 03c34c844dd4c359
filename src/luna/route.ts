/** What the web terminal's address asks for: `/luna/connect?token=<id>` opens a terminal on that token at once. */
export interface LunaRoute {
  token?: string
}

export function routeFromLocation(location: Pick<Location, 'pathname' | 'search'>): LunaRoute {
  const token = new URLSearchParams(location.search).get('token')?.trim()
  return /^\/luna\/connect\/?$/.test(location.pathname) && token ? { token } : {}
}
