/**
 * Which tab a tabbed page opens on (spec §2.4): the `activeTab` query value, then the `activeTab` cookie, then
 * the page's default — matched case-insensitively against the visible tabs; else the first visible tab.
 */
export const ACTIVE_TAB = 'activeTab'

export function chooseTab(visible: readonly string[], query: unknown, cookie: string | undefined, fallback?: string): string | undefined {
  const match = (wanted: unknown) => (typeof wanted === 'string' && wanted ? visible.find((v) => v.toLowerCase() === wanted.toLowerCase()) : undefined)
  return match(query) ?? match(cookie) ?? match(fallback) ?? visible[0]
}

const CUT = 80

/** "<Type>: <name>", cut at 80 characters plus "..." (console-behaviour §2.11). */
export function detailTitle(type: string, name: string): string {
  const title = `${type}: ${name}`
  return title.length > CUT ? `${title.slice(0, CUT)}...` : title
}
