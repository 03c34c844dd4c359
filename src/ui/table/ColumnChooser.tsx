/**
 * Column settings: tick the columns to show; the minimum set cannot be unticked; "Restore default" goes back
 * to the table's default set (and forgets the saved choice).
 */
import {
  Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, makeStyles, tokens,
} from '@fluentui/react-components'
import { ColumnEditRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: tokens.spacingVerticalXS },
})

export interface ColumnChooserProps {
  columns: readonly { id: string; label: string }[]
  visible: readonly string[]
  min: readonly string[]
  /** null = restore default */
  onApply: (columns: string[] | null) => void
}

export function ColumnChooser({ columns, visible, min, onApply }: ColumnChooserProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const [open, setOpen] = useState(false)
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const openWith = (o: boolean) => {
    if (o) setChosen(new Set(visible))
    setOpen(o)
  }
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen)
    if (on) next.add(id)
    else next.delete(id)
    setChosen(next)
  }
  return (
    <Dialog open={open} onOpenChange={(_, d) => openWith(d.open)}>
      <DialogTrigger disableButtonEnhancement>
        <Button appearance="subtle" icon={<ColumnEditRegular />} aria-label={t`Column settings`} title={t`Column settings`} />
      </DialogTrigger>
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
