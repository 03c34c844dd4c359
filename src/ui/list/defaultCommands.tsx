/**
 * The standard commands of every list (spec §6, §9; console-behaviour §2.11): create, bulk delete, bulk update,
 * import, export, refresh; row update (10), delete (20), clone (30). Views add or override by id.
 */
import { msg, t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { AddRegular, ArrowClockwiseRegular, CopyRegular, DeleteRegular, EditRegular, TableEditRegular } from '@fluentui/react-icons'
import { bulkDelete, deleteResource, type Row } from '../../api/resources.ts'
import { notify } from '../common/notify.tsx'
import { routePath } from '../common/resource.ts'
import { listTools } from './tools.ts'
import type { ListCommand, ListConfig } from './types.ts'

/** `row.name || row.hostname || row.username || id` (console-behaviour §2.11). */
export function defaultRowName(row: Row): string {
  for (const key of ['name', 'hostname', 'username', 'display_name']) {
    const v = row[key]
    if (typeof v === 'string' && v) return v
  }
  return String(row.id)
}

const MAX_NAMED = 10

/** "alice, bob, … and 3 more" for confirmation texts. */
export function namesOf(rows: readonly Row[], rowName: (row: Row) => string): string {
  const names = rows.slice(0, MAX_NAMED).map(rowName).join(', ')
  const rest = rows.length - MAX_NAMED
  return rest > 0 ? t`${names} and ${rest} more` : names
}

export function defaultListCommands(config: ListConfig): ListCommand[] {
  const { routes } = config.resource
  return [
    {
      id: 'create', scope: 'header', label: msg`Create`, icon: AddRegular, order: 10, perms: ['@add'], hiddenInRoot: true, primary: true,
      visible: () => routes.create !== undefined,
      run: (_target, h) => {
        if (!routes.create) return
        const search = { ...config.linkSearch }
        if (config.createInNewTab) h.openInNewTab(routes.create.path, search)
        else h.go(routes.create.path, search)
      },
    },
    {
      id: 'bulkDelete', scope: 'bulk', label: msg`Delete selected`, icon: DeleteRegular, order: 20, perms: ['@delete'], danger: true,
      run: ({ selection }, h) => h.confirm({
        title: t`Delete ${selection.length} items`,
        danger: true,
        confirmLabel: t`Delete`,
        body: <Trans>This deletes {selection.length} selected items and cannot be undone: {namesOf(selection, h.rowName)}</Trans>,
        onConfirm: async () => {
          await bulkDelete(h.url, selection.map((r) => r.id))
          notify('success', t`Deleted ${selection.length} items`)
          h.list?.clearSelection()
          h.reload()
        },
      }),
    },
    {
      id: 'bulkUpdate', scope: 'bulk', label: msg`Update selected`, icon: TableEditRegular, order: 30, perms: ['@change'], hiddenInRoot: true,
      run: (_target, h) => h.list?.openBulkUpdate(),
    },
    {
      id: 'import', scope: 'header', placement: 'end', label: msg`Import`, order: 80, perms: ['@add|@change'], hiddenInRoot: true,
      visible: () => listTools().renderImport !== undefined,
      render: (_target, h) => (h.list ? listTools().renderImport?.(h.list.tools) : null),
    },
    {
      id: 'export', scope: 'header', placement: 'end', label: msg`Export`, order: 85, perms: ['@view'],
      visible: () => listTools().renderExport !== undefined,
      render: (_target, h) => (h.list ? listTools().renderExport?.(h.list.tools) : null),
    },
    {
      id: 'refresh', scope: 'header', placement: 'end', label: msg`Refresh`, icon: ArrowClockwiseRegular, order: 90,
      run: (_target, h) => h.reload(),
    },
    {
      id: 'update', scope: 'row', label: msg`Edit`, icon: EditRegular, order: 10, perms: ['@change'], hiddenInRoot: true,
      visible: () => routes.update !== undefined,
      run: ({ row }, h) => {
        const route = routes.update
        if (row && route) h.go(routePath(route, { id: row.id }), { ...config.linkSearch })
      },
    },
    {
      id: 'delete', scope: 'row', label: msg`Delete`, icon: DeleteRegular, order: 20, perms: ['@delete'], disabledInRoot: true, danger: true,
      run: ({ row }, h) => {
        if (!row) return
        const name = h.rowName(row)
        h.confirm({
          title: t`Delete`,
          danger: true,
          confirmLabel: t`Delete`,
          body: <Trans>Are you sure you want to delete “{name}”? This cannot be undone.</Trans>,
          onConfirm: async () => {
            await deleteResource(h.url, row.id)
            notify('success', t`Deleted “${name}”`)
            if (h.afterDelete) h.afterDelete()
            else h.reload()
          },
        })
      },
    },
    {
      id: 'clone', scope: 'row', label: msg`Duplicate`, icon: CopyRegular, order: 30, perms: ['@add'], hiddenInRoot: true,
      visible: () => routes.create !== undefined,
      run: ({ row }, h) => {
        const route = routes.create
        if (row && route) h.go(route.path, { ...config.linkSearch, clone_from: String(row.id) })
      },
    },
  ]
}
