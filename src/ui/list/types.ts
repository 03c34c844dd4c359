/** The configuration a view passes to the generic list (a resource described once; the list does the rest). */
import type { MessageDescriptor } from '@lingui/core'
import type { ReactNode } from 'react'
import type { FieldMeta, FieldType } from '../../api/metadata.ts'
import type { Query, Row } from '../../api/resources.ts'
import type { ConfirmOptions } from '../common/ConfirmDialog.tsx'
import type { ResourceDef } from '../common/resource.ts'
import type { FormatterKind } from '../table/formatters.ts'
import type { Command } from './commands.ts'

export interface ColumnOverride {
  label?: MessageDescriptor
  formatter?: FormatterKind
  width?: number
  minWidth?: number
  sortable?: boolean
  render?: (row: Row) => ReactNode
}

export interface ExtraColumn {
  id: string
  label: MessageDescriptor
  render: (row: Row) => ReactNode
  width?: number
  /** as `columns.priority` */
  priority?: number
}

/**
 * What commands may do. A list provides everything; a detail page provides the object's part only and leaves
 * `list` out (so a detail page never carries stand-ins for selection, bulk update or tools).
 */
export interface CommandHelpers {
  resource: ResourceDef
  /** the list's API URL (with its fixed query) */
  url: string
  go: (path: string, search?: Record<string, unknown>) => void
  openInNewTab: (path: string, search?: Record<string, unknown>) => void
  confirm: (options: ConfirmOptions) => void
  reload: () => void
  rowName: (row: Row) => string
  /** after a row was deleted: the list reloads; a detail page goes back to the list */
  afterDelete?: () => void
  /** what only a list has: its selection, the bulk update dialog, the import/export context */
  list?: ListCapabilities
}

export interface ListCapabilities {
  clearSelection: () => void
  openBulkUpdate: () => void
  tools: ListToolContext
}

/** What an import/export slot gets from the list (console-behaviour §2.5–2.6). */
export interface ListToolContext {
  url: string
  /** the current query without limit/offset (export "filtered") */
  query: Query
  /** filters other than paging and date range are active (export "all" is disabled then) */
  hasFilters: boolean
  selection: readonly Row[]
  fields: readonly FieldMeta[]
  canImportCreate: boolean
  canImportUpdate: boolean
  /** the export must first pass the user-confirmation flow (e.g. secrets) */
  exportRequiresConfirm: boolean
  reload: () => void
}

export type ListCommand = Command<CommandHelpers>

export interface ListConfig {
  resource: ResourceDef
  /** API URL when it differs from the resource's (a fixed query such as `?user=<id>`) */
  url?: string
  /** name for the table settings key; default the list route's name */
  tableName?: string
  columns?: {
    exclude?: readonly string[]
    extra?: readonly ExtraColumn[]
    /** minimum set, always shown (default: actions) */
    min?: readonly string[]
    /** shown by default (default: all), as many as fit the list's width (src/ui/table/columnFit.ts) */
    defaults?: readonly string[]
    /**
     * Which default columns stay when they do not all fit: 1 = a key column, larger numbers go first (default:
     * guessed from the field, `guessPriority`). What does not fit stays in the column settings.
     */
    priority?: Readonly<Record<string, number>>
    overrides?: Readonly<Record<string, ColumnOverride>>
    /** explicit columns for URLs without OPTIONS metadata (custom list actions such as `…/<id>/users/`) */
    fields?: readonly { name: string; label: MessageDescriptor; type?: FieldType }[]
  }
  commands?: {
    overrides?: Readonly<Record<string, Partial<ListCommand> | null>>
    extra?: readonly ListCommand[]
  }
  /** default `order` (default: the resource's, else `-date_updated`; null: the server's) */
  defaultOrder?: string | null
  /** offer a date range (default last 7 days) */
  dateRange?: boolean
  /** filter fields not offered in the search box */
  searchExclude?: readonly string[]
  /** URL filters that are fixed by the page and not shown as removable tags */
  hiddenFilters?: readonly string[]
  /** search params added to every route the list links to: create, update, clone, detail (e.g. `{ user: id }`) */
  linkSearch?: Readonly<Record<string, string>>
  createInNewTab?: boolean
  /** list state in the URL (pages) or local (lists inside a detail tab) */
  stateIn?: 'url' | 'local'
  tools?: { import?: boolean; export?: boolean; exportRequiresConfirm?: boolean }
  rowName?: (row: Row) => string
  /** accessible name of the table (default: the list's heading) */
  label?: MessageDescriptor
  /** told every change of the selection (a page acting on it from outside the table, e.g. a tree's menu) */
  onSelectionChange?: (rows: readonly Row[]) => void
  /** filled with the list's controls, for a page that changes its rows from outside (reload after a move) */
  controlRef?: { current: ListControl | undefined }
}

export interface ListControl {
  reload: () => void
  clearSelection: () => void
}
