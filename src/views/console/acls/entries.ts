/** Manifest entries of the ACLs and command groups (data and lazy imports only: part of the first chunk). */
import { msg } from '@lingui/core/macro'
import type { ResourceEntry } from '../../../router/resources.ts'

const pages = (kind: 'command' | 'asset') => ({
  list: () => import('./AclListPage.tsx').then((m) => (kind === 'command' ? m.CommandAclListPage : m.AssetAclListPage)),
  create: () => import('./AclPages.tsx').then((m) => (kind === 'command' ? m.CommandAclFormPage : m.AssetAclFormPage)),
  update: () => import('./AclPages.tsx').then((m) => (kind === 'command' ? m.CommandAclFormPage : m.AssetAclFormPage)),
  detail: () => import('./AclPages.tsx').then((m) => (kind === 'command' ? m.CommandAclDetailPage : m.AssetAclDetailPage)),
})

export const ACL_ENTRIES: readonly ResourceEntry[] = [
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
    pages: pages('asset'),
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
    pages: pages('command'),
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
]
