/**
 * The column settings dialog (ColumnChooser.tsx loads it when first opened): tick the columns to show; the minimum
 * set cannot be unticked; "Restore default" goes back to the table's default set (and forgets the saved choice).
 */
import {
  Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, makeStyles, tokens,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { ColumnChooserProps } from './ColumnChooser.tsx'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: tokens.spacingVerticalXS },
})

export function ColumnChooserDialog({ columns, visible, min, onApply, open, onOpenChange }: ColumnChooserProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(visible))
  const [shown, setShown] = useState(open)
  // Each opening starts from the columns on screen.
  if (open !== shown) {
    setShown(open)
    if (open) setChosen(new Set(visible))
  }
  const setOpen = onOpenChange
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen)
    if (on) next.add(id)
    else next.delete(id)
    setChosen(next)
  }
  return (
    <Dialog open={open} onOpenChange={(_, d) => setOpen(d.open)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t`Column settings`}</DialogTitle>
          <DialogContent>
            <div className={styles.grid} role="group" aria-label={t`Columns to show`}>
              {columns.map((c) => (
                <Checkbox
                  key={c.id}
                  label={c.label}
                  checked={min.includes(c.id) || chosen.has(c.id)}
                  disabled={min.includes(c.id)}
                  onChange={(_, d) => toggle(c.id, d.checked === true)}
                />
              ))}
            </div>
          </DialogContent>
          <DialogActions fluid>
            <Button appearance="secondary" onClick={() => { onApply(null); setOpen(false) }}>{t`Restore default`}</Button>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="secondary">{t`Cancel`}</Button>
            </DialogTrigger>
            <Button appearance="primary" onClick={() => { onApply(columns.map((c) => c.id).filter((id) => chosen.has(id) || min.includes(id))); setOpen(false) }}>
              {t`Confirm`}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
