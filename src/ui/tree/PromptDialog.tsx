/** A one-field dialog (a name for a new or renamed tree node): the error of a failed save stays in the dialog. */
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { describeError } from '../common/errors.ts'

export interface PromptDialogProps {
  title: string
  label: string
  initial?: string
  onSubmit: (value: string) => Promise<void>
  onCancel: () => void
}

export function PromptDialog({ title, label, initial = '', onSubmit, onCancel }: PromptDialogProps) {
  const { t } = useLingui()
  const [value, setValue] = useState(initial)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    const v = value.trim()
    if (!v) { setError(t`This field is required.`); return }
    setBusy(true)
    try {
      await onSubmit(v)
    } catch (e) {
      setError(describeError(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog open onOpenChange={(_, d) => { if (!d.open && !busy) onCancel() }}>
      <DialogSurface>
        <form onSubmit={(e) => { e.preventDefault(); void submit() }}>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent>
              <Field label={label} required validationMessage={error} validationState={error ? 'error' : 'none'}>
                <Input value={value} autoFocus onChange={(_, d) => { setValue(d.value); setError(undefined) }} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onCancel} disabled={busy}>{t`Cancel`}</Button>
              <Button appearance="primary" type="submit" disabled={busy}>{t`Confirm`}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}
