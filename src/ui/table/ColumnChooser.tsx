/**
 * Column settings: a button on the list's toolbar; its dialog (ColumnChooserDialog.tsx: tick the columns to show,
 * restore the default) loads when first opened, not with the list's first screen.
 */
import { Button } from '@fluentui/react-components'
import { ColumnEditRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useRef, useState } from 'react'
import { deferred } from '../common/deferred.tsx'

export interface ColumnChooserProps {
  columns: readonly { id: string; label: string }[]
  visible: readonly string[]
  min: readonly string[]
  /** null = restore default */
  onApply: (columns: string[] | null) => void
}

const ColumnChooserDialog = deferred(() => import('./ColumnChooserDialog.tsx').then((m) => m.ColumnChooserDialog))

export function ColumnChooser(props: ColumnChooserProps) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  // Focus goes back to the button when the dialog closes (what a DialogTrigger would do), without Fluent's focus
  // restorer: that needs its focus manager (tabster), which the list's first screen does not load.
  const button = useRef<HTMLButtonElement>(null)
  const onOpenChange = (next: boolean) => {
    setOpen(next)
    if (!next) requestAnimationFrame(() => button.current?.focus())
  }
  return (
    <>
      <Button ref={button} appearance="subtle" icon={<ColumnEditRegular />} aria-label={t`Column settings`} title={t`Column settings`} aria-haspopup="dialog" onClick={() => setOpen(true)} />
      <ColumnChooserDialog when={open} open={open} onOpenChange={onOpenChange} {...props} />
    </>
  )
}
