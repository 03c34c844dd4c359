import type { PageRegistry } from '../../router/pages.ts'

/** Non-resource pages of the audit and console views by route name: the dashboards (charts are lazy chunks). */
export const auditPages: PageRegistry = {
  AuditDashboard: () => import('./dashboard/Dashboards.tsx').then((m) => m.AuditDashboardPage),
  AdminDashboard: () => import('./dashboard/Dashboards.tsx').then((m) => m.ConsoleDashboardPage),
}
