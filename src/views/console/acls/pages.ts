/** The custom pages of the ACLs (lazy imports; the command groups' pages are the generic ones). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { ACL_ENTRIES } from './entries.ts'

export const ACL_PAGES: PagesOf<typeof ACL_ENTRIES> = {
  'asset-acls': resourcePages({
    list: lazyPage(() => import('./AclListPage.tsx'), 'AssetAclListPage'),
    form: lazyPage(() => import('./AclPages.tsx'), 'AssetAclFormPage'),
    detail: lazyPage(() => import('./AclPages.tsx'), 'AssetAclDetailPage'),
  }),
  'command-acls': resourcePages({
    list: lazyPage(() => import('./AclListPage.tsx'), 'CommandAclListPage'),
    form: lazyPage(() => import('./AclPages.tsx'), 'CommandAclFormPage'),
    detail: lazyPage(() => import('./AclPages.tsx'), 'CommandAclDetailPage'),
  }),
}
