/** The list header's Import button and its dialog (list slot `renderImport`). */
import { Suspense, useState, type ReactElement } from 'react'
import { useLingui } from '@lingui/react/macro'
import { Button } from '@fluentui/react-components'
import { ArrowUploadRegular } from '@fluentui/react-icons'
import { useAccess } from '../common/access.tsx'
import type { ListToolContext } from '../list/types.ts'
import { lazyRetry } from '../common/retryImport.ts'

// The dialog (its machine, parsers and preview) loads when it opens: the button is on every list's first screen.
const ImportDialog = lazyRetry(() => import('./ImportDialog.tsx').then((m) => ({ default: m.ImportDialog })))

export function ImportAction({ ctx }: { ctx: ListToolContext }): ReactElement {
  const access = useAccess()
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button data-command="import" icon={<ArrowUploadRegular />} onClick={() => setOpen(true)}>
        {t`Import`}
      </Button>
      {open && (
        <Suspense fallback={null}><ImportDialog
          listUrl={ctx.url}
          orgId={access.orgId}
          canCreate={ctx.canImportCreate}
          canUpdate={ctx.canImportUpdate}
          selection={ctx.selection}
          onClose={(imported) => {
            setOpen(false)
            if (imported) ctx.reload()
          }}
        /></Suspense>
      )}
    </>
  )
}
