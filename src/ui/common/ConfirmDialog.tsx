/**
 * A confirmation dialog whose confirm runs an async action: the button spins while it runs; on failure the
 * dialog stays open, the spinner stops and the error is shown (spec §4.5).
 */
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, Spinner,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useCallback, useState, type ReactNode } from 'react'
import { describeError } from './errors.ts'

export interface ConfirmOptions {
  title: string
  body: ReactNode
  confirmLabel?: string
  danger?: boolean
  /** Runs on confirm; a rejection keeps the dialog open with the error. */
  onConfirm: () => Promise<void> | void
}

export function ConfirmDialog({ options, onClose }: { options: ConfirmOptions | undefined; onClose: () => void }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const close = () => {
    if (busy) return
    setError(undefined)
    onClose()
  }
  const confirm = async () => {
    if (!options) return
    setBusy(true)
    setError(undefined)
    try {
      await options.onConfirm()
      setBusy(false)
      onClose()
    } catch (e) {
      setBusy(false)
      setError(describeError(e))
    }
  }
  return (
    <Dialog open={options !== undefined} onOpenChange={(_, d) => !d.open && close()} modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{options?.title}</DialogTitle>
          <DialogContent>
            {options?.body}
            {error && (
              <MessageBar intent="error" style={{ marginTop: 12 }}>
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={close} disabled={busy}>{t`Cancel`}</Button>
            <Button
              appearance="primary"
              onClick={() => void confirm()}
              disabled={busy}
              icon={busy ? <Spinner size="tiny" /> : undefined}
              data-danger={options?.danger ? '' : undefined}
            >
              {options?.confirmLabel ?? t`Confirm`}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}

/** `[dialog element, ask]`: `ask(options)` opens the dialog. */
export function useConfirm(): [ReactNode, (options: ConfirmOptions) => void] {
  const [options, setOptions] = useState<ConfirmOptions>()
  const ask = useCallback((o: ConfirmOptions) => setOptions(o), [])
  return [<ConfirmDialog key="confirm" options={options} onClose={() => setOptions(undefined)} />, ask]
}
