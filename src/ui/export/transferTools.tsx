/**
 * Registers the import and export dialogs in the list's tool slots (src/ui/list/tools.ts). The app calls it
 * once at start-up; every list then shows them subject to its permissions and `tools` config. The buttons are
 * small and come with the first screen; their dialogs load when opened (issue 17: no extra requests before a
 * list's first row).
 */
import { ImportAction } from '../import/ImportAction.tsx'
import { registerListTools } from '../list/tools.ts'
import { ExportAction } from './ExportAction.tsx'

export function registerTransferTools(): void {
  registerListTools({
    renderImport: (ctx) => <ImportAction ctx={ctx} />,
    renderExport: (ctx) => <ExportAction ctx={ctx} />,
  })
}
