/**
 * Which component renders a route, by route name: the console manifest's resources and the views' plain page
 * entries (src/views/manifest.ts `PAGES`); a route whose page is not built yet shows the landing placeholder.
 * Every page is loaded lazily, so the first screen loads only the shell.
 */
import type { PageLoader } from './resources.ts'
import { PAGES as VIEW_PAGES } from '../views/manifest.ts'

export type { PageLoader }
export type PageRegistry = Readonly<Record<string, PageLoader>>

const commonPages: PageRegistry = {
  NotFound: () => import('../ui/pages/NotFoundPage.tsx').then((m) => m.NotFoundPage),
  CeleryTaskLog: () => import('../ui/pages/TaskLogPage.tsx').then((m) => m.TaskLogPage),
  AnsibleTaskLog: () => import('../ui/pages/TaskLogPage.tsx').then((m) => m.TaskLogPage),
  TaskLog: () => import('../ui/pages/TaskLogPage.tsx').then((m) => m.TaskLogPage),
}

export const PAGES: PageRegistry = {
  ...commonPages,
  ...VIEW_PAGES,
}

export const landingPage: PageLoader = () => import('../shell/LandingPage.tsx').then((m) => m.LandingPage)

export function pageLoader(name: string): PageLoader {
  return PAGES[name] ?? landingPage
}
