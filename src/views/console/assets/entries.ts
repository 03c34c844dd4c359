/** Manifest entries of the assets, their kinds and the platforms (data only: part of the first chunk; the pages are in pages.ts). */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { defineEntries, type ResourceEntry } from '../../../router/resources.ts'

const ASSET_PERMS = { view: 'assets.view_asset', add: 'assets.add_asset', change: 'assets.change_asset', delete: 'assets.delete_asset' }
const ASSET_RELATED = { platform: 'assets.platform', nodes: 'assets.node', domain: 'assets.domain', labels: 'assets.label' }

const assetKind = <K extends string>(key: K, kind: string, routeName: string, typeLabel: MessageDescriptor, titles: ResourceEntry['titles']): ResourceEntry & { key: K } => ({
  key, model: `assets.${kind}`, url: `/api/v1/assets/${key}/`, path: `/console/assets/${key}`, routeName, typeLabel, titles,
  perms: ASSET_PERMS, related: ASSET_RELATED, offers: { detail: false }, defaultOrder: 'name',
})

export const ASSET_ENTRIES = defineEntries([
  {
    key: 'assets', model: 'assets.asset', url: '/api/v1/assets/assets/', path: '/console/assets/assets', routeName: 'Asset',
    typeLabel: msg`Asset`, titles: { list: msg`Asset list`, detail: msg`Asset details` },
    perms: ASSET_PERMS, related: ASSET_RELATED, offers: { create: false, update: false, import: false }, defaultOrder: 'name',
  },
  assetKind('hosts', 'host', 'Host', msg`Host`, { list: msg`Hosts`, create: msg`Create host`, update: msg`Update host` }),
  assetKind('databases', 'database', 'Database', msg`Database`, { list: msg`Databases`, create: msg`Create database`, update: msg`Update database` }),
  assetKind('devices', 'device', 'Device', msg`Network device`, { list: msg`Network devices`, create: msg`Create network device`, update: msg`Update network device` }),
  assetKind('clouds', 'cloud', 'CloudsPlatform', msg`Cloud service`, { list: msg`Cloud services`, create: msg`Create cloud service`, update: msg`Update cloud service` }),
  assetKind('webs', 'web', 'Web', msg`Web`, { list: msg`Webs`, create: msg`Create web`, update: msg`Update web` }),
  assetKind('customs', 'custom', 'Custom', msg`Custom asset`, { list: msg`Custom assets`, create: msg`Create custom asset`, update: msg`Update custom asset` }),
  {
    key: 'platforms', model: 'assets.platform', url: '/api/v1/assets/platforms/', path: '/console/assets/platforms', routeName: 'Platform',
    typeLabel: msg`Platform`, titles: { list: msg`Platforms`, create: msg`Create platform`, update: msg`Update platform`, detail: msg`Platform details` },
    defaultOrder: 'id',
  },
])
