/** The custom pages of sessions, commands and file transfers (lazy imports; kinds not named get the generic page). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { SESSION_ENTRIES } from './entries.ts'

export const SESSION_PAGES: PagesOf<typeof SESSION_ENTRIES> = {
  sessions: resourcePages({
    list: lazyPage(() => import('./SessionListPage.tsx'), 'SessionListPage'),
    detail: lazyPage(() => import('./SessionPages.tsx'), 'SessionDetailPage'),
  }),
}
