/** The custom pages of domains and gateways (lazy imports; the labels' pages are the generic ones). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { ASSET_NET_ENTRIES } from './entries.ts'

export const ASSET_NET_PAGES: PagesOf<typeof ASSET_NET_ENTRIES> = {
  domains: resourcePages({ detail: lazyPage(() => import('./DomainPages.tsx'), 'DomainDetailPage') }),
  gateways: resourcePages({
    list: lazyPage(() => import('./GatewayListPage.tsx'), 'GatewayListPage'),
    form: lazyPage(() => import('./DomainPages.tsx'), 'GatewayFormPage'),
  }),
}
