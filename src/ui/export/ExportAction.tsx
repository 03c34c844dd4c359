/** The list header's Export button and its dialog (list slot `renderExport`). */
import { Suspense, useState, type ReactElement } from 'react'
import { useLingui } from '@lingui/react/macro'
import { Button } from '@fluentui/react-components'
import { ArrowDownloadRegular } from '@fluentui/react-icons'
import { notify } from '../common/notify.tsx'
import { reloginHref } from '../confirm/relogin.ts'
import type { ListToolContext } from '../list/types.ts'
import { confirmFailureText } from './confirmFailure.ts'
import { lazyRetry } from '../common/retryImport.ts'

// The dialog loads when it opens: the button is on every list's first screen.
const ExportDialog = lazyRetry(() => import('./ExportDialog.tsx').then((m) => ({ default: m.ExportDialog })))

export function ExportAction({ ctx, navigate = (href) => window.location.assign(href) }: { ctx: ListToolContext; navigate?: (href: string) => void }): ReactElement {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button data-command="export" icon={<ArrowDownloadRegular />} onClick={() => setOpen(true)}>
        {t`Export`}
      </Button>
      {open && (
        <Suspense fallback={null}><ExportDialog
          url={ctx.url}
          query={ctx.query}
          selection={ctx.selection}
          needsConfirm={ctx.exportRequiresConfirm}
          onSaved={(filename) => notify('success', t`Exported ${filename}`)}
          onClose={(output) => {
            setOpen(false)
            if (output.status !== 'confirmFailed') return
            if (output.confirm.status === 'relogin') navigate(reloginHref())
            else if (output.confirm.status === 'failed') notify('error', t`The export needs a verification`, confirmFailureText(output.confirm.failure))
          }}
        /></Suspense>
      )}
    </>
  )
}
