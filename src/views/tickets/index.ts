import type { PageRegistry } from '../../router/pages.ts'

/**
 * Pages of the tickets view by route name (see src/router/routes/tickets.ts). Routes not listed here show the landing
 * placeholder until their page is built: add `RouteName: () => import('./area/XPage.tsx').then((m) => m.XPage)`.
 */
export const ticketsPages: PageRegistry = {}
