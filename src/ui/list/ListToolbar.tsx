/**
 * The toolbar of a list: header commands, the bulk menu, the search box with tags, the date range, and on the
 * right the tools (import, export, refresh) and the column chooser. State in, changes out.
 */
import { makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { CommandBar, CommandMenu } from './CommandBar.tsx'
import type { CommandEnv, CommandTarget } from './commands.ts'
import { DateRange } from './DateRange.tsx'
import type { FilterOption } from './filterOptions.ts'
import { RESERVED_KEYS, withChange, type ListState } from './listState.ts'
import { SearchBar } from './SearchBar.tsx'
import type { CommandHelpers, ListCommand } from './types.ts'
import type { SetListState } from './useListState.ts'

const useStyles = makeStyles({
  // a button's label stays on one line (on a narrow screen the buttons wrap to the next row instead)
  toolbar: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS, marginBottom: tokens.spacingVerticalM, '& button': { whiteSpace: 'nowrap' } },
  end: { display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: tokens.spacingHorizontalXS, marginLeft: 'auto' },
})

export interface ListToolbarProps {
  header: readonly ListCommand[]
  bulk: readonly ListCommand[]
  env: CommandEnv
  target: CommandTarget
  helpers: () => CommandHelpers
  state: ListState
  setState: SetListState
  searchOptions: readonly FilterOption[]
  hiddenFilters: readonly string[]
  dateRange: boolean
  /** the column chooser (right-most) */
  columns: ReactNode
}

export function ListToolbar({ header, bulk, env, target, helpers, state, setState, searchOptions, hiddenFilters, dateRange, columns }: ListToolbarProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const count = target.selection.length
  return (
    <div className={styles.toolbar}>
      <CommandBar commands={header.filter((c) => c.placement !== 'end')} env={env} target={target} helpers={helpers} />
      <CommandMenu id="bulk" label={count > 0 ? t`Actions (${target.selection.length} selected)` : t`Actions`} commands={bulk} env={env} target={target} helpers={helpers} />
      <SearchBar
        options={searchOptions}
        search={state.search}
        filters={state.filters}
        hidden={hiddenFilters}
        onChange={(search, filters) => setState(withChange(state, { search, filters: Object.fromEntries(Object.entries(filters).filter(([k]) => !RESERVED_KEYS.has(k))) }))}
      />
      {dateRange && <DateRange from={state.dateFrom} to={state.dateTo} onChange={(dateFrom, dateTo) => setState(withChange(state, { dateFrom, dateTo }))} />}
      <div className={styles.end}>
        <CommandBar commands={header.filter((c) => c.placement === 'end')} env={env} target={target} helpers={helpers} look="icons" />
        {columns}
      </div>
    </div>
  )
}
