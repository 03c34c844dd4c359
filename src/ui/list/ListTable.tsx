/**
 * The generic list (ListTable of the reference, console-behaviour §1.5): toolbar (commands, bulk actions,
 * search with tags, date range, tools, column settings), the table and the pager — all from the resource's
 * OPTIONS metadata and its configuration. Loading keeps rows in place; a failed load shows the error and an
 * empty table; an empty result says so.
 */
import {
  Button, Menu, MenuButton, MenuItem, MenuList, MenuPopover, MenuTrigger, MessageBar, MessageBarBody, makeStyles, tokens,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react'
import { useLingui as useLinguiMacro } from '@lingui/react/macro'
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { fieldsOf, parseField } from '../../api/metadata.ts'
import { listQuery } from '../../api/queries.ts'
import type { Row, RowId } from '../../api/resources.ts'
import { isRootOrg, useAccess } from '../common/access.tsx'
import { useConfirm } from '../common/ConfirmDialog.tsx'
import { describeError } from '../common/errors.ts'
import { useGo, useOpenInNewTab } from '../common/navigation.tsx'
import { hasPerm } from '../common/perms.ts'
import { routePath } from '../common/resource.ts'
import { useCached } from '../common/useCached.ts'
import { useMetadata } from '../common/useMetadata.ts'
import { ColumnChooser } from '../table/ColumnChooser.tsx'
import { DataTable, type SortDirection } from '../table/DataTable.tsx'
import { Pager } from '../table/Pager.tsx'
import { readTableSettings, tableKey, visibleColumns, writePageSize, writeTableSettings, type TableSettings } from '../table/tableConfig.ts'
import { buildColumns } from './columns.tsx'
import { commandsFor, isEnabled, mergeCommands, type CommandEnv, type CommandTarget } from './commands.ts'
import { DateRange } from './DateRange.tsx'
import { defaultListCommands, defaultRowName } from './defaultCommands.tsx'
import { filterOptions } from './filterOptions.ts'
import { lastPage, pageFixedFilters, RESERVED_KEYS, toApiQuery, withChange, type ListState } from './listState.ts'
import { ListHelpersContext, RowActions } from './RowActions.tsx'
import { SearchBar } from './SearchBar.tsx'
import type { ListCommand, ListConfig, ListHelpers, ListToolContext } from './types.ts'
import { useListDefaults, useLocalListState, useUrlListState, type SetListState } from './useListState.ts'

const DEFAULT_MIN = ['actions', 'id']

// The bulk-update form (and the form machinery under it) loads when it opens, not with every list (issue 17).
const BulkUpdateDialog = lazy(() => import('./BulkUpdateDialog.tsx').then((m) => ({ default: m.BulkUpdateDialog })))

const useStyles = makeStyles({
  toolbar: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS, marginBottom: tokens.spacingVerticalM },
  end: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, marginLeft: 'auto' },
  error: { marginBottom: tokens.spacingVerticalS },
})

export function ListTable({ config }: { config: ListConfig }) {
  return config.stateIn === 'local' ? <LocalList config={config} /> : <UrlList config={config} />
}

function UrlList({ config }: { config: ListConfig }) {
  const defaults = useListDefaults(config)
  const [state, setState] = useUrlListState(defaults)
  return <ListView config={config} state={state} setState={setState} />
}

function LocalList({ config }: { config: ListConfig }) {
  const defaults = useListDefaults(config)
  const [state, setState] = useLocalListState(defaults)
  return <ListView config={config} state={state} setState={setState} />
}

function sortOf(order: string | undefined): { column: string; direction: SortDirection } | undefined {
  if (!order || order.includes(',')) return undefined
  return order.startsWith('-') ? { column: order.slice(1), direction: 'descending' } : { column: order, direction: 'ascending' }
}

function ListView({ config, state, setState }: { config: ListConfig; state: ListState; setState: SetListState }) {
  const { i18n } = useLingui()
  const { t } = useLinguiMacro()
  const styles = useStyles()
  const access = useAccess()
  const go = useGo()
  const openInNewTab = useOpenInNewTab()
  const [confirmDialog, confirm] = useConfirm()
  const { resource } = config
  const url = config.url ?? resource.url
  const rowName = config.rowName ?? defaultRowName

  // Metadata and rows load in parallel.
  const explicit = config.columns?.fields
  const meta = useMetadata(explicit ? undefined : url)
  const query = toApiQuery(state)
  // The same cache key as the route's loader (src/router/pageData.ts): the first page is usually there already.
  const list = useCached(listQuery(url, query, access.orgId))
  const page = list.status === 'error' ? undefined : list.data
  const rows = useMemo(() => page?.results ?? [], [page])

  // A page past the end (after deletes) moves to the last page that exists.
  useEffect(() => {
    if (page && page.results.length === 0 && page.count > 0 && state.page > 1) setState({ ...state, page: lastPage(page.count, state.size) }, { replace: true })
  }, [page, state, setState])

  const [selected, setSelected] = useState<Map<RowId, Row>>(new Map())
  const selection = useMemo(() => [...selected.values()], [selected])
  const selectedIds = useMemo(() => new Set(selected.keys()), [selected])
  const onSelectionChange = useCallback((ids: Set<RowId>) => {
    setSelected((prev) => {
      const next = new Map<RowId, Row>()
      for (const id of ids) {
        const row = prev.get(id) ?? rows.find((r) => r.id === id)
        if (row) next.set(id, row)
      }
      return next
    })
  }, [rows, setSelected])

  const [bulkOpen, setBulkOpen] = useState(false)

  const getFields = useMemo(
    () => (explicit ? explicit.map((f) => parseField(f.name, { type: f.type ?? 'string', label: i18n._(f.label) })) : fieldsOf(meta.data, 'GET')),
    [explicit, meta.data, i18n],
  )
  const env: CommandEnv = useMemo(() => ({ access, perms: resource.perms, rootOrg: isRootOrg(access) }), [access, resource.perms])
  const commands = useMemo<ListCommand[]>(
    () => mergeCommands(defaultListCommands(config), config.commands?.overrides, config.commands?.extra),
    [config],
  )

  const hasFilters = Object.keys(query).some((k) => !['limit', 'offset', 'date_from', 'date_to'].includes(k) && query[k] !== undefined)
  const tools: ListToolContext = {
    url,
    query: Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'limit' && k !== 'offset')),
    hasFilters,
    selection,
    fields: getFields,
    canImportCreate: hasPerm(access.perms, resource.perms.add),
    canImportUpdate: hasPerm(access.perms, resource.perms.change),
    exportRequiresConfirm: config.tools?.exportRequiresConfirm ?? false,
    reload: list.reload,
  }
  const helpers: ListHelpers = {
    resource, url, go, openInNewTab, confirm, reload: list.reload, rowName, tools,
    clearSelection: () => setSelected(new Map()),
    openBulkUpdate: () => setBulkOpen(true),
  }

  const noTarget: CommandTarget = { selection }
  const header = commandsFor('header', commands, env, noTarget).filter((c) => (c.id === 'import' ? config.tools?.import !== false : c.id === 'export' ? config.tools?.export !== false : true))
  const bulk = commandsFor('bulk', commands, env, noTarget)
  const rowCommands = useMemo(() => commands.filter((c) => c.scope === 'row'), [commands])
  const canView = hasPerm(access.perms, resource.perms.view)

  // Columns
  const key = tableKey(config.tableName ?? resource.routes.list.name, url)
  const [settings, setSettings] = useState<TableSettings>(() => readTableSettings(key))
  const saveSettings = (patch: Parameters<typeof writeTableSettings>[1]) => {
    writeTableSettings(key, patch)
    setSettings(readTableSettings(key))
  }
  const actionsLabel = t`Actions`
  const allColumns = useMemo(() => buildColumns(getFields, config, i18n, {
    detailTo: resource.routes.detail && canView ? (row) => routePath(resource.routes.detail!, { id: row.id }) : undefined,
    linkSearch: config.linkSearch,
    actions: {
      label: actionsLabel,
      render: (row) => {
        const target = { row, selection: [] }
        const visible = commandsFor('row', rowCommands, env, target)
        return <RowActions row={row} commands={visible} env={env} rowName={rowName(row)} />
      },
    },
  }), [getFields, config, i18n, resource.routes.detail, canView, rowCommands, env, rowName, actionsLabel])
  const min = config.columns?.min ?? DEFAULT_MIN
  const shownIds = useMemo(
    () => visibleColumns(allColumns.map((c) => c.id), { min, defaults: config.columns?.defaults, saved: settings.showColumns }),
    [allColumns, min, config.columns?.defaults, settings.showColumns],
  )
  const columns = useMemo(() => allColumns.filter((c) => shownIds.includes(c.id)), [allColumns, shownIds])

  const yes = t`Yes`
  const no = t`No`
  const options = useMemo(() => filterOptions(getFields, { yes, no }, config.searchExclude), [getFields, yes, no, config.searchExclude])
  const hidden = useMemo(() => pageFixedFilters(config), [config])

  const error = list.status === 'error' ? list.error : meta.status === 'error' ? meta.error : undefined
  const loading = list.status === 'loading' || meta.status === 'loading'
  const label = config.label ? i18n._(config.label) : resource.routes.list.name

  return (
    <ListHelpersContext.Provider value={helpers}>
      <div>
      <div className={styles.toolbar}>
        {header.filter((c) => c.placement !== 'end').map((cmd) => (
          cmd.render ? <span key={cmd.id}>{cmd.render(noTarget, helpers)}</span> : (
            <Button key={cmd.id} data-command={cmd.id} appearance={cmd.primary ? 'primary' : 'secondary'} icon={cmd.icon ? <cmd.icon /> : undefined} disabled={!isEnabled(cmd, env, noTarget)} onClick={() => void cmd.run?.(noTarget, helpers)}>
              {i18n._(cmd.label)}
            </Button>
          )
        ))}
        {bulk.length > 0 && (
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <MenuButton data-command="bulk" appearance="secondary">{selection.length > 0 ? t`Actions (${selection.length} selected)` : t`Actions`}</MenuButton>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {bulk.map((cmd) => (
                  <MenuItem key={cmd.id} data-command={cmd.id} icon={cmd.icon ? <cmd.icon /> : undefined} disabled={!isEnabled(cmd, env, noTarget)} onClick={() => void cmd.run?.(noTarget, helpers)}>
                    {i18n._(cmd.label)}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
        )}
        <SearchBar
          options={options}
          search={state.search}
          filters={state.filters}
          hidden={hidden}
          onChange={(search, filters) => setState(withChange(state, { search, filters: Object.fromEntries(Object.entries(filters).filter(([k]) => !RESERVED_KEYS.has(k))) }))}
        />
        {config.dateRange && <DateRange from={state.dateFrom} to={state.dateTo} onChange={(dateFrom, dateTo) => setState(withChange(state, { dateFrom, dateTo }))} />}
        <div className={styles.end}>
          {header.filter((c) => c.placement === 'end').map((cmd) => (
            cmd.render ? <span key={cmd.id}>{cmd.render(noTarget, helpers)}</span> : (
              <Button key={cmd.id} data-command={cmd.id} appearance="subtle" icon={cmd.icon ? <cmd.icon /> : undefined} aria-label={i18n._(cmd.label)} title={i18n._(cmd.label)} onClick={() => void cmd.run?.(noTarget, helpers)} />
            )
          ))}
          <ColumnChooser
            columns={allColumns.map((c) => ({ id: c.id, label: c.label }))}
            visible={shownIds}
            min={min}
            onApply={(cols) => saveSettings({ showColumns: cols })}
          />
        </div>
      </div>
      {error !== undefined && (
        <MessageBar intent="error" className={styles.error}>
          <MessageBarBody>{describeError(error)}</MessageBarBody>
        </MessageBar>
      )}
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        loading={loading}
        emptyText={loading ? t`Loading…` : error !== undefined ? t`The list could not be loaded` : t`No data`}
        selectable={bulk.length > 0}
        selected={selectedIds}
        onSelectionChange={onSelectionChange}
        sort={sortOf(state.order)}
        onSortChange={(column, direction) => setState(withChange(state, { order: direction === 'descending' ? `-${column}` : column }))}
        widths={settings.columnWidths}
        onColumnResize={(column, width) => saveSettings({ columnWidths: { ...settings.columnWidths, [column]: width } })}
        rowLabel={rowName}
      />
      <Pager
        count={page?.count ?? 0}
        page={state.page}
        size={state.size}
        onPage={(p) => setState({ ...state, page: p })}
        onSize={(size) => {
          writePageSize(size)
          setState(withChange(state, { size }))
        }}
      />
      {confirmDialog}
      {bulkOpen && (
        <Suspense fallback={null}>
          <BulkUpdateDialog
            url={url}
            rows={selection}
            rowName={rowName}
            onClose={(saved) => {
              setBulkOpen(false)
              if (saved) {
                setSelected(new Map())
                list.reload()
              }
            }}
          />
        </Suspense>
      )}
      </div>
    </ListHelpersContext.Provider>
  )
}
