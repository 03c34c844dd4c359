/**
 * Registers the import and export dialogs in the list's tool slots (src/ui/list/tools.ts). The app calls it
 * once at start-up; every list then shows them subject to its permissions and `tools` config. Both load
 * lazily with the first list that shows them, so they stay out of the console's first screen.
 */
import { lazy, Suspense } from 'react'
import { registerListTools } from '../list/tools.ts'

const ImportAction = lazy(() => import('../import/ImportAction.tsx').then((m) => ({ default: m.ImportAction })))
const ExportAction = lazy(() => import('./ExportAction.tsx').then((m) => ({ default: m.ExportAction })))

export function registerTransferTools(): void {
  registerListTools({
    renderImport: (ctx) => <Suspense fallback={null}><ImportAction ctx={ctx} /></Suspense>,
    renderExport: (ctx) => <Suspense fallback={null}><ExportAction ctx={ctx} /></Suspense>,
  })
}
