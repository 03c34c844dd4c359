/**
 * Registers the import and export dialogs in the list's tool slots (src/ui/list/tools.ts). The app calls it
 * once at start-up; every list then shows them subject to its permissions and `tools` config.
 */
import { registerListTools } from '../list/tools.ts'
import { ImportAction } from '../import/ImportAction.tsx'
import { ExportAction } from './ExportAction.tsx'

export function registerTransferTools(): void {
  registerListTools({
    renderImport: (ctx) => <ImportAction ctx={ctx} />,
    renderExport: (ctx) => <ExportAction ctx={ctx} />,
  })
}
