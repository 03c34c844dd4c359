import type { PageRegistry } from '../../router/pages.ts'

/**
 * Pages of the audit view by route name (see src/router/routes/audit.ts). Routes not listed here show the landing
 * placeholder until their page is built: add `RouteName: () => import('./area/XPage.tsx').then((m) => m.XPage)`.
 */
export const auditPages: PageRegistry = {}
