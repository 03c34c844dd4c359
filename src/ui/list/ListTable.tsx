/**
 * The generic list (ListTable of the reference, console-behaviour §1.5): toolbar (commands, bulk actions,
 * search with tags, date range, tools, column settings), the table and the pager — all from the resource's
 * OPTIONS metadata and its configuration. Loading keeps rows in place; a failed load shows the error and an
 * empty table; an empty result says so.
 *
 * `ListTable` = list state (URL or local) + the data (`useListData`) + `ListView`. `ListView` takes its data as
 * props and reports changes through callbacks, so a route loader can feed it as well.
 */
import { makeStyles, tokens } from '@fluentui/react-components'
import { MessageBar, MessageBarBody } from '../common/lazyParts.ts'
import { useLingui } from '@lingui/react'
import { useLingui as useLinguiMacro } from '@lingui/react/macro'
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { fieldsOf, parseField, type FieldMeta } from '../../api/metadata.ts'
import { listQuery } from '../../api/queries.ts'
import type { Page } from '../../api/resources.ts'
import { isRootOrg, useAccess } from '../common/access.tsx'
import { useConfirm } from '../common/ConfirmDialog.tsx'
import { describeError } from '../common/errors.ts'
import { useGo, useOpenInNewTab } from '../common/navigation.tsx'
import { hasPerm } from '../common/perms.ts'
import { useCached } from '../common/useCached.ts'
import { useMetadata } from '../common/useMetadata.ts'
import { ColumnChooser } from '../table/ColumnChooser.tsx'
import { DataTable, type SortDirection } from '../table/DataTable.tsx'
import { Pager } from '../table/Pager.tsx'
import { writePageSize } from '../table/tableConfig.ts'
import { commandsFor, mergeCommands, type CommandEnv, type CommandTarget } from './commands.ts'
import { defaultListCommands, defaultRowName } from './defaultCommands.tsx'
import { filterOptions } from './filterOptions.ts'
import { lastPage, pageFixedFilters, toApiQuery, withChange, type ListState } from './listState.ts'
import { ListToolbar } from './ListToolbar.tsx'
import type { CommandHelpers, ListCommand, ListConfig, ListToolContext } from './types.ts'
import { useListColumns } from './useListColumns.tsx'
import { useListWidth } from './useListWidth.ts'
import { useListDefaults, useLocalListState, useUrlListState, type SetListState } from './useListState.ts'
import { useSelection } from './useSelection.ts'
import { lazyRetry } from '../common/retryImport.ts'


// The bulk-update form (and the form machinery under it) loads when it opens, not with every list (issue 17).
const BulkUpdateDialog = lazyRetry(() => import('./BulkUpdateDialog.tsx').then((m) => ({ default: m.BulkUpdateDialog })))
const useStyles = makeStyles({
  error: { marginBottom: tokens.spacingVerticalS },
})

/** What a list shows: one page of rows and the list's fields (from OPTIONS, or the configuration's own). */
export interface ListData {
  page: Page | undefined
  /** GET fields (columns, filters, export) */
  fields: readonly FieldMeta[]
  loading: boolean
  /** the rows or the metadata could not be loaded */
  error: unknown
  reload: () => void
}

export function ListTable({ config }: { config: ListConfig }) {
  return config.stateIn === 'local' ? <LocalList config={config} /> : <UrlList config={config} />
}

function UrlList({ config }: { config: ListConfig }) {
  const defaults = useListDefaults(config)
  const [state, setState] = useUrlListState(defaults)
  const data = useListData(config, state)
  return <ListView config={config} state={state} setState={setState} data={data} />
}

function LocalList({ config }: { config: ListConfig }) {
  const defaults = useListDefaults(config)
  const [state, setState] = useLocalListState(defaults)
  const data = useListData(config, state)
  return <ListView config={config} state={state} setState={setState} data={data} />
}

/** Rows and metadata of a list, loaded in parallel for the current organization and list state. */
export function useListData(config: ListConfig, state: ListState): ListData {
  const { i18n } = useLingui()
  const access = useAccess()
  const url = config.url ?? config.resource.url
  const explicit = config.columns?.fields
  const meta = useMetadata(explicit ? undefined : url)
  const query = toApiQuery(state)
  // The same cache key as the route's loader (src/router/pageData.ts): the first page is usually there already.
  const list = useCached(listQuery(url, query, access.orgId))
  const fields = useMemo(
    () => (explicit ? explicit.map((f) => parseField(f.name, { type: f.type ?? 'string', label: i18n._(f.label) })) : fieldsOf(meta.data, 'GET')),
    [explicit, meta.data, i18n],
  )
  return {
    page: list.status === 'error' ? undefined : list.data,
    fields,
    loading: list.status === 'loading' || meta.status === 'loading',
    error: list.status === 'error' ? list.error : meta.status === 'error' ? meta.error : undefined,
    reload: list.reload,
  }
}

function sortOf(order: string | undefined): { column: string; direction: SortDirection } | undefined {
  if (!order || order.includes(',')) return undefined
  return order.startsWith('-') ? { column: order.slice(1), direction: 'descending' } : { column: order, direction: 'ascending' }
}

export interface ListViewProps {
  config: ListConfig
  state: ListState
  /** every change of search, filters, sort, page or size */
  setState: SetListState
  data: ListData
}

export function ListView({ config, state, setState, data }: ListViewProps) {
  const { i18n } = useLingui()
  const { t } = useLinguiMacro()
  const styles = useStyles()
  const access = useAccess()
  const go = useGo()
  const openInNewTab = useOpenInNewTab()
  const [confirmDialog, confirm] = useConfirm()
  const { resource } = config
  const { page, fields, loading, error, reload } = data
  const url = config.url ?? resource.url
  const rowName = config.rowName ?? defaultRowName
  const rows = useMemo(() => page?.results ?? [], [page])

  // A page past the end (after deletes) moves to the last page that exists.
  useEffect(() => {
    if (page && page.results.length === 0 && page.count > 0 && state.page > 1) setState({ ...state, page: lastPage(page.count, state.size) }, { replace: true })
  }, [page, state, setState])

  const selection = useSelection(rows)
  const [bulkOpen, setBulkOpen] = useState(false)
  const { onSelectionChange, controlRef } = config
  useEffect(() => { onSelectionChange?.(selection.rows) }, [onSelectionChange, selection.rows])
  useEffect(() => {
    if (!controlRef) return undefined
    controlRef.current = { reload, clearSelection: selection.clear }
    return () => { controlRef.current = undefined }
  }, [controlRef, reload, selection.clear])

  const env: CommandEnv = useMemo(() => ({ access, perms: resource.perms, rootOrg: isRootOrg(access) }), [access, resource.perms])
  const commands = useMemo<ListCommand[]>(
    () => mergeCommands(defaultListCommands(config), config.commands?.overrides, config.commands?.extra),
    [config],
  )

  const query = toApiQuery(state)
  const tools: ListToolContext = {
    url,
    query: Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'limit' && k !== 'offset')),
    hasFilters: Object.keys(query).some((k) => !['limit', 'offset', 'date_from', 'date_to'].includes(k) && query[k] !== undefined),
    selection: selection.rows,
    fields,
    canImportCreate: hasPerm(access.perms, resource.perms.add),
    canImportUpdate: hasPerm(access.perms, resource.perms.change),
    exportRequiresConfirm: config.tools?.exportRequiresConfirm ?? false,
    reload,
  }
  const helpers: CommandHelpers = {
    resource, url, go, openInNewTab, confirm, reload, rowName,
    list: { clearSelection: selection.clear, openBulkUpdate: () => setBulkOpen(true), tools },
  }
  // Row cells are memoised with the columns: their commands read the helpers of the latest render when clicked.
  const helpersRef = useRef(helpers)
  useEffect(() => {
    helpersRef.current = helpers
  })
  const rowHelpers = useCallback(() => helpersRef.current, [])

  const target: CommandTarget = { selection: selection.rows }
  const header = commandsFor('header', commands, env, target).filter((c) => (c.id === 'import' ? config.tools?.import !== false : c.id === 'export' ? config.tools?.export !== false : true))
  const bulk = commandsFor('bulk', commands, env, target)
  const rowCommands = useMemo(() => commands.filter((c) => c.scope === 'row'), [commands])
  const canView = hasPerm(access.perms, resource.perms.view)
  const wrap = useRef<HTMLDivElement>(null)
  const width = useListWidth(wrap)
  const columns = useListColumns({ config, url, fields, rowCommands, env, canView, helpers: rowHelpers, rowName, width, selectable: bulk.length > 0 })

  const yes = t`Yes`
  const no = t`No`
  const options = useMemo(() => filterOptions(fields, { yes, no }, config.searchExclude), [fields, yes, no, config.searchExclude])
  const label = config.label ? i18n._(config.label) : resource.routes.list.name

  return (
    <div ref={wrap}>
      <ListToolbar
        header={header}
        bulk={bulk}
        env={env}
        target={target}
        helpers={() => helpers}
        state={state}
        setState={setState}
        searchOptions={options}
        hiddenFilters={pageFixedFilters(config)}
        dateRange={config.dateRange ?? false}
        columns={<ColumnChooser columns={columns.all.map((c) => ({ id: c.id, label: c.label }))} visible={columns.shownIds} min={columns.min} onApply={columns.chooseColumns} />}
      />
      {error !== undefined && (
        <Suspense fallback={null}>
          <MessageBar intent="error" className={styles.error}>
            <MessageBarBody>{describeError(error)}</MessageBarBody>
          </MessageBar>
        </Suspense>
      )}
      <DataTable
        label={label}
        columns={columns.shown}
        rows={rows}
        loading={loading}
        emptyText={loading ? t`Loading…` : error !== undefined ? t`The list could not be loaded` : t`No data`}
        selectable={bulk.length > 0}
        selected={selection.ids}
        onSelectionChange={selection.onChange}
        sort={sortOf(state.order)}
        onSortChange={(column, direction) => setState(withChange(state, { order: direction === 'descending' ? `-${column}` : column }))}
        widths={columns.widths}
        onColumnResize={columns.resize}
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
            related={resource.related}
            rows={selection.rows}
            rowName={rowName}
            onClose={(saved) => {
              setBulkOpen(false)
              if (saved) {
                selection.clear()
                reload()
              }
            }}
          />
        </Suspense>
      )}
    </div>
  )
}
