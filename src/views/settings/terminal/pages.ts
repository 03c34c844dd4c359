/** The custom pages of Settings → Terminal's storages (lazy imports; the others' pages are the generic ones). */
import { lazyPage, resourcePages, type PagesOf } from '../../../router/resources.ts'
import type { TERMINAL_ENTRIES } from './entries.ts'

export const TERMINAL_PAGES: PagesOf<typeof TERMINAL_ENTRIES> = {
  'replay-storages': resourcePages({ form: lazyPage(() => import('./TerminalSettingsPage.tsx'), 'ReplayStorageFormPage') }),
  'command-storages': resourcePages({ form: lazyPage(() => import('./TerminalSettingsPage.tsx'), 'CommandStorageFormPage') }),
}
