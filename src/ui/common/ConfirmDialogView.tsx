/**
 * The confirmation dialog (ConfirmDialog.tsx loads it when first asked): the confirm button spins while the action
 * runs; on failure the dialog stays open, the spinner stops and the error is shown (spec §4.5).
 */
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, Spinner,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useLayoutEffect, useRef, useState } from 'react'
import type { ConfirmOptions } from './ConfirmDialog.tsx'
import { describeError } from './errors.ts'

export function ConfirmDialogView({ options, onClose }: { options: ConfirmOptions | undefined; onClose: () => void }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const open = options !== undefined
  // Asked for by code, not by a DialogTrigger, so Fluent has no element to give focus back to when it closes:
  // focus returns to where it was when the dialog opened (the keyboard goes on where it was, e.g. Escape in the
  // dialog under this one).
  const returnTo = useRef<HTMLElement | null>(null)
  useLayoutEffect(() => {
    if (open) returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
  }, [open])
  // Once the exit motion ends; the focus may still be on this dialog's button then (its surface leaves the DOM
  // after the motion), or already on the body.
  const surface = useRef<HTMLDivElement>(null)
  const giveFocusBack = () => requestAnimationFrame(() => {
    const target = returnTo.current
    const active = document.activeElement
    const lost = !active || active === document.body || !active.isConnected || !!surface.current?.contains(active)
    if (target?.isConnected && lost) target.focus()
  })
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
    <Dialog
      open={open}
      onOpenChange={(_, d) => !d.open && close()}
      modalType="alert"
      surfaceMotion={{ onMotionFinish: (_, { direction }) => direction === 'exit' && giveFocusBack() }}
    >
      <DialogSurface ref={surface}>
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
