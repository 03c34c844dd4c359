/**
 * Document-level branding from the public settings (console-behaviour §2.11): favicon and the login title that
 * ends every page title ("route title - login title").
 */
import type { PublicSettings } from '../api/settings.ts'

let loginTitle = ''

export function applyInterface(settings: PublicSettings): void {
  const ui = settings.INTERFACE
  if (!ui) return
  if (typeof ui.login_title === 'string' && ui.login_title) {
    loginTitle = ui.login_title
    if (!document.title) document.title = loginTitle
  }
  if (typeof ui.favicon === 'string' && ui.favicon) {
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (!link) {
      link = document.createElement('link')
      link.rel = 'icon'
      document.head.appendChild(link)
    }
    if (link.getAttribute('href') !== ui.favicon) link.href = ui.favicon
  }
}

/** "route title - login title" (spec 000 §2.1). */
export function pageTitle(routeTitle: string): string {
  if (!routeTitle) return loginTitle
  return loginTitle ? `${routeTitle} - ${loginTitle}` : routeTitle
}
