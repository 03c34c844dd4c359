/**
 * Manifest entries of Settings → Applets (data only: part of the first chunk; the pages are in pages.ts). As in the reference console, the
 * applet list is a tab of the Applets page (AppletsPage.tsx); applets come from uploaded packages, so there is no
 * create or update page. The applet hosts are the page's second tab.
 */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const APPLET_ENTRIES = defineEntries([
  {
    key: 'applets',
    model: 'terminal.applet',
    url: '/api/v1/terminal/applets/',
    path: '/settings/applets/applets',
    listTab: { name: 'Applets', path: '/settings/applets', tab: 'applets' },
    routeName: 'Applet',
    typeLabel: msg`Remote app`,
    titles: { list: msg`Remote apps`, detail: msg`Remote app details` },
    offers: { create: false, update: false, import: false },
    defaultOrder: 'name',
  },
  {
    // Applet hosts: assets of the RemoteAppHost platform (server/resources/terminal/applet-hosts.ts), a tab of
    // the same page; their detail holds the deployments and the published applets.
    key: 'applet-hosts',
    model: 'terminal.applethost',
    url: '/api/v1/terminal/applet-hosts/',
    path: '/settings/applets/hosts',
    listTab: { name: 'Applets', path: '/settings/applets', tab: 'hosts' },
    routeName: 'AppletHost',
    typeLabel: msg`Remote app host`,
    titles: { list: msg`Remote app hosts`, create: msg`Create remote app host`, update: msg`Update remote app host`, detail: msg`Remote app host details` },
    related: { platform: 'assets.platform', domain: 'assets.domain' },
    offers: { import: false },
    defaultOrder: 'name',
  },
])
