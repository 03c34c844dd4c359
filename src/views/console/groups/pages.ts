/** The custom pages of user groups (lazy imports; kinds not named get the generic page). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { USER_GROUP_ENTRIES } from './entries.ts'

export const USER_GROUP_PAGES: PagesOf<typeof USER_GROUP_ENTRIES> = {
  'user-groups': resourcePages({
    list: lazyPage(() => import('./UserGroupListPage.tsx'), 'UserGroupListPage'),
    form: lazyPage(() => import('./UserGroupPages.tsx'), 'UserGroupFormPage'),
    detail: lazyPage(() => import('./UserGroupPages.tsx'), 'UserGroupDetailPage'),
  }),
}
