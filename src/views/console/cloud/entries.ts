/** Manifest entries of cloud sync (data only; the pages are in pages.ts). Reached from the asset list's "Cloud sync". */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'

export const CLOUD_ENTRIES = defineEntries([
  {
    key: 'cloud-accounts',
    model: 'xpack.account',
    url: '/api/v1/xpack/cloud/accounts/',
    path: '/console/assets/cloud/account',
    routeName: 'Account',
    typeLabel: msg`Cloud account`,
    titles: { list: msg`Cloud accounts`, create: msg`Create cloud account`, update: msg`Update cloud account`, detail: msg`Cloud account details` },
    perms: { view: 'xpack.view_account', add: 'xpack.add_account', change: 'xpack.change_account', delete: 'xpack.delete_account' },
    licenseRequired: true,
    offers: { import: false },
    defaultOrder: null,
  },
  {
    key: 'sync-instance-tasks',
    model: 'xpack.syncinstancetask',
    url: '/api/v1/xpack/cloud/sync-instance-tasks/',
    path: '/console/assets/cloud/sync-instance-tasks',
    routeName: 'SyncInstanceTask',
    typeLabel: msg`Sync instance task`,
    titles: { list: msg`Sync instance tasks`, create: msg`Create sync instance task`, update: msg`Update sync instance task`, detail: msg`Sync instance task details` },
    perms: { view: 'xpack.view_syncinstancetask', add: 'xpack.add_syncinstancetask', change: 'xpack.change_syncinstancetask', delete: 'xpack.delete_syncinstancetask' },
    licenseRequired: true,
    offers: { import: false },
    related: { account: 'xpack.account', node: 'assets.node' },
    defaultOrder: null,
  },
])
