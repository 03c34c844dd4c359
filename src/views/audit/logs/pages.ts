/** The custom pages of the audit logs (lazy imports; logs not named get the generic pages). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { AUDIT_LOG_ENTRIES } from './entries.ts'

export const AUDIT_LOG_PAGES: PagesOf<typeof AUDIT_LOG_ENTRIES> = {
  'operate-logs': resourcePages({
    detail: lazyPage(() => import('./OperateLogPages.tsx'), 'OperateLogDetailPage'),
  }),
}
