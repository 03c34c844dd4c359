/**
 * A confirmation dialog whose confirm runs an async action: the button spins while it runs; on failure the
 * dialog stays open, the spinner stops and the error is shown (spec §4.5). The dialog's code
 * (ConfirmDialogView.tsx) loads the first time one is asked, not with a list's first screen.
 */
import { useCallback, useState, type ReactNode } from 'react'
import { deferred } from './deferred.tsx'

export interface ConfirmOptions {
  title: string
  body: ReactNode
  confirmLabel?: string
  danger?: boolean
  /** Runs on confirm; a rejection keeps the dialog open with the error. */
  onConfirm: () => Promise<void> | void
}

const ConfirmDialogView = deferred(() => import('./ConfirmDialogView.tsx').then((m) => m.ConfirmDialogView))

export function ConfirmDialog({ options, onClose }: { options: ConfirmOptions | undefined; onClose: () => void }) {
  return <ConfirmDialogView when={options !== undefined} options={options} onClose={onClose} />
}

/** `[dialog element, ask]`: `ask(options)` opens the dialog. */
export function useConfirm(): [ReactNode, (options: ConfirmOptions) => void] {
  const [options, setOptions] = useState<ConfirmOptions>()
  const ask = useCallback((o: ConfirmOptions) => setOptions(o), [])
  return [<ConfirmDialog key="confirm" options={options} onClose={() => setOptions(undefined)} />, ask]
}
