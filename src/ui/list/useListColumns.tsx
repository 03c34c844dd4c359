/**
 * The columns of a list: built from the fields and the configuration, filtered by the saved choice
 * (`tableConfig`), with the saved widths; the actions column renders the row commands through the command bar.
 */
import { useLingui } from '@lingui/react'
import { useLingui as useLinguiMacro } from '@lingui/react/macro'
import { useMemo, useState } from 'react'
import type { FieldMeta } from '../../api/metadata.ts'
import type { Row } from '../../api/resources.ts'
import { routePath } from '../common/resource.ts'
import { fitColumns, DEFAULT_PRIORITY } from '../table/columnFit.ts'
import { columnWidth } from '../table/DataTable.tsx'
import { readTableSettings, tableKey, visibleColumns, writeTableSettings, type TableSettings } from '../table/tableConfig.ts'
import { buildColumns } from './columns.tsx'
import { commandsFor, type CommandEnv } from './commands.ts'
import { RowActions } from './RowActions.tsx'
import type { CommandHelpers, ListCommand, ListConfig } from './types.ts'

/** Always shown unless a list says otherwise: the actions (an `id` column is a UUID, the first to give way to the width). */
const DEFAULT_MIN = ['actions']
/** A list narrower than this (px) keeps no column in view while the table scrolls sideways. */
const NARROW_LIST = 600

export function useListColumns({ config, url, fields, rowCommands, env, canView, helpers, rowName, width, selectable }: {
  config: ListConfig
  /** the width the table has (px; 0: unknown, every default column is shown) */
  width: number
  /** the table has a selection column */
  selectable: boolean
  rowName: (row: Row) => string
  url: string
  fields: readonly FieldMeta[]
  rowCommands: readonly ListCommand[]
  env: CommandEnv
  canView: boolean
  helpers: () => CommandHelpers
}) {
  const { i18n } = useLingui()
  const { t } = useLinguiMacro()
  const { resource } = config
  const key = tableKey(config.tableName ?? resource.routes.list.name, url)
  const [settings, setSettings] = useState<TableSettings>(() => readTableSettings(key))
  const save = (patch: Parameters<typeof writeTableSettings>[1]) => {
    writeTableSettings(key, patch)
    setSettings(readTableSettings(key))
  }
  const actionsLabel = t`Actions`
  const all = useMemo(() => buildColumns(fields, config, i18n, {
    detailTo: resource.routes.detail && canView ? (row) => routePath(resource.routes.detail!, { id: row.id }) : undefined,
    linkSearch: config.linkSearch,
    actions: {
      label: actionsLabel,
      render: (row) => {
        const visible = commandsFor('row', rowCommands, env, { row, selection: [] })
        return <RowActions row={row} commands={visible} env={env} helpers={helpers} rowName={rowName(row)} />
      },
    },
  }), [fields, config, i18n, resource.routes.detail, canView, rowCommands, env, rowName, helpers, actionsLabel])
  const min = config.columns?.min ?? DEFAULT_MIN
  const chosenIds = useMemo(
    () => visibleColumns(all.map((c) => c.id), { min, defaults: config.columns?.defaults, saved: settings.showColumns }),
    [all, min, config.columns?.defaults, settings.showColumns],
  )
  // The default columns, as many as fit the width (the least important go first); a user's own choice as chosen.
  const fittedKey = useMemo(() => {
    if (settings.showColumns || width <= 0) return chosenIds.join('\n')
    const chosen = all.filter((c) => chosenIds.includes(c.id))
    const fit = chosen.map((c) => ({ id: c.id, width: columnWidth(c, settings.columnWidths), priority: c.priority ?? DEFAULT_PRIORITY }))
    return fitColumns(fit, width, { keep: [...min, 'actions'], selectable }).join('\n')
  }, [all, chosenIds, settings.showColumns, settings.columnWidths, width, min, selectable])
  const shownIds = useMemo(() => (fittedKey ? fittedKey.split('\n') : []), [fittedKey])
  // On a narrow list the actions column scrolls with the others: kept in view it would cover most of the table.
  const narrow = width > 0 && width < NARROW_LIST
  const shown = useMemo(
    () => all.filter((c) => shownIds.includes(c.id)).map((c) => (narrow && c.sticky ? { ...c, sticky: false } : c)),
    [all, shownIds, narrow],
  )
  return {
    all,
    shown,
    shownIds,
    min,
    widths: settings.columnWidths,
    chooseColumns: (cols: string[] | null) => save({ showColumns: cols }),
    resize: (column: string, width: number) => save({ columnWidths: { ...settings.columnWidths, [column]: width } }),
  }
}
