/** The custom pages of organizations (lazy imports; kinds not named get the generic page). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { ORG_ENTRIES } from './entries.ts'

export const ORG_PAGES: PagesOf<typeof ORG_ENTRIES> = {
  organizations: resourcePages({
    list: lazyPage(() => import('./OrganizationListPage.tsx'), 'OrganizationListPage'),
    form: lazyPage(() => import('./OrganizationPages.tsx'), 'OrganizationFormPage'),
    detail: lazyPage(() => import('./OrganizationPages.tsx'), 'OrganizationDetailPage'),
  }),
}
