/** The custom pages of Settings → Applets (lazy imports; the lists are tabs of AppletsPage.tsx). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { APPLET_ENTRIES } from './entries.ts'

export const APPLET_PAGES: PagesOf<typeof APPLET_ENTRIES> = {
  applets: resourcePages({ detail: lazyPage(() => import('./AppletHostPages.tsx'), 'AppletDetailPage') }),
  'applet-hosts': resourcePages({
    form: lazyPage(() => import('./AppletHostPages.tsx'), 'AppletHostFormPage'),
    detail: lazyPage(() => import('./AppletHostPages.tsx'), 'AppletHostDetailPage'),
  }),
}
