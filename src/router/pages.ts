/**
 * Which component renders a route, by route name: the console manifest's resources and the views' plain page
 * entries (src/views/manifest.ts `PAGES`); a route whose page is not built yet shows the landing placeholder.
 * Every page is loaded lazily, so the first screen loads only the shell.
 */
import { lazyPage, type PageLoader, type PageRegistry } from './resources.ts'
import { PAGES as VIEW_PAGES } from '../views/manifest.ts'

export type { PageLoader, PageRegistry }

const commonPages: PageRegistry = {
  NotFound: lazyPage(() => import('../ui/pages/NotFoundPage.tsx'), 'NotFoundPage'),
  CeleryTaskLog: lazyPage(() => import('../ui/pages/TaskLogPage.tsx'), 'TaskLogPage'),
  AnsibleTaskLog: lazyPage(() => import('../ui/pages/TaskLogPage.tsx'), 'TaskLogPage'),
  TaskLog: lazyPage(() => import('../ui/pages/TaskLogPage.tsx'), 'TaskLogPage'),
}

export const PAGES: PageRegistry = {
  ...commonPages,
  ...VIEW_PAGES,
}

export const landingPage: PageLoader = lazyPage(() => import('../shell/LandingPage.tsx'), 'LandingPage')

export function pageLoader(name: string): PageLoader {
  return PAGES[name] ?? landingPage
}
