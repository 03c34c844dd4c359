/** From/to dates with the spec's shortcuts (24 h, week, month, 3 months). Values are ISO strings. */
import { Button, Input, makeStyles, tokens } from '@fluentui/react-components'
import { Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '../common/overlays.tsx'
import { CalendarRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { rangeFor, type RangeShortcut } from './listState.ts'

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, maxWidth: '100%' },
  // the two dates share a narrow screen's width rather than pushing the page sideways
  date: { width: '150px', minWidth: '120px', flexShrink: 1 },
})

function toDateInput(iso: string | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

function fromDateInput(value: string, end: boolean): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return undefined
  const d = end ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59) : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 0, 0, 1)
  return d.toISOString()
}

export function DateRange({ from, to, onChange }: { from?: string; to?: string; onChange: (from: string | undefined, to: string | undefined) => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const shortcuts: [RangeShortcut, string][] = [['day', t`Last 24 hours`], ['week', t`Last week`], ['month', t`Last month`], ['quarter', t`Last 3 months`]]
  return (
    <div className={styles.root} role="group" aria-label={t`Date range`}>
      <Input className={styles.date} type="date" aria-label={t`From`} value={toDateInput(from)} onChange={(_, d) => onChange(fromDateInput(d.value, false), to)} />
      <span aria-hidden>–</span>
      <Input className={styles.date} type="date" aria-label={t`To`} value={toDateInput(to)} onChange={(_, d) => onChange(from, fromDateInput(d.value, true))} />
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="subtle" icon={<CalendarRegular />} aria-label={t`Quick ranges`} title={t`Quick ranges`} />
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {shortcuts.map(([key, label]) => (
              <MenuItem key={key} onClick={() => { const r = rangeFor(key); onChange(r.from, r.to) }}>{label}</MenuItem>
            ))}
          </MenuList>
        </MenuPopover>
      </Menu>
    </div>
  )
}
