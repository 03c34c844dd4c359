import { lazyPage, type PageRegistry } from '../../router/resources.ts'

/** Non-resource pages of the audit and console views by route name: the dashboards (charts are lazy chunks). */
export const auditPages: PageRegistry = {
  AuditDashboard: lazyPage(() => import('./dashboard/Dashboards.tsx'), 'AuditDashboardPage'),
  AdminDashboard: lazyPage(() => import('./dashboard/Dashboards.tsx'), 'ConsoleDashboardPage'),
}
