/** The pages of asset permissions (lazy imports). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { PERMS_ENTRIES } from './entries.ts'

export const PERMS_PAGES: PagesOf<typeof PERMS_ENTRIES> = {
  'asset-permissions': resourcePages({
    list: lazyPage(() => import('./AssetPermissionListPage.tsx'), 'AssetPermissionListPage'),
    form: lazyPage(() => import('./AssetPermissionPages.tsx'), 'AssetPermissionFormPage'),
    detail: lazyPage(() => import('./AssetPermissionPages.tsx'), 'AssetPermissionDetailPage'),
  }),
}
