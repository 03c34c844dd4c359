/** The custom pages of users (lazy imports; kinds not named get the generic page). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { USER_ENTRIES } from './entries.ts'

export const USER_PAGES: PagesOf<typeof USER_ENTRIES> = {
  users: resourcePages({
    list: lazyPage(() => import('./UserListPage.tsx'), 'UserListPage'),
    form: lazyPage(() => import('./UserFormPage.tsx'), 'UserFormPage'),
    detail: lazyPage(() => import('./UserDetailPage.tsx'), 'UserDetailPage'),
  }),
}
