/** The custom pages of user login ACLs (lazy imports; kinds not named get the generic page). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { USER_ACL_ENTRIES } from './entries.ts'

export const USER_ACL_PAGES: PagesOf<typeof USER_ACL_ENTRIES> = {
  'user-acls': resourcePages({
    list: lazyPage(() => import('./UserLoginAclListPage.tsx'), 'UserLoginAclListPage'),
    form: lazyPage(() => import('./UserLoginAclFormPage.tsx'), 'UserLoginAclFormPage'),
    detail: lazyPage(() => import('./UserLoginAclDetailPage.tsx'), 'UserLoginAclDetailPage'),
  }),
}
