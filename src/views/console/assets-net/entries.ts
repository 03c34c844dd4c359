/** Manifest entries of labels, domains and gateways (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

const ASSET_RELATED = { platform: 'assets.platform', domain: 'assets.domain', nodes: 'assets.node', labels: 'assets.label' }

export const ASSET_NET_ENTRIES = defineEntries([
  {
    key: 'labels',
    model: 'assets.label',
    url: '/api/v1/assets/labels/',
    path: '/console/assets/labels',
    routeName: 'Label',
    typeLabel: msg`Label`,
    titles: { list: msg`Labels`, create: msg`Create label`, update: msg`Update label`, detail: msg`Label details` },
    related: { assets: 'assets.asset' },
    // several labels share a name (env:prod, env:dev): pickers show both parts
    label: '{name}:{value}',
    defaultOrder: null,
  },
  {
    key: 'domains',
    model: 'assets.domain',
    url: '/api/v1/assets/domains/',
    path: '/console/assets/domains',
    routeName: 'Domain',
    typeLabel: msg`Domain`,
    titles: { list: msg`Domains`, create: msg`Create domain`, update: msg`Update domain`, detail: msg`Domain details` },
    related: { assets: 'assets.asset' },
    defaultOrder: null,
  },
  {
    // a gateway is a host on the Gateway platform inside a domain: its pages hang below the domains
    key: 'gateways',
    model: 'assets.gateway',
    url: '/api/v1/assets/gateways/',
    path: '/console/assets/domains/gateways',
    parent: 'domains',
    routeName: 'Gateway',
    typeLabel: msg`Gateway`,
    titles: { list: msg`Gateways`, create: msg`Create gateway`, update: msg`Update gateway`, detail: msg`Gateway details` },
    perms: { view: 'assets.view_gateway', add: 'assets.add_gateway', change: 'assets.change_gateway', delete: 'assets.delete_gateway' },
    related: ASSET_RELATED,
  },
])

