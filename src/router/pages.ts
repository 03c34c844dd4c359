/**
 * Which component renders a route, by route name. Each view folder registers its pages (src/views/<view>/index.ts);
 * a route whose page is not built yet shows the landing placeholder. Every page is loaded lazily, so the first
 * screen loads only the shell.
 */
import type { ComponentType } from 'react'
import { auditPages } from '../views/audit/index.ts'
import { consolePages } from '../views/console/index.ts'
import { profilePages } from '../views/profile/index.ts'
import { settingsPages } from '../views/settings/index.ts'
import { ticketsPages } from '../views/tickets/index.ts'
import { workbenchPages } from '../views/workbench/index.ts'
import { genericPages } from '../views/registry.ts'

/** Loads a page component (`() => import('./UserListPage.tsx').then((m) => m.UserListPage)`). */
export type PageLoader = () => Promise<ComponentType>
export type PageRegistry = Readonly<Record<string, PageLoader>>

const commonPages: PageRegistry = {
  NotFound: () => import('../ui/pages/NotFoundPage.tsx').then((m) => m.NotFoundPage),
  CeleryTaskLog: () => import('../ui/pages/TaskLogPage.tsx').then((m) => m.TaskLogPage),
  AnsibleTaskLog: () => import('../ui/pages/TaskLogPage.tsx').then((m) => m.TaskLogPage),
  TaskLog: () => import('../ui/pages/TaskLogPage.tsx').then((m) => m.TaskLogPage),
}

export const PAGES: PageRegistry = {
  ...commonPages,
  ...consolePages,
  ...auditPages,
  ...workbenchPages,
  ...ticketsPages,
  ...settingsPages,
  ...profilePages,
  ...genericPages,
}

export const landingPage: PageLoader = () => import('../ui/pages/LandingPage.tsx').then((m) => m.LandingPage)

export function pageLoader(name: string): PageLoader {
  return PAGES[name] ?? landingPage
}
