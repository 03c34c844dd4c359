/**
 * What the web terminal's address asks for: `/luna/connect?token=<id>` opens a terminal on that token at once;
 * `/luna/share/<sharing id>/` joins a shared session (JumpServer's `/koko/share/<id>/` redirects here);
 * `/luna/monitor/<session id>/` watches a session (an auditor).
 */
export interface LunaRoute {
  token?: string
  share?: string
  /** `/luna/monitor/<session id>/`: an auditor's live view of a session (Audit → Sessions → Monitor) */
  monitor?: string
}

const SHARE = /^\/luna\/share\/([0-9a-fA-F-]{36})\/?$/
const MONITOR = /^\/luna\/monitor\/([0-9a-fA-F-]{36})\/?$/

export function routeFromLocation(location: Pick<Location, 'pathname' | 'search'>): LunaRoute {
  const share = SHARE.exec(location.pathname)?.[1]
  if (share) return { share: share.toLowerCase() }
  const monitor = MONITOR.exec(location.pathname)?.[1]
  if (monitor) return { monitor: monitor.toLowerCase() }
  const token = new URLSearchParams(location.search).get('token')?.trim()
  return /^\/luna\/connect\/?$/.test(location.pathname) && token ? { token } : {}
}
