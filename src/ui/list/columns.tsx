/**
 * Table columns from the GET metadata (console-behaviour §1.5): every readable field, minus excluded ones,
 * plus extra columns, then the actions column; formatter by name then type, overridable per column.
 */
import type { I18n } from '@lingui/core'
import type { ReactNode } from 'react'
import type { FieldMeta } from '../../api/metadata.ts'
import type { Row } from '../../api/resources.ts'
import { CellValue } from '../table/CellValue.tsx'
import type { DataColumn } from '../table/DataTable.tsx'
import { DEFAULT_PRIORITY, guessPriority } from '../table/columnFit.ts'
import { chooseFormatter, type FormatterKind } from '../table/formatters.ts'
import type { ListConfig } from './types.ts'

const WIDTH: Partial<Record<FormatterKind, number>> = { detailLink: 160, yesNo: 80, datetime: 165, number: 100, longText: 180, relatedList: 130, list: 130, labeledChoice: 110, choice: 110 }
const TEXT_WIDTH = 130

export function buildColumns(
  fields: readonly FieldMeta[],
  config: Pick<ListConfig, 'columns'>,
  i18n: I18n,
  opts: { detailTo?: (row: Row) => string | undefined; linkSearch?: Readonly<Record<string, string>>; actions?: { label: string; render: (row: Row) => ReactNode } },
): DataColumn[] {
  const exclude = new Set(config.columns?.exclude ?? [])
  const overrides = config.columns?.overrides ?? {}
  const priority = config.columns?.priority ?? {}
  const out: DataColumn[] = []
  for (const field of fields) {
    if (field.writeOnly || exclude.has(field.name)) continue
    const o = overrides[field.name] ?? {}
    const kind = o.formatter ?? chooseFormatter(field)
    const to = kind === 'detailLink' ? opts.detailTo : undefined
    out.push({
      id: field.name,
      label: o.label ? i18n._(o.label) : field.label,
      sortable: o.sortable ?? field.order,
      minWidth: o.minWidth,
      defaultWidth: o.width ?? (field.type === 'email' ? 190 : WIDTH[kind] ?? TEXT_WIDTH),
      priority: priority[field.name] ?? guessPriority(field.name, kind),
      render: o.render ?? ((row: Row) => <CellValue kind={kind} value={row[field.name]} field={field} to={to?.(row)} search={opts.linkSearch} />),
    })
  }
  for (const extra of config.columns?.extra ?? []) {
    if (exclude.has(extra.id)) continue
    out.push({ id: extra.id, label: i18n._(extra.label), render: extra.render, defaultWidth: extra.width ?? TEXT_WIDTH, priority: priority[extra.id] ?? extra.priority ?? DEFAULT_PRIORITY })
  }
  if (opts.actions && !exclude.has('actions')) out.push({ id: 'actions', label: opts.actions.label, render: opts.actions.render, defaultWidth: 150, minWidth: 120, sticky: true })
  return out
}
