/** The asset pages' shared configuration: kinds ↔ manifest keys, the list columns, the row commands per kind. */
import { msg } from '@lingui/core/macro'
import { createElement } from 'react'
import type { Row } from '../../../api/resources.ts'
import type { ResourceManifestItem } from '../../../router/resources.ts'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { manifestItem, type ResourceKey } from '../../entries.ts'
import { assetConnectivityCommands } from '../assets-net/connectivity.ts'
import { FavoriteStar } from './FavoriteStar.tsx'

/** Category value → manifest key of its kind. */
export const KIND_OF: Readonly<Record<string, ResourceKey>> = {
  host: 'hosts', database: 'databases', device: 'devices', cloud: 'clouds', web: 'webs', custom: 'customs',
}
export const KIND_KEYS = Object.keys(KIND_OF)
export const assetKindKey = (category: string): ResourceKey => KIND_OF[category] ?? 'hosts'

const categoryOf = (row: Row) => {
  const c = row.category as { value?: string } | string | undefined
  return typeof c === 'string' ? c : c?.value ?? 'host'
}

/** The list of one kind (or all): detail links go to AssetDetail, update to the row's kind's form. */
export function assetListConfig(item: ResourceManifestItem, opts: { extra?: ListCommand[]; onSelectionChange?: ListConfig['onSelectionChange']; controlRef?: ListConfig['controlRef'] } = {}): ListConfig {
  const detail = manifestItem('assets').routes.detail
  const update: Partial<ListCommand> = {
    visible: () => true,
    run: ({ row }, h) => { if (row) h.go(manifestItem(assetKindKey(categoryOf(row))).routes.update!.path.replace(':id', String(row.id))) },
  }
  const clone: Partial<ListCommand> = {
    visible: () => true,
    run: ({ row }, h) => { if (row) h.go(manifestItem(assetKindKey(categoryOf(row))).routes.create!.path, { clone_from: String(row.id) }) },
  }
  return {
    resource: { ...item.resource, routes: { ...item.resource.routes, detail } },
    label: item.entry.titles.list,
    columns: {
      min: ['favorite', 'name', 'actions'],
      extra: [{ id: 'favorite', label: msg`Favourite`, width: 56, render: (row) => createElement(FavoriteStar, { assetId: String(row.id), name: String(row.name) }) }],
      defaults: ['favorite', 'name', 'address', 'platform', 'category', 'type', 'connectivity', 'is_active', 'actions'],
      // whether it can be reached before what it is; the category and type go first when space runs out
      priority: { connectivity: 1, address: 2, platform: 2, is_active: 3, category: 4, type: 5 },
      exclude: ['nodes_display', 'auto_config', 'gathered_info', 'custom_info', 'script', 'ca_cert', 'client_cert', 'client_key'],
    },
    hiddenFilters: ['node_id'],
    searchExclude: ['id', 'node_id', 'node', 'ip'],
    defaultOrder: 'name',
    // kinds' lists: update and delete on the row (clone is on the detail page and the combined list)
    commands: { overrides: { update, clone: item.key === 'assets' ? clone : null, create: null }, extra: [...assetConnectivityCommands, ...(opts.extra ?? [])] },
    tools: { import: item.key !== 'assets' },
    onSelectionChange: opts.onSelectionChange,
    controlRef: opts.controlRef,
  }
}

export const ASSET_TABS = { basic: msg`Basic information`, protocols: msg`Protocols`, accounts: msg`Accounts`, labels: msg`Labels` }
