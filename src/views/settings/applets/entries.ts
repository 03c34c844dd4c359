/**
 * Manifest entries of Settings → Applets (data only: part of the first chunk). As in the reference console, the
 * applet list is a tab of the Applets page (AppletsPage.tsx); applets come from uploaded packages, so there is no
 * create or update page (the detail page switches one on or off through the generic detail).
 */
import { msg } from '@lingui/core/macro'
import type { ResourceEntry } from '../../../router/resources.ts'

export const APPLET_ENTRIES: readonly ResourceEntry[] = [
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
]
