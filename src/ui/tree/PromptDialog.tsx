/** A one-field dialog (a name for a new or renamed tree node): the error of a failed save stays in the dialog. */
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { ApiError, errorText } from '../../api/client.ts'
import { describeError } from '../common/errors.ts'

/** The messages of a 400 answer: its detail, else every field's messages. */
function fieldMessages(data: unknown): string {
  const text = errorText(data)
  if (text || !data || typeof data !== 'object') return text
  return Object.values(data as Record<string, unknown>).map(errorText).filter(Boolean).join('; ')
}

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
      // a field error of the server ("Node value cannot contain /") is the message; anything else is described
      setError((e instanceof ApiError && e.status === 400 && fieldMessages(e.data)) || describeError(e))
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
