import { msg } from '@lingui/core/macro'
import type { RouteNode } from '../types.ts'
import { resourceSlot } from '../resources.ts'
import { group, page, perm, view } from './helpers.ts'

const asset = perm('assets', 'asset')
const cloudAccount = perm('xpack', 'account')

/** Asset kinds: list/create/update pages reached from the asset list's category tabs (hidden from the menu). */
const KIND = { hidden: true, activeMenu: '/console/assets/assets' }

/** Console (administration) view: console-behaviour §3. */
export const consoleRoutes: RouteNode = view('console', 'Console', msg`Console`, '/console/dashboard', [
  page('dashboard', 'AdminDashboard', msg`Dashboard`, [], { icon: 'dashboard' }),
  // Resources of the manifest (src/views/manifest.ts) take their place here.
  group('users', 'Users', msg`Users`, 'users', [resourceSlot('users'), resourceSlot('user-groups'), resourceSlot('roles')]),
  group('assets', 'Assets', msg`Assets`, 'assets', [
    resourceSlot('assets', [page('detail/:id/update', 'AssetMoreInformationEdit', msg`Update asset`, [asset.change])]),
    resourceSlot('hosts', [], KIND),
    resourceSlot('databases', [], KIND),
    resourceSlot('devices', [], KIND),
    resourceSlot('clouds', [], KIND),
    resourceSlot('webs', [], KIND),
    resourceSlot('customs', [], KIND),
    // domains with their gateways (a nested manifest entry: GatewayList/Create/Update/Detail below the domains)
    resourceSlot('domains'),
    resourceSlot('platforms'),
    resourceSlot('labels'),
    page('cloud', 'CloudCenter', msg`Cloud sync`, [cloudAccount.view], {
      licenseRequired: true,
      hidden: true,
      activeMenu: '/console/assets/assets',
      children: [
        // the cloud accounts and sync tasks (manifest entries: src/views/console/cloud/entries.ts)
        resourceSlot('cloud-accounts'),
        resourceSlot('sync-instance-tasks'),
      ],
    }),
  ]),
  group('accounts', 'Accounts', msg`Accounts`, 'accounts', [
    resourceSlot('accounts'),
    resourceSlot('account-templates'),
    resourceSlot('account-push'),
    resourceSlot('account-gather'),
    resourceSlot('account-change-secret'),
    resourceSlot('account-backup'),
  ]),
  group('perms', 'Perms', msg`Policies`, 'perms', [
    resourceSlot('asset-permissions'),
    resourceSlot('asset-acls'),
    resourceSlot('command-acls'),
    // Command groups: their own menu entry (the reference hid them behind a tab of the command filter page).
    resourceSlot('command-groups'),
  ]),
], { showOrganization: true })
