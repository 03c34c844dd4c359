/** The custom pages of roles (system and organization) (lazy imports; kinds not named get the generic page). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { ROLE_ENTRIES } from './entries.ts'

export const ROLE_PAGES: PagesOf<typeof ROLE_ENTRIES> = {
  roles: resourcePages({
    list: lazyPage(() => import('./RoleListPage.tsx'), 'RoleListPage'),
    form: lazyPage(() => import('./RoleFormPage.tsx'), 'RoleFormPage'),
    detail: lazyPage(() => import('./RoleDetailPage.tsx'), 'RoleDetailPage'),
  }),
}
