/**
 * Create/edit/view in a dialog, reusing the page's form (spec §4.5): `new` POSTs, `edit` PUTs, `view` shows the
 * object with disabled fields and no footer buttons. A failed confirm keeps the dialog open with the errors
 * and stops the spinner.
 */
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner, makeStyles,
} from '@fluentui/react-components'
import { DismissRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import type { Row, RowId } from '../../api/resources.ts'
import { AutoForm } from './AutoForm.tsx'
import { FormLoadState } from './FormLoadState.tsx'
import type { FieldLayout, FieldOverrides } from './types.ts'
import { useResourceForm } from './useResourceForm.ts'
import type { FormValues } from './validators.ts'

const useStyles = makeStyles({
  surface: { width: '60vw', maxWidth: '60vw', marginTop: '3vh', '@media (max-width: 991px)': { width: '80vw', maxWidth: '80vw' } },
  content: { maxHeight: '75vh', overflowY: 'auto' },
})

export type DialogMode = 'new' | 'edit' | 'view'

export interface FormDialogProps {
  title: string
  mode: DialogMode
  url: string
  id?: RowId
  layout?: FieldLayout
  overrides?: FieldOverrides
  initial?: FormValues
  transform?: (payload: FormValues, values: FormValues) => FormValues
  /** saved object, or undefined when closed without saving */
  onClose: (saved?: Row) => void
}

export function FormDialog(props: FormDialogProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const view = props.mode === 'view'
  const form = useResourceForm({
    url: props.url, id: props.mode === 'new' ? undefined : props.id, view, layout: props.layout, overrides: props.overrides,
    initial: props.initial, transform: props.transform,
  })
  const confirm = async () => {
    const saved = await form.submit()
    if (saved) props.onClose(saved)
  }
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !form.saving && props.onClose()}>
      <DialogSurface className={styles.surface}>
        <form noValidate data-state={form.state} onSubmit={(e) => { e.preventDefault(); if (!view) void confirm() }}>
          <DialogBody>
            <DialogTitle action={<Button appearance="subtle" aria-label={t`Close`} icon={<DismissRegular />} onClick={() => props.onClose()} />}>{props.title}</DialogTitle>
            <DialogContent className={styles.content}>
              <FormLoadState form={form} />
              {form.status === 'ready' && <AutoForm form={form} disabled={view} />}
            </DialogContent>
            {!view && (
              <DialogActions>
                <Button type="button" appearance="secondary" disabled={form.saving} onClick={() => props.onClose()}>{t`Cancel`}</Button>
                <Button type="submit" appearance="primary" disabled={form.saving || form.status !== 'ready'} icon={form.saving ? <Spinner size="tiny" /> : undefined}>{t`Confirm`}</Button>
              </DialogActions>
            )}
          </DialogBody>
        </form>
        {form.confirmDialog}
      </DialogSurface>
    </Dialog>
  )
}
