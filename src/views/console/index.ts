import type { PageRegistry } from '../../router/pages.ts'

/**
 * Pages of the console view by route name (see src/router/routes/console.ts). Routes not listed here show the landing
 * placeholder until their page is built: add `RouteName: () => import('./area/XPage.tsx').then((m) => m.XPage)`.
 */
export const consolePages: PageRegistry = {}
