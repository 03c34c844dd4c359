import { Button, makeStyles, Popover, PopoverSurface, Text, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'

const useStyles = makeStyles({
  tip: { maxWidth: '280px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
})

/** The first-visit tip under the view switcher (ViewSwitcher.tsx loads it while it is to be shown). */
export function ViewSwitcherTip({ open, anchor, onDismiss }: { open: boolean; anchor: HTMLElement | null; onDismiss: () => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  return (
    <Popover open={open} onOpenChange={(_, d) => !d.open && onDismiss()} positioning={{ target: anchor, position: 'below', align: 'start' }} withArrow trapFocus={false}>
      <PopoverSurface className={styles.tip} role="note" id="view-switcher-tip">
        <Text>{t`Switch between the console, audit, workbench and the other views here.`}</Text>
        <Button size="small" appearance="primary" onClick={onDismiss}>{t`Got it`}</Button>
      </PopoverSurface>
    </Popover>
  )
}
