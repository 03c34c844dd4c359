/**
 * The time periods of an ACL rule as a days × hours grid (the widget of every `time_period` field). Keyboard: one
 * tab stop; arrows move, Home/End go to the row's ends, Space or Enter toggles the hour; the day buttons toggle
 * a whole day. Mouse: click toggles, dragging paints. The value is written only when the grid is edited, so a
 * value that is not on whole hours stays as it is until then (timePeriods.ts).
 */
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { fromGrid, periodSummary, setDay, toGrid, toggle, type HourGrid } from './timePeriods.ts'

/** Monday first; ids are Python's `%w` (0 = Sunday). */
const DAYS = [1, 2, 3, 4, 5, 6, 0]
const HOURS = Array.from({ length: 24 }, (_, h) => h)

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, maxWidth: '100%', overflowX: 'auto' },
  table: { borderCollapse: 'collapse', userSelect: 'none' },
  hour: { fontSize: tokens.fontSizeBase100, fontWeight: tokens.fontWeightRegular, color: tokens.colorNeutralForeground2, textAlign: 'center', minWidth: '20px' },
  cell: {
    width: '20px', height: '24px', padding: 0, cursor: 'pointer',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1,
    ':focus-visible': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  on: { backgroundColor: tokens.colorBrandBackground },
  disabled: { cursor: 'not-allowed', opacity: 0.6 },
  summary: { color: tokens.colorNeutralForeground2 },
  day: { textAlign: 'start' },
})

function useDayName(): (id: number) => string {
  const { i18n } = useLingui()
  return useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.locale, { weekday: 'long', timeZone: 'UTC' })
    return (id: number) => f.format(new Date(Date.UTC(2024, 5, 2 + id)))
  }, [i18n.locale])
}

/** The periods as text for detail pages: "Any time", "Never", or the days with their hours. */
export function TimePeriodSummary({ value }: { value: unknown }) {
  const { t } = useLingui()
  const dayName = useDayName()
  const text = periodSummary(value, dayName, t`all day`)
  return <>{text === null ? t`Any time` : text === '' ? t`Never` : text}</>
}

export interface TimePeriodGridProps {
  value: unknown
  onChange: (value: unknown) => void
  disabled?: boolean
  'aria-labelledby'?: string
}

export function TimePeriodGrid({ value, onChange, disabled = false, ...aria }: TimePeriodGridProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const { grid, wholeHours } = useMemo(() => toGrid(value), [value])
  const [focus, setFocus] = useState<[number, number]>([0, 0])
  const paint = useRef<boolean | null>(null)
  const table = useRef<HTMLTableElement>(null)
  const dayName = useDayName()

  const set = (next: HourGrid) => { if (!disabled) onChange(fromGrid(next)) }
  const selected = grid.reduce((n, hours) => n + hours.filter(Boolean).length, 0)

  const move = (row: number, col: number) => {
    const r = Math.max(0, Math.min(DAYS.length - 1, row))
    const c = Math.max(0, Math.min(23, col))
    setFocus([r, c])
    table.current?.querySelector<HTMLElement>(`[data-cell="${r}-${c}"]`)?.focus()
  }
  const onKeyDown = (e: KeyboardEvent, row: number, col: number) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => move(row, col + 1), ArrowLeft: () => move(row, col - 1),
      ArrowDown: () => move(row + 1, col), ArrowUp: () => move(row - 1, col),
      Home: () => move(row, 0), End: () => move(row, 23),
      ' ': () => set(toggle(grid, DAYS[row]!, col)), Enter: () => set(toggle(grid, DAYS[row]!, col)),
    }
    const run = keys[e.key]
    if (run) {
      e.preventDefault()
      run()
    }
  }

  return (
    <div className={styles.root} onPointerUp={() => { paint.current = null }} onPointerLeave={() => { paint.current = null }}>
      <table ref={table} role="grid" className={styles.table} aria-labelledby={aria['aria-labelledby']} aria-label={aria['aria-labelledby'] ? undefined : t`Time periods`} aria-disabled={disabled || undefined}>
        <thead>
          <tr>
            <th scope="col"><span className={styles.hour}>{t`Day`}</span></th>
            {HOURS.map((h) => <th key={h} scope="col" className={styles.hour} aria-label={`${String(h).padStart(2, '0')}:00–${String(h + 1).padStart(2, '0')}:00`}>{h}</th>)}
          </tr>
        </thead>
        <tbody>
          {DAYS.map((id, row) => {
            const all = grid[id]!.every(Boolean)
            return (
              <tr key={id}>
                <th scope="row" className={styles.day}>
                  <Button size="small" appearance="subtle" disabled={disabled} aria-pressed={all} onClick={() => set(setDay(grid, id, !all))}>{dayName(id)}</Button>
                </th>
                {HOURS.map((h) => {
                  const on = grid[id]![h] === true
                  return (
                    <td
                      key={h}
                      data-cell={`${row}-${h}`}
                      aria-selected={on}
                      aria-label={`${dayName(id)} ${String(h).padStart(2, '0')}:00`}
                      tabIndex={focus[0] === row && focus[1] === h ? 0 : -1}
                      className={`${styles.cell} ${on ? styles.on : ''} ${disabled ? styles.disabled : ''}`}
                      onKeyDown={(e) => onKeyDown(e, row, h)}
                      onFocus={() => setFocus([row, h])}
                      onPointerDown={(e) => {
                        if (disabled) return
                        e.preventDefault()
                        paint.current = !on
                        setFocus([row, h])
                        set(toggle(grid, id, h, !on))
                      }}
                      onPointerEnter={() => { if (paint.current !== null && on !== paint.current) set(toggle(grid, id, h, paint.current)) }}
                    />
                  )
                })}
              </tr>
            )
          })}
        </tbody>
      </table>
      <Text size={200} className={styles.summary} aria-live="polite">
        {selected === 7 * 24 ? t`Every hour of the week` : selected === 0 ? t`No hour selected: the rule never applies` : t`${selected} hours a week selected`}
        {!wholeHours && ` ${t`Some periods do not start or end on a whole hour; editing the grid rewrites them by the hour.`}`}
      </Text>
    </div>
  )
}
