/** The custom pages of cloud sync (lazy imports); the lists and the account form are the generic ones. */
import { lazyPage, resourcePages, type PageRegistry, type PagesOf } from '../../../router/resources.ts'
import type { CLOUD_ENTRIES } from './entries.ts'

export const CLOUD_PAGES: PagesOf<typeof CLOUD_ENTRIES> = {
  'cloud-accounts': resourcePages({
    form: lazyPage(() => import('./CloudPages.tsx'), 'CloudAccountFormPage'),
    detail: lazyPage(() => import('./CloudPages.tsx'), 'CloudAccountDetailPage'),
  }),
  'sync-instance-tasks': resourcePages({
    form: lazyPage(() => import('./CloudPages.tsx'), 'SyncTaskFormPage'),
    detail: lazyPage(() => import('./CloudPages.tsx'), 'SyncTaskDetailPage'),
  }),
}

/** The Cloud center: not a resource page (its tabs are the two lists). */
export const cloudPages: PageRegistry = {
  CloudCenter: lazyPage(() => import('./CloudPages.tsx'), 'CloudCenterPage'),
}
