/** Manifest entries of the ACLs and command groups (data only: part of the first chunk; the pages are in pages.ts). */
import { msg } from '@lingui/core/macro'
import { defineEntries } from '../../../router/resources.ts'


export const ACL_ENTRIES = defineEntries([
  {
    key: 'asset-acls',
    model: 'acls.loginassetacl',
    url: '/api/v1/acls/login-asset-acls/',
    path: '/console/perms/host-acls',
    routeName: 'AssetAcl',
    typeLabel: msg`Asset login ACL`,
    titles: { list: msg`Asset login ACLs`, create: msg`Create asset login ACL`, update: msg`Update asset login ACL`, detail: msg`Asset login ACL details` },
    licenseRequired: true,
    defaultOrder: 'priority',
    related: { reviewers: 'users.user' },
  },
  {
    key: 'command-acls',
    model: 'acls.commandfilteracl',
    url: '/api/v1/acls/command-filter-acls/',
    path: '/console/perms/cmd-acls',
    routeName: 'CommandFilterAcl',
    typeLabel: msg`Command filter`,
    titles: { list: msg`Command filters`, create: msg`Create command filter`, update: msg`Update command filter`, detail: msg`Command filter details` },
    defaultOrder: 'priority',
    related: { reviewers: 'users.user', command_groups: 'acls.commandgroup' },
  },
  {
    key: 'command-groups',
    model: 'acls.commandgroup',
    url: '/api/v1/acls/command-groups/',
    path: '/console/perms/cmd-groups',
    routeName: 'CommandGroup',
    typeLabel: msg`Command group`,
    titles: { list: msg`Command groups`, create: msg`Create command group`, update: msg`Update command group`, detail: msg`Command group details` },
    defaultOrder: null,
  },
])
